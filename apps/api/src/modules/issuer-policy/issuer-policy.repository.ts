import { type Database, schema } from '@cp/db';
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
