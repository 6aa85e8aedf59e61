import { type Database, runStatement, schema, selectList, statement, unprefixed } from '@cp/db';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { schemaVisibleSql } from '../credential-schemas/credential-schemas.repository.ts';
import { HOLDER_BRAND_COLUMNS, holderBrandJoin, holderBrandOf } from '../organizations/organizations.repository.ts';

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

/** What an attempt is created with; the other columns take their defaults (status CREATED, no outcome yet). */
export type NewAttempt = Pick<
  NewVerificationIndividual,
  | 'id'
  | 'verificationId'
  | 'organizationId'
  | 'customerId'
  | 'customerBinding'
  | 'nonce'
  | 'state'
  | 'responseKeyCiphertext'
  | 'responseKeyPublic'
  | 'request'
>;

const insertStatement = statement<Record<string, unknown>>(
  'verifier_insert_individual',
  `insert into verification_individuals as vi
          (id, verification_id, organization_id, customer_id, customer_binding, nonce, state,
           response_key_ciphertext, response_key_public, request)
   values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb)
   returning ${selectList(verificationIndividuals, 'vi', 'i')}`,
);

/** Inserts an attempt (one prepared statement: a holder opening a link is on the hot path too); answers its row. */
export async function insertIndividual(db: Database, values: NewAttempt): Promise<VerificationIndividualRow> {
  const [row] = await runStatement(db, insertStatement, [
    values.id,
    values.verificationId,
    values.organizationId,
    values.customerId,
    values.customerBinding,
    values.nonce,
    values.state,
    values.responseKeyCiphertext,
    JSON.stringify(values.responseKeyPublic),
    JSON.stringify(values.request),
  ]);
  return unprefixed<VerificationIndividualRow>(row!, 'i');
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

/** The attempt's columns a response reads: the statement below selects these and no others. */
const RESPONSE_INDIVIDUAL_FIELDS = [
  'id',
  'status',
  'nonce',
  'state',
  'request',
  'responseKeyCiphertext',
  'responseKeyPublic',
] as const satisfies readonly (keyof VerificationIndividualRow)[];
/** Of the verification, a response needs only which it is, whose it is and whether it is single-use. */
const RESPONSE_VERIFICATION_FIELDS = [
  'id',
  'organizationId',
  'type',
] as const satisfies readonly (keyof VerificationRow)[];

/** An attempt as a response reads it (findIndividualForResponse): what answering it needs, nothing more. */
export type ResponseIndividual = Pick<VerificationIndividualRow, (typeof RESPONSE_INDIVIDUAL_FIELDS)[number]>;
export type ResponseVerification = Pick<VerificationRow, (typeof RESPONSE_VERIFICATION_FIELDS)[number]>;

/**
 * The attempt a response answers, with its verification and what the check needs of the organization in the
 * same statement: its trust anchors (in their list order) and whether an enabled webhook endpoint takes
 * `verification.completed`. A hand-written statement (no query building or row mapping per request) that
 * selects only the columns the response uses (the types above hold the service to them), named `i.<field>` and
 * `v.<field>` after the schema's fields and split back into the two rows. The driver's own parsing gives the
 * same values as the schema's (uuid and text as strings, jsonb parsed).
 */
const responseStatement = statement<Record<string, unknown>>(
  'verifier_response_individual',
  `select ${selectList(verificationIndividuals, 'vi', 'i', RESPONSE_INDIVIDUAL_FIELDS)},
          ${selectList(verifications, 'v', 'v', RESPONSE_VERIFICATION_FIELDS)},
          (select coalesce(json_agg(json_build_object(
              'id', a.id, 'name', a.name, 'kind', a.kind, 'certificatePem', a.certificate_pem,
              'listCertificates', a.list_certificates) order by a.created_at, a.id), '[]'::json)
             from trust_anchors a where a.organization_id = v.organization_id) as "anchors",
          exists (select from webhooks w
            where w.organization_id = v.organization_id and w.deleted_at is null and w.enabled
              and w.events @> '["verification.completed"]'::jsonb) as "notify",
          (select o.verifier_revision from organizations o where o.id = v.organization_id) as "revision"
     from verification_individuals vi
     join verifications v on v.id = vi.verification_id
    where vi.id = $1 and v.deleted_at is null`,
);

export async function findIndividualForResponse(db: Database, id: string) {
  const [row] = await runStatement(db, responseStatement, [id]);
  if (!row) return undefined;
  return {
    individual: unprefixed<ResponseIndividual>(row, 'i'),
    verification: unprefixed<ResponseVerification>(row, 'v'),
    anchors: row.anchors as AnchorRow[],
    notify: row.notify as boolean,
    // bigint: the driver answers a string (PGlite a number); read in the same statement as the two above.
    revision: Number(row.revision),
  };
}

/** What findIndividualForResponse answers: the attempt, its verification and its organization's verifier side. */
export type ResponseRow = NonNullable<Awaited<ReturnType<typeof findIndividualForResponse>>>;

/**
 * What a check took from memory rather than from a statement of its own (verifier-trust.ts, issuer snapshots): the
 * issuer organization of this platform as it was read (name, KYB passed), and the revision of the status list of
 * the credential. The outcome is stored only if they are still so.
 */
export interface IssuerSnapshot {
  organizationId: string;
  name: string;
  verified: boolean;
  statusList: { id: string; revision: number } | null;
}

/**
 * What a response took from memory instead of findIndividualForResponse (response-memory.ts): the attempt's
 * verification (which must still be there, of the same type) and its organization's verifier revision as read
 * with the anchors and webhook subscription the check used.
 */
export interface RememberedContext {
  verificationId: string;
  type: string;
  revision: number;
}

/**
 * The outcome stored in one statement when nothing must be atomic with it (see the service): only while the
 * attempt is still open, answering its new status. With an issuer snapshot ($8-$12), only if the organization
 * and the list are still as the check saw them: a revocation (it bumps the list's revision) or a change of the
 * organization committed before this statement makes it store nothing, and the caller checks again from the
 * database (or finds the attempt answered meanwhile). Without one ($8 null) the condition holds. With a
 * remembered context ($13-$15), only if the verification is not deleted, still of that type, and its
 * organization's trust anchors and webhooks are unchanged since they were read (the revision triggers of
 * migration 0025); without one ($13 null) the condition holds.
 */
const completeStatement = statement<{ status: 'VERIFIED' | 'FAILED' }>(
  'verifier_complete_individual',
  `update verification_individuals
      set status = $2, checks = $3::jsonb, presented_claims = $4::jsonb, issuer = $5, issuer_trust = $6::jsonb,
          verified_at = $7
    where id = $1 and status in ('CREATED', 'REQUESTED')
      and ($8::uuid is null or exists (
        select from organizations o
         where o.id = $8::uuid and o.name = $9::text and (o.verified_at is not null) = $10::boolean
           and ($11::uuid is null or exists (
             select from status_lists s where s.id = $11::uuid and s.organization_id = o.id and s.revision = $12::bigint))))
      and ($13::uuid is null or exists (
        select from verifications v join organizations vo on vo.id = v.organization_id
         where v.id = $13::uuid and v.id = verification_individuals.verification_id and v.deleted_at is null
           and v.type = $14::text and vo.verifier_revision = $15::bigint))
    returning status`,
);

export async function completeIndividualAlone(
  db: Database,
  id: string,
  values: Parameters<typeof completeIndividual>[2],
  snapshot?: IssuerSnapshot,
  remembered?: RememberedContext,
): Promise<{ status: 'VERIFIED' | 'FAILED' } | undefined> {
  const [row] = await runStatement(db, completeStatement, [
    id,
    values.status,
    JSON.stringify(values.checks),
    JSON.stringify(values.presentedClaims),
    values.issuer,
    values.issuerTrust === null ? null : JSON.stringify(values.issuerTrust),
    new Date(),
    snapshot?.organizationId ?? null,
    snapshot?.name ?? null,
    snapshot?.verified ?? null,
    snapshot?.statusList?.id ?? null,
    snapshot?.statusList?.revision ?? null,
    remembered?.verificationId ?? null,
    remembered?.type ?? null,
    remembered?.revision ?? null,
  ]);
  return row;
}

// ---- the holder's side: an attempt begun, its holder page, its request object -----------------------------------
// One hand-written statement each (issue 16: a whole presentation took 11-12 statements built per request before the
// response; now 4 with the response's one).

/**
 * The schema a verification asks for, as an attempt names it (its `vct`) and the holder page labels its claims:
 * whose it is (null: the platform's) and its slug. Null when the verification has no schema (another issuer's
 * credential type) or its schema is not one the organization sees (its own or the platform's, deleted or not).
 */
export interface AttemptSchema {
  organizationId: string | null;
  slug: string;
}

/** Joined to a verification `v` as `s`: its schema when the organization sees it (see AttemptSchema). */
const SCHEMA_JOIN = `left join credential_schemas s
    on s.id = v.schema_id and ${schemaVisibleSql('s', 'v.organization_id')}`;

const attemptSchemaOf = (row: Record<string, unknown>): AttemptSchema | null =>
  row.schemaFound ? { organizationId: row.schemaOwner as string | null, slug: row.schemaSlug as string } : null;

const verificationToAttemptStatement = statement<Record<string, unknown>>(
  'verifier_verification_to_attempt',
  `select ${selectList(verifications, 'v', 'v')},
          s.id is not null as "schemaFound", s.organization_id as "schemaOwner", s.slug as "schemaSlug"
     from verifications v ${SCHEMA_JOIN}
    where v.id = $1 and v.deleted_at is null`,
);

/** A verification a holder begins an attempt at (not deleted), with its schema (AttemptSchema). */
export async function findVerificationToAttempt(db: Database, id: string) {
  const [row] = await runStatement(db, verificationToAttemptStatement, [id]);
  if (!row) return undefined;
  return { verification: unprefixed<VerificationRow>(row, 'v'), schema: attemptSchemaOf(row) };
}

/** Of an attempt, the holder page shows its state and what it asks for. */
const HOLDER_PAGE_INDIVIDUAL_FIELDS = [
  'id',
  'status',
  'request',
] as const satisfies readonly (keyof VerificationIndividualRow)[];
const HOLDER_PAGE_VERIFICATION_FIELDS = ['name', 'description'] as const satisfies readonly (keyof VerificationRow)[];

const holderPageStatement = statement<Record<string, unknown>>(
  'verifier_holder_page',
  `select ${selectList(verificationIndividuals, 'vi', 'i', HOLDER_PAGE_INDIVIDUAL_FIELDS)},
          ${selectList(verifications, 'v', 'v', HOLDER_PAGE_VERIFICATION_FIELDS)},
          s.id is not null as "schemaFound", s.organization_id as "schemaOwner", s.slug as "schemaSlug",
          ${HOLDER_BRAND_COLUMNS}
     from verification_individuals vi
     join verifications v on v.id = vi.verification_id
     ${holderBrandJoin('v.organization_id')}
     ${SCHEMA_JOIN}
    where vi.id = $1 and v.deleted_at is null`,
);

/** An attempt's holder page (one statement): the attempt, its verification, its schema and its organization. */
export async function findHolderPage(db: Database, id: string) {
  const [row] = await runStatement(db, holderPageStatement, [id]);
  if (!row) return undefined;
  return {
    individual: unprefixed<Pick<VerificationIndividualRow, (typeof HOLDER_PAGE_INDIVIDUAL_FIELDS)[number]>>(row, 'i'),
    verification: unprefixed<Pick<VerificationRow, (typeof HOLDER_PAGE_VERIFICATION_FIELDS)[number]>>(row, 'v'),
    schema: attemptSchemaOf(row),
    brand: holderBrandOf(row),
  };
}

/** Of an attempt, its request object carries its nonce, state and response encryption key. */
const REQUEST_INDIVIDUAL_FIELDS = [
  'id',
  'status',
  'nonce',
  'state',
  'request',
  'responseKeyPublic',
] as const satisfies readonly (keyof VerificationIndividualRow)[];
const REQUEST_VERIFICATION_FIELDS = [
  'id',
  'organizationId',
  'type',
  'completedAt',
] as const satisfies readonly (keyof VerificationRow)[];

/**
 * The attempt a request object is signed for, read as it was before this statement, which also marks it
 * REQUESTED at $3 when $2 is true and it can still be answered (CREATED, its verification not deleted, not a used
 * single-use link): what the service then refuses is never marked, and a mark whose request could not be signed
 * is taken back (unmarkRequested).
 */
const requestObjectStatement = statement<Record<string, unknown>>(
  'verifier_request_object',
  `with marked as (
     update verification_individuals u set status = 'REQUESTED', requested_at = $3
      where $2::boolean and u.id = $1 and u.status = 'CREATED'
        and exists (select from verifications v
                     where v.id = u.verification_id and v.deleted_at is null
                       and (v.type <> 'SINGLE' or v.completed_at is null))
     returning id)
   select ${selectList(verificationIndividuals, 'vi', 'i', REQUEST_INDIVIDUAL_FIELDS)},
          ${selectList(verifications, 'v', 'v', REQUEST_VERIFICATION_FIELDS)},
          ${HOLDER_BRAND_COLUMNS}
     from verification_individuals vi
     join verifications v on v.id = vi.verification_id
     ${holderBrandJoin('v.organization_id')}
    where vi.id = $1 and v.deleted_at is null`,
);

export type RequestIndividual = Pick<VerificationIndividualRow, (typeof REQUEST_INDIVIDUAL_FIELDS)[number]>;

/**
 * An attempt as its request object is signed from (one statement): the attempt and its verification as they were,
 * and its organization; `markRequestedAt` marks it REQUESTED at that time in the same statement (see
 * requestObjectStatement).
 */
export async function findIndividualForRequest(db: Database, id: string, markRequestedAt: Date | undefined) {
  const [row] = await runStatement(db, requestObjectStatement, [
    id,
    markRequestedAt !== undefined,
    markRequestedAt ?? null,
  ]);
  if (!row) return undefined;
  return {
    individual: unprefixed<RequestIndividual>(row, 'i'),
    verification: unprefixed<Pick<VerificationRow, (typeof REQUEST_VERIFICATION_FIELDS)[number]>>(row, 'v'),
    brand: holderBrandOf(row),
  };
}

/**
 * Takes back the REQUESTED mark made at `markedAt` when no request could be signed after it: the attempt is
 * CREATED again, unless it has moved on since (answered) or another fetch marked it at another time.
 */
export async function unmarkRequested(db: Database, id: string, markedAt: Date) {
  await db
    .update(verificationIndividuals)
    .set({ status: 'CREATED', requestedAt: null })
    .where(
      and(
        eq(verificationIndividuals.id, id),
        eq(verificationIndividuals.status, 'REQUESTED'),
        eq(verificationIndividuals.requestedAt, markedAt),
      ),
    );
}
