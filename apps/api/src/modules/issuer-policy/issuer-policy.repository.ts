import { type Database, runStatement, schema, statement } from '@cp/db';
import { eq } from 'drizzle-orm';

const { organizationIssuerPolicies } = schema;

export type IssuerPolicyRow = typeof organizationIssuerPolicies.$inferSelect;

export async function findIssuerPolicy(db: Database, organizationId: string) {
  const [row] = await db
    .select()
    .from(organizationIssuerPolicies)
    .where(eq(organizationIssuerPolicies.organizationId, organizationId));
  return row;
}

const policyStatement = statement<Pick<IssuerPolicyRow, 'dpopRequired' | 'walletAttestationRequired' | 'updatedAt'>>(
  'issuer_policy',
  `select dpop_required as "dpopRequired", wallet_attestation_required as "walletAttestationRequired",
          updated_at as "updatedAt"
     from organization_issuer_policies where organization_id = $1`,
);

/**
 * SQL, true when the organization's issuer policy demands nothing a request lacks: `organization` is its id,
 * `lacksDpop` and `lacksAttestation` booleans (true: the request carries no DPoP proof, no wallet attestation).
 * No policy row demands nothing, as readIssuerPolicy's default. For a statement that acts on the policy as it
 * reads it (the token step's redemption), so that the decision and the act are one.
 */
export const policyAllowsSql = (organization: string, lacksDpop: string, lacksAttestation: string) =>
  `not exists (select from organization_issuer_policies p
                where p.organization_id = ${organization}
                  and ((p.dpop_required and ${lacksDpop}::boolean)
                       or (p.wallet_attestation_required and ${lacksAttestation}::boolean)))`;

/** The same read as a prepared statement on the database handle (not in a transaction): the token endpoint's. */
export async function readIssuerPolicy(db: Database, organizationId: string) {
  const [row] = await runStatement(db, policyStatement, [organizationId]);
  return row;
}

export async function upsertIssuerPolicy(
  db: Database,
  organizationId: string,
  values: { dpopRequired: boolean; walletAttestationRequired: boolean },
) {
  const [row] = await db
    .insert(organizationIssuerPolicies)
    .values({ organizationId, ...values, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: organizationIssuerPolicies.organizationId,
      set: { ...values, updatedAt: new Date() },
    })
    .returning();
  return row!;
}
