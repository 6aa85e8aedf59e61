/**
 * The credential list's sort (a whitelist) and its range of creation days (inclusive, in the user's time zone):
 * every page, for every sort, status filter and range, equals the list's definition written out in plain SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as repository from '../src/modules/credentials/credentials.repository.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const sqlOf = (text: string, values?: unknown[]) => t.runtime.ctx.database.executor.executeSql(text, values);

type Sort =
  | '-created_at'
  | 'created_at'
  | 'status'
  | '-status'
  | 'recipient'
  | '-recipient'
  | 'expires_at'
  | '-expires_at';
const SORTS: Sort[] = [
  '-created_at',
  'created_at',
  'status',
  '-status',
  'recipient',
  '-recipient',
  'expires_at',
  '-expires_at',
];
type Status = 'CREATED' | 'ISSUED' | 'CLAIMED' | 'REVOKED' | 'EXPIRED';
interface Query {
  sort?: Sort;
  status?: Status;
  search?: string;
  /** [from, before) instants of the range, for the plain-SQL side. */
  range?: [string, string];
  from?: string;
  to?: string;
  timezone?: string;
}

/** The list as specified, in plain SQL: the shown status from the latest offer, the status order spelled out. */
async function expected(organizationId: string, query: Query) {
  const latestOffer = '(select max(o.expires_at) from credential_offers o where o.credential_id = c.id)';
  const shown = `case when c.status = 'ISSUED' and ${latestOffer} <= now() then 'EXPIRED' else c.status end`;
  const values: unknown[] = [organizationId];
  const where = ['c.organization_id = $1', 'c.deleted_at is null'];
  if (query.status) {
    values.push(query.status);
    where.push(`${shown} = $${values.length}`);
  }
  if (query.search) {
    values.push(`%${query.search}%`);
    where.push(`(c.recipient_email ilike $${values.length} or c.recipient_last_name ilike $${values.length})`);
  }
  if (query.range) {
    values.push(query.range[0], query.range[1]);
    where.push(`c.created_at >= $${values.length - 1}::timestamptz and c.created_at < $${values.length}::timestamptz`);
  }
  const rank = `array_position(array['CREATED','ISSUED','EXPIRED','CLAIMED','REVOKED'], ${shown})`;
  const order = {
    '-created_at': 'c.created_at desc, c.id desc',
    created_at: 'c.created_at asc, c.id asc',
    status: `${rank} asc, c.created_at desc, c.id desc`,
    '-status': `${rank} desc, c.created_at desc, c.id desc`,
    recipient: 'c.recipient_last_name asc, c.recipient_first_name asc, c.id asc',
    '-recipient': 'c.recipient_last_name desc, c.recipient_first_name desc, c.id desc',
    // The claim offer's expiry; no offer yet (created): last ascending, first descending.
    expires_at: `${latestOffer} asc nulls last, c.id asc`,
    '-expires_at': `${latestOffer} desc nulls first, c.id desc`,
  }[query.sort ?? '-created_at'];
  const { rows } = await sqlOf(`select c.id from credentials c where ${where.join(' and ')} order by ${order}`, values);
  return rows.map((r) => r.id as string);
}

function url(query: Query, page: number, limit: number) {
  const params = new URLSearchParams({ page: String(page), limit: String(limit) });
  if (query.sort) params.set('sort', query.sort);
  if (query.status) params.set('filter.status', query.status);
  if (query.search) params.set('filter.search', query.search);
  if (query.from) params.set('filter.created_from', query.from);
  if (query.to) params.set('filter.created_to', query.to);
  if (query.timezone) params.set('timezone', query.timezone);
  return `/api/credentials?${params}`;
}

/** Every page of the list, walked with a small page size (so pages straddle the status boundaries). */
async function walk(headers: Record<string, string>, query: Query, limit = 3) {
  const ids: string[] = [];
  let total = -1;
  for (let page = 1; page < 200; page++) {
    const response = await t.app.inject({ url: url(query, page, limit), headers });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { total: number; results: { id: string }[] };
    total = body.total;
    ids.push(...body.results.map((r) => r.id));
    if (body.results.length < limit) break;
  }
  return { ids, total };
}

async function expectMatches(headers: Record<string, string>, organizationId: string, query: Query) {
  const ids = await expected(organizationId, query);
  const listed = await walk(headers, query);
  expect({ query, total: listed.total, ids: listed.ids }).toEqual({ query, total: ids.length, ids });
  return ids;
}

/**
 * Credentials around Tokyo's midnights (UTC+9) of 2026-03-09/10/11, in every status, some sharing a
 * creation instant (the id breaks the tie), with offers as the holder page makes them (two of them expired).
 */
async function seed(organizationId: string, schemaId: string) {
  const instants = [
    '2026-03-08T14:59:59.999999Z', // 2026-03-08 23:59:59.999999 in Tokyo
    '2026-03-08T15:00:00Z', // 2026-03-09 00:00 in Tokyo
    '2026-03-09T03:00:00Z',
    '2026-03-09T03:00:00Z',
    '2026-03-09T14:59:59.999999Z', // the last microsecond of 2026-03-09 in Tokyo
    '2026-03-09T15:00:00Z', // 2026-03-10 in Tokyo
    '2026-03-10T10:00:00Z',
    '2026-03-10T15:00:00.000001Z', // 2026-03-11 in Tokyo
  ];
  const statuses = ['CREATED', 'ISSUED', 'CLAIMED', 'REVOKED'];
  let n = 0;
  for (const [i, instant] of instants.entries()) {
    for (const status of statuses) {
      n += 1;
      await sqlOf(
        `with fixture_list as (
       -- A full list of its own (number 1000) for rows written directly: the API's allocation never picks it.
       insert into status_lists (organization_id, number, size, next_index) values ($1::uuid, 1000, 16777216, 16777216)
       on conflict (organization_id, number) do update set size = excluded.size returning id
     )
     insert into credentials (organization_id, schema_id, schema_snapshot, name, recipient_email,
           recipient_first_name, recipient_last_name, claims, status, status_list_id, status_index, created_at,
           issued_at, claimed_at, revoked_at)
         values ($1, $2, '{"name":"Membership"}', 'Sorted', $3, 'Holder', $4, '{}', $5, (select id from fixture_list), $6, $7,
           case when $5 <> 'CREATED' then $7::timestamptz end,
           case when $5 in ('CLAIMED', 'REVOKED') then $7::timestamptz end,
           case when $5 = 'REVOKED' then $7::timestamptz end)`,
        [organizationId, schemaId, `holder${n}@example.com`, `Family${i % 3}`, status, 1000 + n, instant],
      );
    }
  }
  // The offers the holder page made: open, except two expired ones (those credentials show as EXPIRED).
  await sqlOf(
    `insert into credential_offers (credential_id, organization_id, pre_authorized_code_hash, expires_at)
     select id, organization_id, md5(id::text),
       case when recipient_email in ('holder2@example.com', 'holder14@example.com') then now() - interval '1 hour'
            else now() + interval '7 days' end
     from credentials where organization_id = $1 and status <> 'CREATED'`,
    [organizationId],
  );
}

describe('credential list: sort and range of creation days', () => {
  it('pages through every sort, with and without a status filter, exactly as the plain-SQL definition', async () => {
    const org = await buildVerifiedOrganization(t, 'Sorting', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    await seed(org.organization.id, org.schemaRecord.schema.id);
    for (const sort of SORTS) {
      const ids = await expectMatches(org.headers, org.organization.id, { sort });
      expect(ids).toHaveLength(32);
      for (const status of ['CREATED', 'ISSUED', 'EXPIRED', 'CLAIMED', 'REVOKED'] as const) {
        await expectMatches(org.headers, org.organization.id, { sort, status });
      }
      await expectMatches(org.headers, org.organization.id, { sort, search: 'family1' });
    }
    // The status order puts the two expired ones between the issued and the claimed ones.
    const byStatus = await walk(org.headers, { sort: 'status' }, 32);
    const statuses = (await t.app.inject({ url: url({ sort: 'status' }, 1, 32), headers: org.headers }))
      .json()
      .results.map((r: { status: string }) => r.status);
    expect(byStatus.ids).toHaveLength(32);
    expect(statuses.slice(12, 16)).toEqual(['ISSUED', 'ISSUED', 'EXPIRED', 'EXPIRED']);
    expect(statuses[0]).toBe('CREATED');
    expect(statuses.at(-1)).toBe('REVOKED');
  });

  it('exports in the order of every sort, batch after batch (keyset across NULL offer expiries too)', async () => {
    const org = await buildVerifiedOrganization(t, 'Exporting', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    await seed(org.organization.id, org.schemaRecord.schema.id);
    const db = t.runtime.ctx.database.db;
    for (const sort of SORTS) {
      const want = await expected(org.organization.id, { sort });
      const got: string[] = [];
      for (const status of repository.statusStretches({}, sort)) {
        let after: repository.ExportCursor | null = null;
        for (;;) {
          // Batches of 3: every boundary (ties, NULL expiries, status stretches) is crossed by a cursor.
          const batch = await repository.findCredentialExportBatch(
            db,
            org.organization.id,
            { status },
            sort,
            after,
            3,
            new Date(),
          );
          got.push(...batch.map((row) => row.id));
          if (batch.length < 3) break;
          after = repository.exportCursorOf(batch[batch.length - 1]!);
        }
      }
      expect({ sort, got }).toEqual({ sort, got: want });
    }
  });

  it("filters by creation day, both days included, in the user's time zone (default UTC)", async () => {
    const org = await buildVerifiedOrganization(t, 'Ranging', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    await seed(org.organization.id, org.schemaRecord.schema.id);
    const tokyoDay = { from: '2026-03-09', to: '2026-03-09', timezone: 'Asia/Tokyo' };
    const day = await expectMatches(org.headers, org.organization.id, {
      ...tokyoDay,
      range: ['2026-03-08T15:00:00Z', '2026-03-09T15:00:00Z'],
    });
    // The instants at 00:00 and 23:59:59.999999 Tokyo time are in, the microsecond before and after are not.
    expect(day).toHaveLength(16);
    for (const sort of ['created_at', 'status', '-status'] as const) {
      await expectMatches(org.headers, org.organization.id, {
        ...tokyoDay,
        sort,
        range: ['2026-03-08T15:00:00Z', '2026-03-09T15:00:00Z'],
      });
    }
    await expectMatches(org.headers, org.organization.id, {
      ...tokyoDay,
      status: 'EXPIRED',
      range: ['2026-03-08T15:00:00Z', '2026-03-09T15:00:00Z'],
    });
    await expectMatches(org.headers, org.organization.id, {
      ...tokyoDay,
      search: 'family2',
      range: ['2026-03-08T15:00:00Z', '2026-03-09T15:00:00Z'],
    });
    // Only one end; UTC days by default.
    await expectMatches(org.headers, org.organization.id, {
      from: '2026-03-10',
      timezone: 'Asia/Tokyo',
      range: ['2026-03-09T15:00:00Z', '9999-01-01T00:00:00Z'],
    });
    await expectMatches(org.headers, org.organization.id, {
      to: '2026-03-09',
      sort: 'status',
      range: ['1900-01-01T00:00:00Z', '2026-03-10T00:00:00Z'],
    });
    // Ranges holding most of the credentials (counted as the total minus the rows outside them).
    await expectMatches(org.headers, org.organization.id, {
      from: '2026-03-01',
      range: ['2026-03-01T00:00:00Z', '9999-01-01T00:00:00Z'],
    });
    await expectMatches(org.headers, org.organization.id, {
      to: '2026-03-09',
      status: 'EXPIRED',
      range: ['1900-01-01T00:00:00Z', '2026-03-10T00:00:00Z'],
    });
    const twoTokyoDays = { from: '2026-03-09', to: '2026-03-10', timezone: 'Asia/Tokyo' };
    for (const sort of ['-created_at', 'status', '-status'] as const) {
      const ids = await expectMatches(org.headers, org.organization.id, {
        ...twoTokyoDays,
        sort,
        range: ['2026-03-08T15:00:00Z', '2026-03-10T15:00:00Z'],
      });
      // All but the microsecond before and the microsecond after.
      expect(ids).toHaveLength(24);
    }
    const utcDay = await expectMatches(org.headers, org.organization.id, {
      from: '2026-03-09',
      to: '2026-03-09',
      range: ['2026-03-09T00:00:00Z', '2026-03-10T00:00:00Z'],
    });
    expect(utcDay).toHaveLength(16);
    expect(utcDay).not.toEqual(day);
  });

  it('refuses an unknown sort, a bad day, a reversed range and an unknown time zone with a 400 naming the field', async () => {
    const org = await buildVerifiedOrganization(t, 'Refusing', {
      name: 'Membership',
      attributes: [{ name: 'level', type: 'TEXT' }],
    });
    const cases: [string, string][] = [
      ['sort=email', 'querystring.sort'],
      ['sort=name', 'querystring.sort'],
      ['sort=created_at%3B%20drop%20table%20credentials', 'querystring.sort'],
      ['sort=-expired_at', 'querystring.sort'],
      ['filter.created_from=2026-02-30', 'querystring.filter.created_from'],
      ['filter.created_to=yesterday', 'querystring.filter.created_to'],
      ['filter.created_from=2026-03-10T00:00:00Z', 'querystring.filter.created_from'],
      ['filter.created_from=2026-03-10&filter.created_to=2026-03-09', 'querystring.filter.created_from'],
      ['filter.created_from=1066-10-14', 'querystring.filter.created_from'],
      ['timezone=Mars%2FOlympus_Mons', 'querystring.timezone'],
    ];
    for (const [query, path] of cases) {
      for (const route of ['/api/credentials', '/api/credentials/export']) {
        const response = await t.app.inject({ url: `${route}?${query}`, headers: org.headers });
        expect(response.statusCode, `${route}?${query}`).toBe(400);
        expect(response.headers['content-type']).toContain('application/problem+json');
        expect(response.json().code).toBe('REQUEST_INVALID');
        expect(response.json().errors.map((e: { path: string }) => e.path)).toContain(path);
      }
    }
  });
});
