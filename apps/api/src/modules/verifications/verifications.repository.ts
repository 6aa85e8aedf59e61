import { type Database, runStatement, schema, statement } from '@cp/db';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';

const { verifications, verificationIndividuals, credentialSchemas, users } = schema;

export type VerificationRow = typeof verifications.$inferSelect;
export type VerificationIndividualRow = typeof verificationIndividuals.$inferSelect;
export type NewVerification = typeof verifications.$inferInsert;
export type NewVerificationIndividual = typeof verificationIndividuals.$inferInsert;

export interface VerificationRecord {
  verification: VerificationRow;
  schemaName: string;
  creator: { id: string; firstName: string | null; lastName: string | null } | null;
  usage: { total: number; verified: number; failed: number };
}

const live = (organizationId: string) =>
  and(eq(verifications.organizationId, organizationId), isNull(verifications.deletedAt));

async function withDetails(
  db: Database,
  rows: { verification: VerificationRow; schemaName: string | null; creator: VerificationRecord['creator'] }[],
): Promise<VerificationRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.verification.id);
  const usage = await db
    .select({
      verificationId: verificationIndividuals.verificationId,
      total: count(),
      verified: sql<number>`count(*) filter (where ${verificationIndividuals.status} = 'VERIFIED')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${verificationIndividuals.status} = 'FAILED')`.mapWith(Number),
    })
    .from(verificationIndividuals)
    .where(inArray(verificationIndividuals.verificationId, ids))
    .groupBy(verificationIndividuals.verificationId);
  return rows.map((r) => {
    const u = usage.find((x) => x.verificationId === r.verification.id);
    return {
      verification: r.verification,
      schemaName: r.schemaName ?? '',
      creator: r.creator?.id ? r.creator : null,
      usage: { total: u?.total ?? 0, verified: u?.verified ?? 0, failed: u?.failed ?? 0 },
    };
  });
}

const columns = {
  verification: verifications,
  schemaName: credentialSchemas.name,
  creator: { id: users.id, firstName: users.firstName, lastName: users.lastName },
};

export async function findVerifications(
  db: Database,
  organizationId: string,
  query: { type?: string; offset: number; limit: number },
) {
  const where = and(live(organizationId), query.type ? eq(verifications.type, query.type) : undefined);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(columns)
      .from(verifications)
      .leftJoin(credentialSchemas, eq(credentialSchemas.id, verifications.schemaId))
      .leftJoin(users, eq(users.id, verifications.createdByUserId))
      .where(where)
      .orderBy(desc(verifications.createdAt), desc(verifications.id))
      .offset(query.offset)
      .limit(query.limit),
    db.select({ total: count() }).from(verifications).where(where),
  ]);
  return { records: await withDetails(db, rows as never), total: totalRow?.total ?? 0 };
}

export async function findVerification(db: Database, organizationId: string, id: string) {
  const rows = await db
    .select(columns)
    .from(verifications)
    .leftJoin(credentialSchemas, eq(credentialSchemas.id, verifications.schemaId))
    .leftJoin(users, eq(users.id, verifications.createdByUserId))
    .where(and(live(organizationId), eq(verifications.id, id)));
  const [record] = await withDetails(db, rows as never);
  return record;
}

/** A live verification row of an organization. */
export async function findVerificationRow(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(live(organizationId), eq(verifications.id, id)));
  return row;
}

/** Stores a new link secret (or the first one, with `onlyIfMissing`); false when nothing was written. */
export async function setLinkSecret(
  db: Database,
  organizationId: string,
  id: string,
  ciphertext: string,
  options: { onlyIfMissing?: boolean } = {},
) {
  const rows = await db
    .update(verifications)
    .set({ linkSecretCiphertext: ciphertext, updatedAt: new Date() })
    .where(
      and(
        live(organizationId),
        eq(verifications.id, id),
        options.onlyIfMissing ? isNull(verifications.linkSecretCiphertext) : undefined,
      ),
    )
    .returning({ id: verifications.id });
  return rows.length === 1;
}

/** A live verification by id alone: the public holder pages know only the link. */
export async function findPublicVerification(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.id, id), isNull(verifications.deletedAt)));
  return row;
}

export async function insertVerification(db: Database, values: NewVerification) {
  const [row] = await db.insert(verifications).values(values).returning();
  return row!;
}

export async function updateVerification(
  db: Database,
  organizationId: string,
  id: string,
  values: Partial<NewVerification>,
) {
  const rows = await db
    .update(verifications)
    .set({ ...values, updatedAt: new Date() })
    .where(and(live(organizationId), eq(verifications.id, id)))
    .returning({ id: verifications.id });
  return rows.length === 1;
}

export async function softDeleteVerification(db: Database, organizationId: string, id: string) {
  const rows = await db
    .update(verifications)
    .set({ deletedAt: new Date() })
    .where(and(live(organizationId), eq(verifications.id, id)))
    .returning({ id: verifications.id });
  return rows.length === 1;
}

/** Marks a single-use verification used; false when another attempt did it first. */
export async function claimSingleUse(db: Database, id: string) {
  const rows = await db
    .update(verifications)
    .set({ completedAt: new Date() })
    .where(and(eq(verifications.id, id), isNull(verifications.completedAt)))
    .returning({ id: verifications.id });
  return rows.length === 1;
}

// ---- Individuals ----------------------------------------------------------------------------------

export async function insertIndividual(db: Database, values: NewVerificationIndividual) {
  const [row] = await db.insert(verificationIndividuals).values(values).returning();
  return row!;
}

export async function findIndividual(db: Database, id: string) {
  const [row] = await db
    .select({ individual: verificationIndividuals, verification: verifications })
    .from(verificationIndividuals)
    .innerJoin(verifications, eq(verifications.id, verificationIndividuals.verificationId))
    .where(and(eq(verificationIndividuals.id, id), isNull(verifications.deletedAt)));
  return row;
}

export async function findIndividuals(
  db: Database,
  organizationId: string,
  verificationId: string,
  page: { offset: number; limit: number },
) {
  const where = and(
    eq(verificationIndividuals.organizationId, organizationId),
    eq(verificationIndividuals.verificationId, verificationId),
  );
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(verificationIndividuals)
      .where(where)
      .orderBy(desc(verificationIndividuals.createdAt), desc(verificationIndividuals.id))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ total: count() }).from(verificationIndividuals).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/** One attempt of an organization's verification, by its id. */
export async function findIndividualOfVerification(
  db: Database,
  organizationId: string,
  verificationId: string,
  individualId: string,
) {
  const [row] = await db
    .select()
    .from(verificationIndividuals)
    .where(
      and(
        eq(verificationIndividuals.organizationId, organizationId),
        eq(verificationIndividuals.verificationId, verificationId),
        eq(verificationIndividuals.id, individualId),
      ),
    );
  return row;
}

/**
 * The latest attempt of one customer that the integrator vouched for (started with its API key, or
 * through a link it signed): integrators look results up by their own customer id, and an unsigned
 * `?customer=` from the public must never answer for their customer.
 */
export async function findLatestIndividualOfCustomer(
  db: Database,
  organizationId: string,
  verificationId: string,
  customerId: string,
) {
  const [row] = await db
    .select()
    .from(verificationIndividuals)
    .where(
      and(
        eq(verificationIndividuals.organizationId, organizationId),
        eq(verificationIndividuals.verificationId, verificationId),
        eq(verificationIndividuals.customerId, customerId),
        inArray(verificationIndividuals.customerBinding, ['API', 'SIGNED_LINK']),
      ),
    )
    .orderBy(desc(verificationIndividuals.createdAt), desc(verificationIndividuals.id))
    .limit(1);
  return row;
}

export async function markRequested(db: Database, id: string) {
  await db
    .update(verificationIndividuals)
    .set({ status: 'REQUESTED', requestedAt: new Date() })
    .where(and(eq(verificationIndividuals.id, id), eq(verificationIndividuals.status, 'CREATED')));
}

/** Records the outcome once: false when the attempt was already complete (a replayed response). */
export async function completeIndividual(
  db: Database,
  id: string,
  values: {
    status: 'VERIFIED' | 'FAILED';
    checks: Record<string, unknown>[];
    presentedClaims: Record<string, unknown>;
    issuer: string | null;
    issuerTrust: Record<string, unknown> | null;
  },
) {
  const rows = await db
    .update(verificationIndividuals)
    .set({ ...values, verifiedAt: new Date() })
    .where(and(eq(verificationIndividuals.id, id), inArray(verificationIndividuals.status, ['CREATED', 'REQUESTED'])))
    .returning();
  return rows[0];
}

// ---- the response endpoint's hot path ---------------------------------------------------------------

/** A trust anchor of the organization as the response endpoint reads it (the same fields the service maps). */
export interface AnchorRow {
  id: string;
  name: string;
  kind: string;
  certificatePem: string | null;
  listCertificates: string[];
}

/**
 * The attempt a response answers, with its verification and what the check needs of the organization in the
 * same statement: its trust anchors (in their list order) and whether an enabled webhook endpoint takes
 * `verification.completed`. Prepared once per database handle (no query building per request).
 */
function responseQuery(db: Database) {
  const prepared = db
    .select({
      individual: verificationIndividuals,
      verification: verifications,
      anchors: sql<AnchorRow[]>`(select coalesce(json_agg(json_build_object(
          'id', a.id, 'name', a.name, 'kind', a.kind, 'certificatePem', a.certificate_pem,
          'listCertificates', a.list_certificates) order by a.created_at, a.id), '[]'::json)
        from trust_anchors a where a.organization_id = ${verifications.organizationId})`,
      notify: sql<boolean>`exists (select from webhooks w
        where w.organization_id = ${verifications.organizationId} and w.deleted_at is null and w.enabled
          and w.events @> '["verification.completed"]'::jsonb)`,
    })
    .from(verificationIndividuals)
    .innerJoin(verifications, eq(verifications.id, verificationIndividuals.verificationId))
    .where(and(eq(verificationIndividuals.id, sql.placeholder('id')), isNull(verifications.deletedAt)))
    .prepare('verifier_response_individual');
  return prepared;
}
const responseQueries = new WeakMap<Database, ReturnType<typeof responseQuery>>();

export async function findIndividualForResponse(db: Database, id: string) {
  let prepared = responseQueries.get(db);
  if (!prepared) {
    prepared = responseQuery(db);
    responseQueries.set(db, prepared);
  }
  const [row] = await prepared.execute({ id });
  return row;
}

/**
 * The outcome stored in one statement when nothing must be atomic with it (see the service): only while the
 * attempt is still open, answering its new status.
 */
const completeStatement = statement<{ status: 'VERIFIED' | 'FAILED' }>(
  'verifier_complete_individual',
  `update verification_individuals
      set status = $2, checks = $3::jsonb, presented_claims = $4::jsonb, issuer = $5, issuer_trust = $6::jsonb,
          verified_at = $7
    where id = $1 and status in ('CREATED', 'REQUESTED')
    returning status`,
);

export async function completeIndividualAlone(
  db: Database,
  id: string,
  values: Parameters<typeof completeIndividual>[2],
) {
  const [row] = await runStatement(db, completeStatement, [
    id,
    values.status,
    JSON.stringify(values.checks),
    JSON.stringify(values.presentedClaims),
    values.issuer,
    values.issuerTrust === null ? null : JSON.stringify(values.issuerTrust),
    new Date(),
  ]);
  return row;
}
