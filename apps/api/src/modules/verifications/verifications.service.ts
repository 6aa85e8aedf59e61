import { randomInt } from 'node:crypto';
import type { CreateVerificationRequest, PageQuery, VerificationType } from '@cp/contracts';
import { zCreateVerificationRequest } from '@cp/contracts';
import { type AttributeType, type ClaimTypingError, typeClaimValue } from '@cp/credentials';
import type { Database, schema } from '@cp/db';
import { AppError, type FieldError } from '../../errors/app-error.ts';
import { type AuditActor, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import * as repository from './verifications.repository.ts';

export interface VerificationScope {
  organizationId: string;
  userId: string | null;
  actor: AuditActor;
}

/** The spec's messages for a rule value that does not fit its attribute's type. */
const ruleValueMessages: Record<ClaimTypingError, string> = {
  REQUIRED: 'Required',
  NOT_A_NUMBER: 'Must be a numeric value',
  NOT_A_URL: 'Must be a valid URL',
  NOT_AN_EMAIL: 'Must be a valid Email',
  NOT_A_DATE: 'Must be a date value',
  NOT_A_BOOLEAN: 'Must be true or false',
  TOO_LONG: 'Too long',
};

/** A claim a verification can name in rules and "claims to see": a schema attribute or an external claim. */
interface NamedClaim {
  id?: string;
  name: string;
  type: AttributeType;
}

/** Checks the rules and requested claims against the schema or credential type; answers what is stored. */
async function resolveDefinition(db: Database, organizationId: string, input: CreateVerificationRequest) {
  const parsed = zCreateVerificationRequest.parse(input);
  const errors: FieldError[] = [];
  let claims: NamedClaim[];
  let schemaId: string | null = null;
  let credentialType: schema.ExternalCredentialTypeRecord | null = null;
  if (parsed.schema_id) {
    const record = await credentialSchemasService.getCredentialSchema(db, { organizationId, id: parsed.schema_id });
    schemaId = record.schema.id;
    claims = record.attributes.map((a) => ({ id: a.id, name: a.name, type: a.type as AttributeType }));
  } else {
    const credential = parsed.credential!;
    credentialType = {
      format: credential.format,
      vctValues: credential.format === 'dc+sd-jwt' ? [...new Set(credential.vct_values)] : [],
      ...(credential.format === 'mso_mdoc' ? { docType: credential.doctype_value } : {}),
      claims: credential.claims.map((c) => ({ name: c.name, path: c.path, type: c.type })),
    };
    claims = credential.claims.map((c) => ({ name: c.name, type: c.type }));
  }
  const byId = new Map(claims.filter((c) => c.id).map((c) => [c.id!, c]));
  const byName = new Map(claims.map((c) => [c.name, c]));
  const rules: schema.VerificationRuleRecord[] = [];
  parsed.attributes.forEach((rule, index) => {
    const claim = schemaId
      ? rule.attribute_id
        ? byId.get(rule.attribute_id)
        : undefined
      : rule.claim
        ? byName.get(rule.claim)
        : undefined;
    if (!claim) {
      errors.push(
        schemaId
          ? { path: `attributes.${index}.attribute_id`, message: 'Not an attribute of this schema' }
          : { path: `attributes.${index}.claim`, message: 'Not a claim of this credential type' },
      );
      return;
    }
    const typed = typeClaimValue(claim.type, rule.value);
    if (!typed.ok) {
      errors.push({ path: `attributes.${index}.value`, message: ruleValueMessages[typed.error] });
      return;
    }
    rules.push({
      ...(claim.id ? { attributeId: claim.id } : {}),
      name: claim.name,
      type: claim.type,
      operator: rule.operator,
      value: String(typed.value),
    });
  });
  const requestedIds = schemaId ? [...new Set(parsed.requested_attribute_ids ?? [])] : [];
  requestedIds.forEach((id, index) => {
    if (!byId.has(id))
      errors.push({ path: `requested_attribute_ids.${index}`, message: 'Not an attribute of this schema' });
  });
  const requestedNames = schemaId ? [] : [...new Set(parsed.requested_claims ?? [])];
  requestedNames.forEach((name, index) => {
    if (!byName.has(name))
      errors.push({ path: `requested_claims.${index}`, message: 'Not a claim of this credential type' });
  });
  if (errors.length > 0) {
    throw new AppError('VERIFICATION_RULES_INVALID', { detail: 'Some rules do not fit the credential.', errors });
  }
  const wanted = new Set([
    ...requestedIds.map((id) => byId.get(id)!.name),
    ...requestedNames,
    ...rules.map((r) => r.name),
  ]);
  // Nothing named: ask for the whole credential (every attribute), as the reference product did.
  const requested = wanted.size === 0 ? claims : claims.filter((c) => wanted.has(c.name));
  const trustedIssuers = [...new Set(parsed.trusted_issuers.map((t) => t.trim()))];
  return {
    schemaId,
    credentialType,
    // An external type says its own format; a schema is asked for as an SD-JWT VC unless told otherwise.
    format: credentialType?.format ?? parsed.format ?? 'dc+sd-jwt',
    name: parsed.name,
    description: parsed.description || null,
    type: parsed.type,
    rules,
    trustPolicy: parsed.trust_policy ?? (trustedIssuers.length > 0 ? 'NAMED_ISSUERS' : 'PLATFORM_VERIFIED'),
    trustedIssuers,
    clientIdScheme: parsed.client_id_scheme ?? 'x509_hash',
    requestedAttributeIds: requestedIds,
    requestedClaims: requested.map((c) => c.name),
  };
}

/** A short public reference for the console's "proof id" column. */
function presentId() {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let id = 'VP-';
  for (let i = 0; i < 8; i++) id += alphabet[randomInt(alphabet.length)];
  return id;
}

export async function createVerification(db: Database, scope: VerificationScope, input: CreateVerificationRequest) {
  const definition = await resolveDefinition(db, scope.organizationId, input);
  const row = await db.transaction(async (tx) => {
    const inserted = await repository.insertVerification(tx, {
      ...definition,
      organizationId: scope.organizationId,
      presentId: presentId(),
      createdByUserId: scope.userId,
    });
    await recordAuditEvent(tx, scope, {
      action: 'verification.created',
      target: { id: inserted.id, label: inserted.name },
      details: { type: definition.type },
    });
    return inserted;
  });
  return getVerification(db, scope.organizationId, row.id);
}

export async function updateVerification(
  db: Database,
  organizationId: string,
  id: string,
  input: CreateVerificationRequest,
  actor: AuditActor,
) {
  await getVerification(db, organizationId, id);
  const definition = await resolveDefinition(db, organizationId, input);
  // Attempts already under way keep the request they were given; new ones use the new definition.
  await db.transaction(async (tx) => {
    if (!(await repository.updateVerification(tx, organizationId, id, definition))) {
      throw new AppError('VERIFICATION_NOT_FOUND');
    }
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      { action: 'verification.updated', target: { id, label: definition.name }, details: { type: definition.type } },
    );
  });
  return getVerification(db, organizationId, id);
}

/** The schema a verification asks for (null for an external credential type), deleted ones included. */
const schemaOf = (db: Database, organizationId: string, record: repository.VerificationRecord) =>
  record.verification.schemaId
    ? credentialSchemasService.getCredentialSchema(db, {
        organizationId,
        id: record.verification.schemaId,
        includeDeleted: true,
      })
    : Promise.resolve(null);

export async function getVerification(db: Database, organizationId: string, id: string) {
  const record = await repository.findVerification(db, organizationId, id);
  if (!record) throw new AppError('VERIFICATION_NOT_FOUND');
  return { ...record, schema: await schemaOf(db, organizationId, record) };
}

export async function findVerifications(
  db: Database,
  organizationId: string,
  query: PageQuery & { type?: VerificationType },
) {
  const { records, total } = await repository.findVerifications(db, organizationId, {
    ...(query.type ? { type: query.type } : {}),
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  const withSchemas = await Promise.all(
    records.map(async (record) => ({ ...record, schema: await schemaOf(db, organizationId, record) })),
  );
  return { records: withSchemas, total, page: query.page, limit: query.limit };
}

export async function deleteVerification(db: Database, organizationId: string, id: string, actor: AuditActor) {
  await db.transaction(async (tx) => {
    const row = await repository.findVerificationRow(tx, organizationId, id);
    if (!row || !(await repository.softDeleteVerification(tx, organizationId, id))) {
      throw new AppError('VERIFICATION_NOT_FOUND');
    }
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      { action: 'verification.deleted', target: { id, label: row.name }, details: {} },
    );
  });
}

export async function findIndividuals(db: Database, organizationId: string, verificationId: string, query: PageQuery) {
  await getVerification(db, organizationId, verificationId);
  const { rows, total } = await repository.findIndividuals(db, organizationId, verificationId, {
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return { rows, total, page: query.page, limit: query.limit };
}

export async function getIndividualOfCustomer(
  db: Database,
  organizationId: string,
  verificationId: string,
  customerId: string,
) {
  await getVerification(db, organizationId, verificationId);
  const row = await repository.findLatestIndividualOfCustomer(db, organizationId, verificationId, customerId);
  if (!row) throw new AppError('VERIFICATION_INDIVIDUAL_NOT_FOUND');
  return row;
}

export async function getIndividual(
  db: Database,
  organizationId: string,
  verificationId: string,
  individualId: string,
) {
  await getVerification(db, organizationId, verificationId);
  const row = await repository.findIndividualOfVerification(db, organizationId, verificationId, individualId);
  if (!row) throw new AppError('VERIFICATION_INDIVIDUAL_NOT_FOUND');
  return row;
}

/** Three 4-digit groups joined by dashes (spec §7), when the holder link carries no customer id. */
export function generateCustomerId() {
  return Array.from({ length: 3 }, () => String(randomInt(10_000)).padStart(4, '0')).join('-');
}
