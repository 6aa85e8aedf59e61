import { type Database, schema } from '@cp/db';
import { and, desc, eq, sql } from 'drizzle-orm';

const { verificationIndividuals } = schema;

/** What the export writes of an attempt (never its keys or its frozen request). */
const historyColumns = {
  id: verificationIndividuals.id,
  customerId: verificationIndividuals.customerId,
  customerBinding: verificationIndividuals.customerBinding,
  status: verificationIndividuals.status,
  createdAt: verificationIndividuals.createdAt,
  verifiedAt: verificationIndividuals.verifiedAt,
  issuer: verificationIndividuals.issuer,
  issuerTrust: verificationIndividuals.issuerTrust,
  checks: verificationIndividuals.checks,
  presentedClaims: verificationIndividuals.presentedClaims,
  cursor: sql<string>`${verificationIndividuals.createdAt}::text`,
};

export interface VerificationHistoryRow {
  id: string;
  customerId: string;
  customerBinding: string;
  status: string;
  createdAt: Date;
  verifiedAt: Date | null;
  issuer: string | null;
  issuerTrust: Record<string, unknown> | null;
  checks: Record<string, unknown>[];
  presentedClaims: Record<string, unknown>;
  cursor: string;
}

/** Where the previous batch ended: its last attempt's exact created_at (text: microseconds) and id. */
export interface HistoryCursor {
  createdAt: string;
  id: string;
}

/**
 * One batch of a verification's attempts, newest first, after `after` (keyset pagination on
 * verification_individuals_verification_idx, never an offset).
 */
export async function findHistoryBatch(
  db: Database,
  organizationId: string,
  verificationId: string,
  after: HistoryCursor | null,
  limit: number,
): Promise<VerificationHistoryRow[]> {
  return db
    .select(historyColumns)
    .from(verificationIndividuals)
    .where(
      and(
        eq(verificationIndividuals.organizationId, organizationId),
        eq(verificationIndividuals.verificationId, verificationId),
        after
          ? sql`(${verificationIndividuals.createdAt}, ${verificationIndividuals.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(verificationIndividuals.createdAt), desc(verificationIndividuals.id))
    .limit(limit);
}

/**
 * The names of the claims any attempt asked for (each attempt froze its request when it began, so an edited
 * verification's older attempts may have asked for others), from the stored requests alone.
 */
export async function findRequestedClaimNames(db: Database, organizationId: string, verificationId: string) {
  const result = await db.execute(sql`
    select distinct coalesce(claim->>'name', claim #>> '{}') as name
    from ${verificationIndividuals},
      jsonb_array_elements(case jsonb_typeof(${verificationIndividuals.request}->'requestedClaims')
        when 'array' then ${verificationIndividuals.request}->'requestedClaims' else '[]'::jsonb end) as claim
    where ${verificationIndividuals.organizationId} = ${organizationId}
      and ${verificationIndividuals.verificationId} = ${verificationId}
    order by 1`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { name: string | null }[];
  return rows.map((r) => r.name).filter((name): name is string => typeof name === 'string' && name.length > 0);
}
