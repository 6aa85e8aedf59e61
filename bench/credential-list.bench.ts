/**
 * Credential list benchmark: p50/p95 latency of `GET /api/credentials` pages with 1,000,000 credentials in
 * one organization on PostgreSQL, through the real HTTP endpoint.
 *
 *   node_modules/.bin/tsx bench/credential-list.bench.ts [--rows 1000000] [--samples 30] [--budget 30] [--explain]
 *       [--index "CREATE INDEX …"]… [--profile]
 *
 * The API (createRuntime + buildApp) runs in a child process on a fresh PostgreSQL database. The
 * credentials are inserted straight into the `credentials` table with one `generate_series` statement,
 * in the shape `createCredentialWithRecipient` writes them (schema snapshot, typed claims, recipient,
 * status list and index, status and its timestamps), newest last; 80 % of them also get the offer the holder page
 * would have created (`credential_offers`, one per credential; half of the ISSUED ones expired).
 * Statuses: 20 % CREATED, 40 % ISSUED (half of them EXPIRED), 30 % CLAIMED, 10 % REVOKED; schemas: 80 %
 * "Membership", 20 % "Diploma". Then VACUUM ANALYZE, as autovacuum would (statistics, visibility map).
 *
 * Each case is requested `--samples` times one after the other (after 3 unmeasured requests) with the
 * organization's session; a slow case stops after `--budget` seconds once it has 5 samples. --explain prints EXPLAIN (ANALYZE, BUFFERS) of the statements the
 * repository runs per page (the page, its exact total), captured from Drizzle exactly as the app builds them.
 * --index (repeatable) creates an index by hand in the benchmark database after a first measurement, then
 * measures every case again: the effect of a proposed index, without touching the schema. --try
 * (repeatable) prints EXPLAIN ANALYZE of a statement of your own at the end, after any --index ($1 = the organization id,
 * $2 = the 20 % schema id): a rewritten query measured on the same data.
 *
 * --profile samples the API's CPU over the first measurement of every case (V8 profiler, as --cpu-prof).
 *
 * PostgreSQL: DATABASE_URL if set, else a fresh database on postgres://postgres@127.0.0.1:5432 (dropped).
 */

import { readFileSync } from 'node:fs';
import { zCredentialListQuery } from '@cp/contracts';
import { schema as dbSchema } from '@cp/db';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { findCredentials } from '../apps/api/src/modules/credentials/credentials.repository.ts';
import { listFilters } from '../apps/api/src/modules/credentials/credentials.service.ts';
import { httpClient, loadLine, machineLine, ms, num, percentile, print, startApiServer } from './support/bench.ts';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[i + 1]! : fallback;
};
const rows = Number(option('rows', '1000000'));
const samples = Number(option('samples', '30'));
const budgetMs = Number(option('budget', '30')) * 1000;
const explain = argv.includes('--explain');
const exportCases = argv.includes('--export');
const indexes = argv.flatMap((a, i) => (a === '--index' && argv[i + 1] ? [argv[i + 1]!] : []));
const tries = argv.flatMap((a, i) => (a === '--try' && argv[i + 1] ? [argv[i + 1]!] : []));
const profile = argv.includes('--profile');

print(machineLine());
const server = await startApiServer({
  profile,
  env: { STATUS_LIST_SIZE: String(Math.min(8_388_608, Math.max(131_072, 2 ** Math.ceil(Math.log2(rows + 1))))) },
});
const { info } = server;
const http = httpClient(info.baseUrl, 4);
const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
try {
  // ---- data ----
  const snapshotOf = async (schemaId: string) => {
    const [row] = (await pool.query('select id, name, slug from credential_schemas where id = $1', [schemaId])).rows;
    const attributes = (
      await pool.query(
        'select name, type, description from credential_schema_attributes where schema_id = $1 order by position',
        [schemaId],
      )
    ).rows;
    return { id: row.id, name: row.name, slug: row.slug, attributes };
  };
  const snapshots = [await snapshotOf(info.schemaId), await snapshotOf(info.otherSchemaId)];
  print(`inserting ${num(rows)} credentials and their offers (generate_series)…`);
  let t0 = performance.now();
  // One list holding every index (STATUS_LIST_SIZE above is at least `rows`), full: issuing would open the next.
  const listSize = Math.max(131_072, 2 ** Math.ceil(Math.log2(rows + 1)));
  await pool.query(
    `insert into status_lists (organization_id, number, size, next_index, random_from) values ($1, 1, $2, $3, $3)
     on conflict (organization_id, number) do update set next_index = $3, random_from = $3, size = greatest(status_lists.size, $2)`,
    [info.organizationId, listSize, rows],
  );
  await pool.query(
    `insert into credentials (organization_id, schema_id, schema_snapshot, name, description, recipient_email,
       recipient_first_name, recipient_last_name, claims, status, status_list_id, status_index, signing_key_id, holder_jwk,
       created_by_user_id, created_at, issued_at, claimed_at, revoked_at, offer_expires_at)
     select $1::uuid,
       case when g % 5 = 0 then $3::uuid else $2::uuid end,
       case when g % 5 = 0 then $5::jsonb else $4::jsonb end,
       case when g % 5 = 0 then 'Diploma' else 'Membership' end || ' ' || g,
       null,
       'person' || g || '@example.com', 'First' || g, 'Last' || g,
       jsonb_build_object('full_name', 'Person ' || g, 'age', 18 + g % 60, 'member', g % 2 = 0,
         'joined_on', '2020-05-01T00:00:00.000Z', 'email', 'person' || g || '@example.com',
         'homepage', 'https://example.com/p/' || g),
       s.status, (select id from status_lists where organization_id = $1 and number = 1), g - 1,
       case when s.status in ('CLAIMED', 'REVOKED') then (select id from organization_keys where organization_id = $1 limit 1) end,
       case when s.status in ('CLAIMED', 'REVOKED') then '{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}'::jsonb end,
       $6::uuid,
       c.created_at,
       case when s.status <> 'CREATED' then c.created_at end,
       case when s.status in ('CLAIMED', 'REVOKED') then c.created_at + interval '1 hour' end,
       case when s.status = 'REVOKED' then c.created_at + interval '2 hours' end,
       case when s.status = 'ISSUED' and (g - 1) % 20 in (1, 2, 3, 4) then now() - interval '1 day'
            when s.status <> 'CREATED' then c.created_at + interval '30 days' end
     from generate_series(1, $7::int) g,
       lateral (select case when g % 10 < 2 then 'CREATED' when g % 10 < 6 then 'ISSUED'
                            when g % 10 < 9 then 'CLAIMED' else 'REVOKED' end as status) s,
       lateral (select now() - ($7::int - g) * interval '1 second' as created_at) c`,
    [
      info.organizationId,
      info.schemaId,
      info.otherSchemaId,
      JSON.stringify(snapshots[0]),
      JSON.stringify(snapshots[1]),
      info.userId,
      rows,
    ],
  );
  const credentialsSeconds = (performance.now() - t0) / 1000;
  t0 = performance.now();
  // The offer the holder page created: ISSUED ones open (half of them expired a day ago: EXPIRED),
  // CLAIMED ones completed, REVOKED ones revoked. The credentials above already carry their offer's expiry
  // (credentials.offer_expires_at, which the offer trigger of migration 0008 would otherwise write with one
  // more update per credential), so the trigger finds nothing to change here.
  await pool.query(
    `insert into credential_offers (credential_id, organization_id, pre_authorized_code_hash, created_at, expires_at,
       redeemed_at, completed_at, revoked_at)
     select c.id, c.organization_id, md5(c.id::text), c.issued_at, c.offer_expires_at,
       c.claimed_at, c.claimed_at, c.revoked_at
     from credentials c where c.organization_id = $1 and c.status <> 'CREATED'`,
    [info.organizationId],
  );
  // What autovacuum does after a bulk insert: statistics, and the visibility map (index-only scans).
  await pool.query('vacuum (analyze) credentials');
  await pool.query('vacuum (analyze) credential_offers');
  const offersSeconds = (performance.now() - t0) / 1000;
  const counts = (
    await pool.query(
      `select (select count(*) from credentials) as credentials, (select count(*) from credential_offers) as offers,
         pg_size_pretty(pg_total_relation_size('credentials')) as size`,
    )
  ).rows[0];
  print(
    `  ${num(Number(counts.credentials))} credentials (${credentialsSeconds.toFixed(1)} s), ${num(Number(counts.offers))} offers (${offersSeconds.toFixed(1)} s with VACUUM ANALYZE); credentials table ${counts.size} with indexes`,
  );

  // ---- cases ----
  /** filter.created_from/to: from `from` days ago to `to` days ago (UTC calendar days, both included). */
  const day = (from: number, to: number) => ({
    'filter.created_from': new Date(Date.now() - from * 86_400_000).toISOString().slice(0, 10),
    'filter.created_to': new Date(Date.now() - to * 86_400_000).toISOString().slice(0, 10),
  });
  const cases: { name: string; query: Record<string, string>; path?: string }[] = [
    // Reference: the cheapest request of the API (one `select 1`), to tell query time from machine load.
    { name: 'reference: GET /api/health', query: {}, path: '/api/health' },
    { name: 'first page', query: { page: '1', limit: '10' } },
    { name: 'page 5,000', query: { page: '5000', limit: '10' } },
    ...['CREATED', 'ISSUED', 'CLAIMED', 'REVOKED', 'EXPIRED'].map((status) => ({
      name: `filter.status=${status}`,
      query: { page: '1', limit: '10', 'filter.status': status },
    })),
    { name: 'filter.schema_id (20 %)', query: { page: '1', limit: '10', 'filter.schema_id': info.otherSchemaId } },
    { name: 'filter.search=person123456', query: { page: '1', limit: '10', 'filter.search': 'person123456' } },
    { name: 'filter.search=Last99 (many)', query: { page: '1', limit: '10', 'filter.search': 'Last99' } },
    // Sorts (issue "ready for a paying organization"): oldest first, and the lifecycle order.
    { name: 'sort=created_at', query: { page: '1', limit: '10', sort: 'created_at' } },
    { name: 'sort=created_at, page 5,000', query: { page: '5000', limit: '10', sort: 'created_at' } },
    { name: 'sort=status', query: { page: '1', limit: '10', sort: 'status' } },
    { name: 'sort=status, page 5,000', query: { page: '5000', limit: '10', sort: 'status' } },
    // Offset 299,995: the last 5 CREATED and the first 5 ISSUED (two stretches in one page).
    { name: 'sort=status, page 30,000 (two statuses)', query: { page: '30000', limit: '10', sort: 'status' } },
    { name: 'sort=-status', query: { page: '1', limit: '10', sort: '-status' } },
    {
      name: 'sort=status + filter.schema_id',
      query: { page: '1', limit: '10', sort: 'status', 'filter.schema_id': info.otherSchemaId },
    },
    {
      name: 'sort=status + filter.search=Last99',
      query: { page: '1', limit: '10', sort: 'status', 'filter.search': 'Last99' },
    },
    // Ranges of creation days (inclusive, UTC): yesterday holds 86,400 credentials (one a second).
    { name: 'one day', query: { page: '1', limit: '10', ...day(1, 1) } },
    { name: 'one day, page 5,000', query: { page: '5000', limit: '10', ...day(1, 1) } },
    {
      name: 'one day + filter.status=ISSUED',
      query: { page: '1', limit: '10', 'filter.status': 'ISSUED', ...day(1, 1) },
    },
    { name: 'one day + sort=status', query: { page: '1', limit: '10', sort: 'status', ...day(1, 1) } },
    { name: 'three days', query: { page: '1', limit: '10', ...day(3, 1) } },
    { name: 'every day (1,000,000 in range)', query: { page: '1', limit: '10', ...day(30, 0) } },
  ];
  const measure = async () => {
    const results: { name: string; total: number; n: number; p50: number; p95: number; max: number }[] = [];
    for (const c of cases) {
      const url = c.path ?? `/api/credentials?${new URLSearchParams(c.query)}`;
      let total = 0;
      for (let i = 0; i < 3; i++) {
        const response = await http.request(url, { headers: info.headers });
        if (response.status !== 200) throw new Error(`${c.name}: ${response.status} ${response.text}`);
        total = response.json().total ?? 0;
      }
      const latencies: number[] = [];
      const caseStarted = performance.now();
      for (let i = 0; i < samples; i++) {
        // A slow case stops after --budget seconds (with at least 5 samples): the run stays bounded.
        if (i >= 5 && performance.now() - caseStarted > budgetMs) break;
        const started = performance.now();
        const response = await http.request(url, { headers: info.headers });
        latencies.push(performance.now() - started);
        if (response.status !== 200) throw new Error(`${c.name}: ${response.status}`);
      }
      results.push({
        name: c.name,
        total,
        n: latencies.length,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        max: Math.max(...latencies),
      });
      print(`  ${c.name}: p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}`);
    }
    return results;
  };
  const table = (results: Awaited<ReturnType<typeof measure>>) => {
    print('| request (limit 10) | total | requests | p50 | p95 | max | p95 ≤ 25 ms |');
    print('|---|---|---|---|---|---|---|');
    for (const r of results) {
      print(
        r.name.startsWith('reference')
          ? `| ${r.name} | – | ${r.n} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | – |`
          : `| ${r.name} | ${num(r.total)} | ${r.n} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${r.p95 <= 25 ? 'yes' : 'no'} |`,
      );
    }
  };

  print(loadLine());
  print(`GET /api/credentials, ${samples} requests per case, one at a time…`);
  // --profile: the API's CPU over every case, one request at a time (what a page costs besides its statements).
  const { result: before, summary } = await server.profile('list', measure);
  if (summary.length > 0) {
    print('API server CPU profile (every case):');
    for (const line of summary) print(`  ${line}`);
  }
  print(loadLine());
  print('');
  table(before);

  if (exportCases) {
    // GET /api/credentials/export streamed to the end: rows/s, and the API process's resident memory sampled
    // every 100 ms (flat: batches of 500 rows, back-pressure to this reader).
    const rss = () => {
      const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    };
    print('');
    print('| export | rows | bytes | seconds | rows/s | API RSS before | API RSS peak |');
    print('|---|---|---|---|---|---|---|');
    for (const c of [
      { name: 'filter.status=REVOKED', query: { 'filter.status': 'REVOKED' } },
      { name: 'one day + sort=status', query: { sort: 'status', ...day(1, 1) } },
      { name: 'everything', query: {} as Record<string, string> },
    ]) {
      const before = rss();
      let peak = before;
      const timer = setInterval(() => {
        peak = Math.max(peak, rss());
      }, 100);
      const started = performance.now();
      const response = await fetch(`${info.baseUrl}/api/credentials/export?${new URLSearchParams(c.query)}`, {
        headers: info.headers,
      });
      if (response.status !== 200) throw new Error(`export ${c.name}: ${response.status} ${await response.text()}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        for (const byte of chunk) if (byte === 10) lines += 1;
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(timer);
      print(
        `| ${c.name} | ${num(lines - 1)} | ${(bytes / 1e6).toFixed(1)} MB | ${seconds.toFixed(1)} | ${num((lines - 1) / seconds)} | ${(before / 1e6).toFixed(0)} MB | ${(peak / 1e6).toFixed(0)} MB |`,
      );
    }
  }

  if (explain) {
    // The statements the repository runs, captured from Drizzle as the app builds them.
    const captured: { sql: string; params: unknown[] }[] = [];
    const db = drizzle(pool, {
      schema: dbSchema,
      logger: { logQuery: (sql, params) => captured.push({ sql, params }) },
    }) as unknown as Parameters<typeof findCredentials>[0];
    for (const c of cases) {
      if (c.path) continue;
      captured.length = 0;
      const page = Number(c.query.page);
      const query = zCredentialListQuery.parse(c.query);
      await findCredentials(
        db,
        info.organizationId,
        listFilters(query),
        { offset: (page - 1) * 10, limit: 10 },
        query.sort,
      );
      for (const [i, statement] of captured.entries()) {
        const plan = await pool.query(`explain (analyze, buffers) ${statement.sql}`, statement.params);
        print('');
        print(`EXPLAIN ANALYZE — ${c.name}, statement ${i + 1} of ${captured.length}:`);
        print(statement.sql);
        for (const line of plan.rows) print(`  ${line['QUERY PLAN']}`);
      }
    }
  }

  if (indexes.length > 0) {
    print('');
    for (const statement of indexes) {
      const started = performance.now();
      await pool.query(statement);
      print(`${statement}  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
    await pool.query('vacuum (analyze) credentials');
    await pool.query('vacuum (analyze) credential_offers');
    print(loadLine());
    print('again, with the index(es) above:');
    const after = await measure();
    print(loadLine());
    print('');
    table(after);
  }

  for (const statement of tries) {
    const params = [info.organizationId, info.otherSchemaId].slice(
      0,
      statement.includes('$2') ? 2 : statement.includes('$1') ? 1 : 0,
    );
    const plan = await pool.query(`explain (analyze, buffers) ${statement}`, params);
    print('');
    print(`EXPLAIN ANALYZE — ${statement}`);
    for (const line of plan.rows) print(`  ${line['QUERY PLAN']}`);
  }
} finally {
  await pool.end();
  await http.close();
  await server.stop();
}
