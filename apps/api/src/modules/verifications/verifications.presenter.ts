import type {
  CredentialSchemaAttributeType,
  IndividualStatus,
  IssuerTrust,
  Verification,
  VerificationCheck,
  VerificationIndividual,
  VerificationOperator,
  VerificationType,
} from '@cp/contracts';
import { type CredentialSchemaRecord, isDeleteable } from '../credential-schemas/credential-schemas.service.ts';
import { frozenRequest, holderPageUrl, isVouchedCustomer } from './openid4vp.service.ts';
import type { VerificationIndividualRow, VerificationRecord } from './verifications.repository.ts';

export const verificationLink = (publicUrl: string, id: string) => `${publicUrl}/connect/redirect/${id}`;

export function presentVerification(
  record: VerificationRecord & { schema: CredentialSchemaRecord | null },
  publicUrl: string,
): Verification {
  const { verification, creator, usage, schema } = record;
  return {
    id: verification.id,
    name: verification.name,
    description: verification.description,
    status: verification.type === 'SINGLE' && verification.completedAt ? 'COMPLETED' : 'ACTIVE',
    present_id: verification.presentId,
    type: verification.type as VerificationType,
    user: creator ? { id: creator.id, first_name: creator.firstName ?? '', last_name: creator.lastName ?? '' } : null,
    created_at: verification.createdAt.toISOString(),
    updated_at: verification.updatedAt.toISOString(),
    schema: schema
      ? {
          id: schema.schema.id,
          name: schema.schema.name,
          slug: schema.schema.slug,
          deleteable: isDeleteable(schema.schema),
          attributes: schema.attributes.map((a) => ({
            id: a.id,
            name: a.name,
            type: a.type as CredentialSchemaAttributeType,
          })),
        }
      : null,
    credential: presentCredentialType(verification.credentialType),
    format: verification.format,
    attributes: verification.rules.map((rule) => ({
      attribute_id: rule.attributeId ?? null,
      name: rule.name,
      operator: rule.operator as VerificationOperator,
      value: rule.value,
      type: rule.type as CredentialSchemaAttributeType,
    })),
    trust_policy: verification.trustPolicy,
    trusted_issuers: verification.trustedIssuers,
    client_id_scheme: verification.clientIdScheme,
    requested_claims: verification.requestedClaims,
    requested_attribute_ids: verification.requestedAttributeIds,
    usage,
    link: verificationLink(publicUrl, verification.id),
  };
}

function presentCredentialType(type: VerificationRecord['verification']['credentialType']): Verification['credential'] {
  if (!type) return null;
  const claims = type.claims.map((c) => ({
    name: c.name,
    path: c.path,
    type: c.type as CredentialSchemaAttributeType,
  }));
  return type.format === 'mso_mdoc'
    ? {
        format: 'mso_mdoc',
        doctype_value: type.docType ?? '',
        claims: claims.map((c) => ({ ...c, path: [String(c.path[0]), String(c.path[1])] as [string, string] })),
      }
    : { format: 'dc+sd-jwt', vct_values: type.vctValues, claims };
}

/** The disclosed claims in the order the verification asked for them (wallets disclose in any order). */
function orderedClaims(row: VerificationIndividualRow) {
  const requested = frozenRequest(row.request).requestedClaims.map((c) => c.name);
  const rank = (name: string) => {
    const index = requested.indexOf(name);
    return index === -1 ? requested.length : index;
  };
  return Object.fromEntries(Object.entries(row.presentedClaims).sort(([a], [b]) => rank(a) - rank(b)));
}

export function presentIndividual(row: VerificationIndividualRow, publicUrl: string): VerificationIndividual {
  const checks = row.checks as unknown as VerificationCheck[];
  return {
    id: row.id,
    verification_id: row.verificationId,
    customer_id: row.customerId,
    status: row.status as IndividualStatus,
    connection_url: holderPageUrl(publicUrl, row.id),
    created_at: row.createdAt.toISOString(),
    verified_at: row.verifiedAt?.toISOString() ?? null,
    presented_claims: orderedClaims(row),
    issuer: row.issuer,
    customer_verified: isVouchedCustomer(row.customerBinding),
    issuer_trust: (row.issuerTrust as IssuerTrust | null) ?? null,
    checks,
    validation_error: checks.find((c) => !c.passed)?.code ?? null,
  };
}
