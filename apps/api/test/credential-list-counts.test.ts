/**
 * The credential list's exact `total` (kept by the counters of migration 0008_credential_list_counts), its EXPIRED status
 * (credentials.offer_expires_at, kept from the offers), its trigram search and its deep pages, each
 * checked against the list's definition written out in plain SQL over the same rows.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DatabaseHandle, migrateDatabase, migrationsFolder, openDatabase, schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as credentialSchemasService from '../src/modules/credential-schemas/credential-schemas.service.ts';
import { compactCredentialCounts } from '../src/modules/credentials/credentials.repository.ts';
import { buildVerifiedOrganization, openTestDatabase, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;
const sqlOf = (text: string, values?: unknown[]) => t.runtime.ctx.database.executor.executeSql(text, values);

const statuses = ['CREATED', 'ISSUED', 'CLAIMED', 'REVOKED', 'EXPIRED'] as const;

type Filters = { status?: (typeof statuses)[number]; schemaId?: string; search?: string };

/** The list as specified, without counters, derived columns or indexes: what every answer must equal. */
async function expected(organizationId: string, filters: Filters) {
  const values: unknown[] = [organizationId];
  const where = ['c.organization_id = $1', 'c.deleted_at is null'];
  const latestOffer = '(select max(o.expires_at) from credential_offers o where o.credential_id = c.id)';
  if (filters.status === 'EXPIRED') where.push(`c.status = 'ISSUED'`, `${latestOffer} <= now()`);
  else if (filters.status === 'ISSUED') where.push(`c.status = 'ISSUED'`, `coalesce(${latestOffer} > now(), true)`);
  else if (filters.status) where.push(`c.status = '${filters.status}'`);
  if (filters.schemaId) {
    values.push(filters.schemaId);
    where.push(`c.schema_id = $${values.length}`);
  }
  if (filters.search) {
    values.push(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const p = `$${values.length}`;
    where.push(
      `(c.recipient_email ilike ${p} or c.recipient_first_name ilike ${p} or c.recipient_last_name ilike ${p}
        or c.recipient_first_name || ' ' || c.recipient_last_name ilike ${p} or c.name ilike ${p})`,
    );
  }
  const { rows } = await sqlOf(
    `select c.id from credentials c where ${where.join(' and ')} order by c.created_at desc, c.id desc`,
    values,
  );
  return rows.map((r) => r.id as string);
}

async function list(headers: Record<string, string>, filters: Filters, page = 1, limit = 10) {
  const query = new URLSearchParams({ page: String(page), limit: String(limit) });
  if (filters.status) query.set('filter.status', filters.status);
  if (filters.schemaId) query.set('filter.schema_id', filters.schemaId);
  if (filters.search) query.set('filter.search', filters.search);
  const response = await t.app.inject({ url: `/api/credentials?${query}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { total: number; results: { id: string; status: string; expired_at: string | null }[] };
}

/** Every filter combination: total and the first page equal the plain-SQL answer. */
async function expectListMatches(headers: Record<string, string>, organizationId: string, schemaIds: string[]) {
  const combinations: Filters[] = [{}];
  for (const status of statuses) combinations.push({ status });
  for (const schemaId of schemaIds) {
    combinations.push({ schemaId });
    for (const status of statuses) combinations.push({ status, schemaId });
  }
  for (const filters of combinations) {
    const ids = await expected(organizationId, filters);
    const page = await list(headers, filters, 1, 5);
    expect({ filters, total: page.total }).toEqual({ filters, total: ids.length });
    expect(page.results.map((r) => r.id)).toEqual(ids.slice(0, 5));
  }
  // expired_at is the latest offer's expiry, whatever the status.
  const { rows: offers } = await sqlOf(
    `select c.id, (select max(o.expires_at) from credential_offers o where o.credential_id = c.id) as expires_at
     from credentials c where c.organization_id = $1 and c.deleted_at is null`,
    [organizationId],
  );
  const latest = new Map(
    offers.map((r) => [r.id as string, r.expires_at ? new Date(r.expires_at as string).toISOString() : null]),
  );
  const everything = await list(headers, {}, 1, 100);
  expect(everything.results.map((r) => [r.id, r.expired_at])).toEqual(
    everything.results.map((r) => [r.id, latest.get(r.id) ?? null]),
  );
}

const counterRows = async (organizationId: string) =>
  Number(
    (await sqlOf('select count(*)::int as n from credential_counts where organization_id = $1', [organizationId]))
      .rows[0]?.n,
  );

async function createCredential(headers: Record<string, string>, schemaId: string, recipient: Record<string, string>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: {
      credential: { name: 'Gold membership', schema_id: schemaId, claims: [{ name: 'level', value: 'gold' }] },
      recipient,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

/** The holder page creates the offer and the credential becomes ISSUED. */
async function connect(id: string) {
  const response = await t.app.inject({ url: `/api/credentials/${id}/connect` });
  expect(response.statusCode, response.body).toBe(200);
}

/** Inserts credentials straight into the table, in the shape the API writes them (one statement). */
async function insertRaw(organizationId: string, schemaId: string, n: number, status = 'CREATED') {
  await sqlOf(
    `with fixture_list as (
       -- A full list of its own (number 1000) for rows written directly: the API's allocation never picks it.
       insert into status_lists (organization_id, number, size, next_index) values ($1::uuid, 1000, 16777216, 16777216)
       on conflict (organization_id, number) do update set size = excluded.size returning id
     )
     insert into credentials (organization_id, schema_id, schema_snapshot, name, recipient_email, recipient_first_name,
       recipient_last_name, claims, status, status_list_id, status_index)
     select $1::uuid, $2::uuid, '{"name":"Membership"}'::jsonb, 'Bulk ' || g, 'bulk' || g || '@example.com', 'Bulk',
       'Person' || g, '{}'::jsonb, $3, (select id from fixture_list), 100000 + g + (select count(*) from credentials where organization_id = $1)
     from generate_series(1, $4::int) g`,
    [organizationId, schemaId, status, n],
  );
}

describe('credential list totals, EXPIRED and search', () => {
  it('answers exact totals and pages for every filter through creation, offers, expiry, revocation and deletion', async () => {
    const acme = await buildVerifiedOrganization(t, 'Acme', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    const other = await credentialSchemasService.createCredentialSchema(
      db(),
      {
        organizationId: acme.organization.id,
        userId: acme.member.user.id,
        actor: { kind: 'user', userId: acme.member.user.id },
      },
      { name: 'Diploma', attributes: [{ name: 'level', type: 'TEXT' }] },
    );
    const schemaIds = [acme.schemaRecord.schema.id, other.schema.id];
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push(
        await createCredential(acme.headers, schemaIds[i % 2]!, {
          email: `holder${i}@example.com`,
          first_name: `Holder${i}`,
          last_name: i % 3 === 0 ? 'Nakamura' : 'Smith',
        }),
      );
    }
    await expectListMatches(acme.headers, acme.organization.id, schemaIds);

    // Offers: ISSUED; then their expiry moves to a past hour, to earlier in the current hour, and back.
    for (const id of ids.slice(0, 6)) await connect(id);
    await expectListMatches(acme.headers, acme.organization.id, schemaIds);
    await sqlOf(`update credential_offers set expires_at = now() - interval '3 hours' where credential_id = $1`, [
      ids[0],
    ]);
    await sqlOf(
      `update credential_offers set expires_at = credential_expiry_hour(now()) where credential_id = any($1::uuid[])`,
      [[ids[1], ids[2]]],
    );
    const expiredPage = await list(acme.headers, { status: 'EXPIRED' });
    expect(expiredPage.results.map((r) => r.id).sort()).toEqual([ids[0], ids[1], ids[2]].sort());
    expect(expiredPage.results.every((r) => r.status === 'EXPIRED' && r.expired_at !== null)).toBe(true);
    await expectListMatches(acme.headers, acme.organization.id, schemaIds);

    // A second offer with a later expiry makes an EXPIRED credential ISSUED again; deleting it, EXPIRED again.
    await sqlOf(
      `insert into credential_offers (credential_id, organization_id, pre_authorized_code_hash, expires_at)
       values ($1, $2, 'second-offer', now() + interval '1 day')`,
      [ids[0], acme.organization.id],
    );
    expect((await list(acme.headers, { status: 'EXPIRED' })).total).toBe(2);
    await expectListMatches(acme.headers, acme.organization.id, schemaIds);
    await sqlOf(`delete from credential_offers where pre_authorized_code_hash = 'second-offer'`);
    expect((await list(acme.headers, { status: 'EXPIRED' })).total).toBe(3);

    // Revocation (an EXPIRED one too) and deletion through the API.
    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: acme.headers,
      payload: { credentials: [ids[1], ids[3]] },
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/credentials/${ids[4]}`, headers: acme.headers });
    expect(removed.statusCode).toBe(204);
    await expectListMatches(acme.headers, acme.organization.id, schemaIds);

    // Bulk writes in one statement (as a CSV import batch), a hard delete and a deleted schema.
    await insertRaw(acme.organization.id, other.schema.id, 40);
    await insertRaw(acme.organization.id, acme.schemaRecord.schema.id, 25, 'CLAIMED');
    await sqlOf(`delete from credentials where organization_id = $1 and name in ('Bulk 1', 'Bulk 2', 'Bulk 3')`, [
      acme.organization.id,
    ]);
    await expectListMatches(acme.headers, acme.organization.id, schemaIds);
    await db().delete(schema.credentialSchemas).where(eq(schema.credentialSchemas.id, other.schema.id));
    expect((await list(acme.headers, { schemaId: other.schema.id })).total).toBe(0);
    await expectListMatches(acme.headers, acme.organization.id, [acme.schemaRecord.schema.id]);
  });

  it('compacts the counters when they pile up, without changing any total', async () => {
    const org = await buildVerifiedOrganization(t, 'Compact', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    // One statement per credential: one delta row each.
    for (let i = 0; i < 230; i++)
      await insertRaw(org.organization.id, org.schemaRecord.schema.id, 1, i % 2 ? 'CLAIMED' : 'CREATED');
    expect(await counterRows(org.organization.id)).toBeGreaterThanOrEqual(230);
    const before = await list(org.headers, {});
    expect(before.total).toBe(230);
    // The request that read more than the threshold folded them: one row per (schema, status).
    expect(await counterRows(org.organization.id)).toBe(2);
    expect((await list(org.headers, {})).total).toBe(230);
    expect((await list(org.headers, { status: 'CLAIMED' })).total).toBe(115);
    // ISSUED credentials whose offers expired in 120 different past hours: those hours fold into one row.
    await insertRaw(org.organization.id, org.schemaRecord.schema.id, 120, 'ISSUED');
    await sqlOf(
      `insert into credential_offers (credential_id, organization_id, pre_authorized_code_hash, expires_at)
       select id, organization_id, md5(id::text), now() - (status_index % 1000) * interval '1 hour' - interval '1 hour'
       from credentials where organization_id = $1 and status = 'ISSUED'`,
      [org.organization.id],
    );
    expect((await list(org.headers, { status: 'EXPIRED' })).total).toBe(120);
    expect((await list(org.headers, {})).total).toBe(350);
    const { rows: issuedRows } = await sqlOf(
      `select count(*)::int as n from credential_counts where organization_id = $1 and status = 'ISSUED'`,
      [org.organization.id],
    );
    expect(issuedRows[0]?.n).toBe(1);
    expect((await list(org.headers, { status: 'EXPIRED' })).total).toBe(120);
    expect((await list(org.headers, { status: 'ISSUED' })).total).toBe(0);
    // A compaction racing another one keeps the totals.
    await insertRaw(org.organization.id, org.schemaRecord.schema.id, 3);
    await Promise.all([
      compactCredentialCounts(db(), org.organization.id),
      compactCredentialCounts(db(), org.organization.id),
    ]);
    await expectListMatches(org.headers, org.organization.id, [org.schemaRecord.schema.id]);
  });

  it('searches e-mail, names, full name and credential name, case-insensitively, never across fields', async () => {
    const org = await buildVerifiedOrganization(t, 'Search', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    await createCredential(org.headers, org.schemaRecord.schema.id, {
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    await createCredential(org.headers, org.schemaRecord.schema.id, {
      email: 'grace_h@example.org',
      first_name: 'Grace',
      last_name: 'Hopper',
    });
    const cases: [string, number][] = [
      ['ADA', 1],
      ['lovelace', 1],
      ['Ada Love', 1],
      ['e@example.', 0],
      ['grace_', 1],
      ['e_h', 1],
      ['grace%', 0],
      ['Gold memb', 2],
      ['HopperGold', 0],
      ['example.orgGrace', 0],
      ['Hopper Gold', 0],
      ['nobody', 0],
      ['a', 2],
    ];
    for (const [search, total] of cases) {
      const ids = await expected(org.organization.id, { search });
      const page = await list(org.headers, { search });
      expect({ search, total: page.total }).toEqual({ search, total });
      expect(page.results.map((r) => r.id)).toEqual(ids);
    }
    // A term holding the index's field separator falls back to field-by-field matching.
    const separator = await list(org.headers, { search: 'Ada\u001fLove' });
    expect(separator.total).toBe(0);
  });

  it('pages deep offsets in order, like the plain query', async () => {
    const org = await buildVerifiedOrganization(t, 'Pages', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    await insertRaw(org.organization.id, org.schemaRecord.schema.id, 57, 'ISSUED');
    const ids = await expected(org.organization.id, {});
    for (const page of [1, 3, 6, 7]) {
      const answer = await list(org.headers, {}, page, 10);
      expect(answer.total).toBe(57);
      expect(answer.results.map((r) => r.id)).toEqual(ids.slice((page - 1) * 10, page * 10));
    }
  });

  it("never counts or lists another organization's credentials", async () => {
    const mine = await buildVerifiedOrganization(t, 'Mine', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    const theirs = await buildVerifiedOrganization(t, 'Theirs', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    await insertRaw(theirs.organization.id, theirs.schemaRecord.schema.id, 12, 'ISSUED');
    const id = await createCredential(mine.headers, mine.schemaRecord.schema.id, {
      email: 'bulk1@example.com',
      first_name: 'Mine',
      last_name: 'Only',
    });
    expect((await list(mine.headers, {})).total).toBe(1);
    expect((await list(mine.headers, { search: 'bulk' })).results.map((r) => r.id)).toEqual([id]);
    // Their schema as a filter finds nothing of theirs.
    expect((await list(mine.headers, { schemaId: theirs.schemaRecord.schema.id })).total).toBe(0);
    expect((await list(mine.headers, { status: 'ISSUED' })).total).toBe(0);
    expect((await list(theirs.headers, { status: 'ISSUED' })).total).toBe(12);
  });

  it('refuses bad list parameters with problem+json', async () => {
    const org = await buildVerifiedOrganization(t, 'Bad input', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    for (const query of [
      'filter.status=LOST',
      'filter.schema_id=not-a-uuid',
      `filter.search=${'x'.repeat(201)}`,
      'page=0',
      'limit=101',
    ]) {
      const response = await t.app.inject({ url: `/api/credentials?${query}`, headers: org.headers });
      expect(response.statusCode, query).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});

describe('migration credential_list_counts on a database with credentials', () => {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    await drop?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('backfills offer expiries and counters from the existing rows', async () => {
    // The migrations up to 0005 only, as a database deployed before this change.
    folder = mkdtempSync(path.join(tmpdir(), 'cp-migrations-'));
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const first = journal.entries.findIndex((e) => e.tag.endsWith('_credential_list_counts'));
    expect(first).toBeGreaterThan(0);
    const cut = journal.entries[first]!.tag.slice(0, 4);
    journal.entries = journal.entries.slice(0, first);
    writeFileSync(journalPath, JSON.stringify(journal));
    for (const file of readdirSync(folder)) if (/^\d{4}_/.test(file) && file >= cut) rmSync(path.join(folder, file));

    if (process.env.TEST_DATABASE_URL) {
      const database = await openTestDatabase();
      handle = database.handle;
      drop = database.drop;
    } else {
      handle = await openDatabase({});
      drop = () => handle!.close();
    }
    const run = (text: string, values?: unknown[]) => handle!.executor.executeSql(text, values);
    const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    const migrateTo = (migrations: string) =>
      handle!.kind === 'postgresql'
        ? migratePg(handle!.db as never, { migrationsFolder: migrations })
        : migratePglite(handle!.db as never, { migrationsFolder: migrations });
    await migrateTo(folder);

    const [orgRow] = (await run(`insert into organizations (name, description) values ('Old', '') returning id`)).rows;
    const organizationId = orgRow!.id as string;
    // 20 credentials: 4 per status kind below, one soft-deleted; offers for the issued ones.
    await run(
      `insert into credentials (organization_id, schema_snapshot, name, recipient_email, recipient_first_name,
         recipient_last_name, claims, status, status_index, deleted_at)
       select $1::uuid, '{}'::jsonb, 'Old ' || g, 'old' || g || '@example.com', 'Old', 'Person' || g, '{}'::jsonb,
         (array['CREATED', 'ISSUED', 'ISSUED', 'CLAIMED', 'REVOKED'])[1 + g % 5], g,
         case when g = 20 then now() end
       from generate_series(1, 20) g`,
      [organizationId],
    );
    await run(
      `insert into credential_offers (credential_id, organization_id, pre_authorized_code_hash, expires_at)
       select id, organization_id, md5(id::text) || n,
         case when status_index % 5 = 1 then now() - interval '2 days' else now() + interval '2 days' end
           + n * interval '1 minute'
       from credentials, generate_series(0, 1) n where organization_id = $1 and status = 'ISSUED'`,
      [organizationId],
    );

    await migrateDatabase(handle);

    const { rows: mismatched } = await run(
      `select id from credentials c where offer_expires_at is distinct from
         (select max(expires_at) from credential_offers o where o.credential_id = c.id)`,
    );
    expect(mismatched).toEqual([]);
    const { rows: counts } = await run(
      `select status, sum(delta)::int as n, count(*) filter (where expiry_hour is not null)::int as with_hour
       from credential_counts where organization_id = $1 group by status order by status`,
      [organizationId],
    );
    const { rows: actual } = await run(
      `select status, count(*)::int as n from credentials where organization_id = $1 and deleted_at is null
       group by status order by status`,
      [organizationId],
    );
    expect(counts.map((r) => [r.status, r.n])).toEqual(actual.map((r) => [r.status, r.n]));
    expect(counts.find((r) => r.status === 'ISSUED')?.with_hour).toBeGreaterThan(0);
    // The searched text exists for the old rows too.
    const { rows: found } = await run(
      `select name from credentials where organization_id = $1 and search_text like '%person17%'`,
      [organizationId],
    );
    expect(found.map((r) => r.name)).toEqual(['Old 17']);
    // And the triggers run from then on.
    await run(`update credentials set status = 'CLAIMED' where organization_id = $1 and status = 'ISSUED'`, [
      organizationId,
    ]);
    const { rows: after } = await run(
      `select status, sum(delta)::int as n from credential_counts where organization_id = $1 group by status
       having sum(delta) <> 0 order by status`,
      [organizationId],
    );
    expect(after.map((r) => r.status)).toEqual(['CLAIMED', 'CREATED', 'REVOKED']);
  });
});
