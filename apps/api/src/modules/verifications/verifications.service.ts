import { randomInt } from 'node:crypto';
import type { CreateVerificationRequest, PageQuery, VerificationType } from '@cp/contracts';
import { zCreateVerificationRequest } from '@cp/contracts';
import { type AttributeType, type ClaimTypingError, typeClaimValue } from '@cp/credentials';
import type { Database, schema } from '@cp/db';
import { AppError, type FieldError } from '../../errors/app-error.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import * as repository from './verifications.repository.ts';

export interface VerificationScope {
  organizationId: string;
  userId: string | null;
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

/** Checks the rules and requested claims against the schema; answers what is stored. */
async function resolveDefinition(db: Database, organizationId: string, input: CreateVerificationRequest) {
  const parsed = zCreateVerificationRequest.parse(input);
  const record = await credentialSchemasService.getCredentialSchema(db, { organizationId, id: parsed.schema_id });
  const byId = new Map(record.attributes.map((a) => [a.id, a]));
  const errors: FieldError[] = [];
  const rules: schema.VerificationRuleRecord[] = [];
  parsed.attributes.forEach((rule, index) => {
    const attribute = byId.get(rule.attribute_id);
    if (!attribute) {
      errors.push({ path: `attributes.${index}.attribute_id`, message: 'Not an attribute of this schema' });
      return;
    }
    const typed = typeClaimValue(attribute.type as AttributeType, rule.value);
    if (!typed.ok) {
      errors.push({ path: `attributes.${index}.value`, message: ruleValueMessages[typed.error] });
      return;
    }
    rules.push({
      attributeId: attribute.id,
      name: attribute.name,
      type: attribute.type,
      operator: rule.operator,
      value: String(typed.value),
    });
  });
  const requestedIds = [...new Set(parsed.requested_attribute_ids ?? [])];
  requestedIds.forEach((id, index) => {
    if (!byId.has(id))
      errors.push({ path: `requested_attribute_ids.${index}`, message: 'Not an attribute of this schema' });
  });
  if (errors.length > 0) {
    throw new AppError('VERIFICATION_RULES_INVALID', { detail: 'Some rules do not fit the schema.', errors });
  }
  const wanted = new Set([...requestedIds, ...rules.map((r) => r.attributeId)]);
  // Nothing named: ask for the whole credential (every attribute), as the reference product did.
  const requested = wanted.size === 0 ? record.attributes : record.attributes.filter((a) => wanted.has(a.id));
  return {
    schemaId: record.schema.id,
    name: parsed.name,
    description: parsed.description || null,
    type: parsed.type,
    rules,
    trustedIssuers: [...new Set(parsed.trusted_issuers.map((t) => t.trim()))],
    requestedAttributeIds: requestedIds,
    requestedClaims: requested.map((a) => a.name),
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
  const row = await repository.insertVerification(db, {
    ...definition,
    organizationId: scope.organizationId,
    presentId: presentId(),
    createdByUserId: scope.userId,
  });
  return getVerification(db, scope.organizationId, row.id);
}

export async function updateVerification(
  db: Database,
  organizationId: string,
  id: string,
  input: CreateVerificationRequest,
) {
  await getVerification(db, organizationId, id);
  const definition = await resolveDefinition(db, organizationId, input);
  // Attempts already under way keep the request they were given; new ones use the new definition.
  if (!(await repository.updateVerification(db, organizationId, id, definition))) {
    throw new AppError('VERIFICATION_NOT_FOUND');
  }
  return getVerification(db, organizationId, id);
}

export async function getVerification(db: Database, organizationId: string, id: string) {
  const record = await repository.findVerification(db, organizationId, id);
  if (!record) throw new AppError('VERIFICATION_NOT_FOUND');
  const schema = await credentialSchemasService.getCredentialSchema(db, {
    organizationId,
    id: record.verification.schemaId,
    includeDeleted: true,
  });
  return { ...record, schema };
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
    records.map(async (record) => ({
      ...record,
      schema: await credentialSchemasService.getCredentialSchema(db, {
        organizationId,
        id: record.verification.schemaId,
        includeDeleted: true,
      }),
    })),
  );
  return { records: withSchemas, total, page: query.page, limit: query.limit };
}

export async function deleteVerification(db: Database, organizationId: string, id: string) {
  if (!(await repository.softDeleteVerification(db, organizationId, id))) throw new AppError('VERIFICATION_NOT_FOUND');
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

/** Three 4-digit groups joined by dashes (spec §7), when the holder link carries no customer id. */
export function generateCustomerId() {
  return Array.from({ length: 3 }, () => String(randomInt(10_000)).padStart(4, '0')).join('-');
}
