/**
 * Status lists benchmark (issue 16, "No ceiling on credentials per organization"): per-request latency of
 * issuing (create + status-list allocation), revoking, fetching a status list and checking a status as a
 * verifier, for an organization with `--rows` credentials (10,000,000 by default: 77 lists of 131,072) against
 * one with 1,000, both on the same PostgreSQL database, through the real HTTP endpoints.
 *
 *   node_modules/.bin/tsx bench/status-lists.bench.ts [--rows 10000000] [--chunk 1000000] [--load-budget 1800]
 *       [--samples 60] [--concurrency 8]
 *
 * The API (createRuntime + buildApp) runs in a child process on a fresh PostgreSQL database. Both
 * organizations' credentials are written straight into `credentials` with `generate_series` statements of
 * `--chunk` rows, with their lists in `status_lists` (STATUS_LIST_SIZE bits each, indexes in order within a
 * list, marked as handed out in order: `random_from` = what is used, as migration 0013 leaves an old list;
 * the last list has room, so new credentials go on in it, shuffled), statuses 20 % CREATED, 40 % ISSUED,
 * 30 % CLAIMED, 10 % REVOKED (every tenth index of a list is revoked). Loading stops after the chunk that
 * passes `--load-budget` seconds: the figures are then for the rows loaded (printed). Then VACUUM ANALYZE.
 *
 * Per organization, one request at a time (`--samples` each, after 3 unmeasured):
 * - issue: `POST /api/credentials/with-recipient` (allocation of a status-list slot + insert);
 * - issue, `--concurrency` in flight: the same, many at once (allocation contention), and the rate;
 * - revoke: `PATCH /api/credentials/revoke` of one credential (its list's revision bumps in the transaction);
 * - status list after a revocation: `GET /orgs/:id/status-lists/:list` right after a revoke (read the list's
 *   revoked indexes, encode, compress, sign);
 * - status list, unchanged: the same GET again (the signed token from cache after one revision check);
 * - verifier status check: GET the list + check its signature with the issuer's key + read the bit, as the
 *   verifier does for each presented credential (packages/credentials statusFromToken).
 *
 * PostgreSQL: DATABASE_URL if set, else a fresh database on postgres://postgres@127.0.0.1:5432 (dropped).
 */

import { decodeJwt, statusFromToken, verifyJwtSignature } from '@cp/credentials';
import { schema as dbSchema } from '@cp/db';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as credentialSchemasService from '../apps/api/src/modules/credential-schemas/credential-schemas.service.ts';
import * as organizationsService from '../apps/api/src/modules/organizations/organizations.service.ts';
import { BENCH_ATTRIBUTES } from './support/api-server.ts';
import {
  httpClient,
  loadLine,
  machineLine,
  ms,
  num,
  parseArgs,
  percentile,
  print,
  runConcurrent,
  startApiServer,
} from './support/bench.ts';

const args = parseArgs({
  rows: '10000000',
  chunk: '1000000',
  'load-budget': '1800',
  samples: '60',
  concurrency: '8',
});
const rows = Number(args.rows);
const chunk = Number(args.chunk);
const loadBudgetMs = Number(args['load-budget']) * 1000;
const samples = Number(args.samples);
const concurrency = Number(args.concurrency);
const LIST_SIZE = 131_072;

print(machineLine());
const server = await startApiServer({ env: { STATUS_LIST_SIZE: String(LIST_SIZE) } });
const { info } = server;
const http = httpClient(info.baseUrl, Math.max(4, concurrency));
const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
const db = drizzle(pool, { schema: dbSchema }) as unknown as Parameters<
  typeof organizationsService.createOrganization
>[0];

interface Org {
  label: string;
  organizationId: string;
  schemaId: string;
  headers: Record<string, string>;
}

/** The organization's credentials 1…n (of a total of `total`), in lists of LIST_SIZE. */
async function bulkLoad(org: Org, from: number, to: number, total: number) {
  const snapshot = (
    await pool.query(
      `select json_build_object('id', s.id, 'name', s.name, 'slug', s.slug, 'attributes',
         (select json_agg(json_build_object('name', a.name, 'type', a.type, 'description', a.description) order by a.position)
          from credential_schema_attributes a where a.schema_id = s.id)) as snapshot
       from credential_schemas s where s.id = $1`,
      [org.schemaId],
    )
  ).rows[0].snapshot;
  await pool.query(
    `insert into credentials (organization_id, schema_id, schema_snapshot, name, recipient_email,
       recipient_first_name, recipient_last_name, claims, status, status_list_id, status_index, created_at, issued_at,
       claimed_at, revoked_at)
     select $1::uuid, $2::uuid, $3::jsonb, 'Membership ' || g, 'person' || g || '@example.com', 'First' || g,
       'Last' || g,
       jsonb_build_object('full_name', 'Person ' || g, 'age', 18 + g % 60, 'member', g % 2 = 0,
         'joined_on', '2020-05-01T00:00:00.000Z', 'email', 'person' || g || '@example.com',
         'homepage', 'https://example.com/p/' || g),
       s.status, l.id, (g - 1) % ${LIST_SIZE}, c.created_at,
       case when s.status <> 'CREATED' then c.created_at end,
       case when s.status in ('CLAIMED', 'REVOKED') then c.created_at + interval '1 hour' end,
       case when s.status = 'REVOKED' then c.created_at + interval '2 hours' end
     from generate_series($4::int, $5::int) g
       join status_lists l on l.organization_id = $1::uuid and l.number = (g - 1) / ${LIST_SIZE} + 1,
       lateral (select case when g % 10 < 2 then 'CREATED' when g % 10 < 6 then 'ISSUED'
                            when g % 10 < 9 then 'CLAIMED' else 'REVOKED' end as status) s,
       lateral (select now() - ($6::int - g) * interval '1 second' as created_at) c`,
    [org.organizationId, org.schemaId, JSON.stringify(snapshot), from, to, total],
  );
  // The lists: full ones, and the last one filled as far as the rows loaded.
  await pool.query(
    `insert into status_lists (organization_id, number, size, next_index, random_from)
     select $1::uuid, n, ${LIST_SIZE}, least(${LIST_SIZE}, $2::int - (n - 1) * ${LIST_SIZE}),
       least(${LIST_SIZE}, $2::int - (n - 1) * ${LIST_SIZE})
     from generate_series(1, ($2::int - 1) / ${LIST_SIZE} + 1) n
     on conflict (organization_id, number) do update set next_index = excluded.next_index,
       random_from = excluded.random_from`,
    [org.organizationId, to],
  );
}

/** The lists must exist before their credentials (foreign key): opened empty, filled by bulkLoad. */
async function openLists(org: Org, total: number) {
  await pool.query(
    `insert into status_lists (organization_id, number, size, next_index, random_from)
     select $1::uuid, n, ${LIST_SIZE}, 0, 0 from generate_series(1, ($2::int - 1) / ${LIST_SIZE} + 1) n
     on conflict (organization_id, number) do nothing`,
    [org.organizationId, total],
  );
}

/** A second organization of the same user (a member, verified, with the same schema). */
async function smallOrganization(): Promise<Org> {
  const organization = await organizationsService.createOrganization(db, info.userId, {
    name: 'Small College',
    description: '',
  });
  await pool.query(`update organizations set verification_status = 'APPROVED', verified_at = now() where id = $1`, [
    organization.id,
  ]);
  const record = await credentialSchemasService.createCredentialSchema(
    db,
    { organizationId: organization.id, userId: info.userId, actor: { kind: 'user', userId: info.userId } },
    { name: 'Membership', attributes: BENCH_ATTRIBUTES },
  );
  return {
    label: 'small',
    organizationId: organization.id,
    schemaId: record.schema.id,
    headers: { ...info.headers, currentidentity: organization.id },
  };
}

const credentialBody = (org: Org, i: number) => ({
  credential: {
    name: `Bench ${i}`,
    schema_id: org.schemaId,
    claims: {
      full_name: `Ada ${i}`,
      age: '36',
      member: 'true',
      joined_on: '2020-05-01',
      email: `ada${i}@example.com`,
      homepage: 'https://ada.example/',
    },
  },
  recipient: { email: `ada${i}@example.com`, first_name: 'Ada', last_name: `Lovelace ${i}` },
});

async function issue(org: Org, i: number) {
  const response = await http.request('/api/credentials/with-recipient', {
    method: 'POST',
    headers: org.headers,
    json: credentialBody(org, i),
  });
  if (response.status !== 201) throw new Error(`issue: ${response.status} ${response.text}`);
  return response.json().id as string;
}

async function revoke(org: Org, id: string) {
  const response = await http.request('/api/credentials/revoke', {
    method: 'PATCH' as 'POST',
    headers: org.headers,
    json: { credentials: [id] },
  });
  if (response.status !== 200) throw new Error(`revoke: ${response.status} ${response.text}`);
}

async function getList(path: string) {
  const response = await http.request(path);
  if (response.status !== 200) throw new Error(`status list: ${response.status} ${response.text}`);
  return response.text;
}

const summary = (latencies: ArrayLike<number>) =>
  `p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, max ${ms(percentile(latencies, 100))}`;

async function timed(n: number, task: (i: number) => Promise<void>) {
  for (let i = 0; i < 3; i++) await task(-1 - i);
  const latencies: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await task(i);
    latencies.push(performance.now() - t0);
  }
  return latencies;
}

async function measure(org: Org, credentials: number) {
  print('');
  print(`## ${org.label} organization: ${num(credentials)} credentials loaded (${loadLine()})`);
  let n = 0;
  const issued = await timed(samples, async () => {
    await issue(org, n++);
  });
  print(`  issue (create + allocate), one at a time: ${summary(issued)}`);
  const burst = await runConcurrent(samples * 2, concurrency, async () => {
    await issue(org, n++);
  });
  print(
    `  issue, ${concurrency} in flight: ${summary(burst.latencies)}; ${burst.perSecond.toFixed(0)}/s; ${burst.failures} failed`,
  );
  // Credentials to revoke: the ones just issued (in the open list), newest first.
  const toRevoke = (
    await pool.query(
      `select c.id, c.status_index, l.id as list_id from credentials c join status_lists l on l.id = c.status_list_id
       where c.organization_id = $1 and c.revoked_at is null and c.name like 'Bench %' order by c.created_at desc limit $2`,
      [org.organizationId, samples * 2 + 6],
    )
  ).rows as { id: string; status_index: number; list_id: string }[];
  const pathOf = (listId: string) => `/orgs/${org.organizationId}/status-lists/${listId}`;
  const revokeLatencies: number[] = [];
  const rebuildLatencies: number[] = [];
  for (let i = 0; i < samples + 3 && i < toRevoke.length; i++) {
    const target = toRevoke[i]!;
    let t0 = performance.now();
    await revoke(org, target.id);
    const revoked = performance.now() - t0;
    t0 = performance.now();
    const token = await getList(pathOf(target.list_id));
    const rebuilt = performance.now() - t0;
    if (statusFromToken(token, target.status_index).status !== 1) throw new Error('revocation not visible at once');
    if (i >= 3) {
      revokeLatencies.push(revoked);
      rebuildLatencies.push(rebuilt);
    }
  }
  print(`  revoke one credential: ${summary(revokeLatencies)}`);
  const listPath = pathOf(toRevoke[0]!.list_id);
  const listToken = await getList(listPath);
  print(
    `  status list after a revocation (rebuild + sign): ${summary(rebuildLatencies)}; token ${num(listToken.length)} bytes`,
  );
  const cached = await timed(samples, async () => {
    await getList(listPath);
  });
  print(`  status list, unchanged (cached): ${summary(cached)}`);
  const metadata = (await http.request(`/.well-known/jwt-vc-issuer/orgs/${org.organizationId}`)).json();
  const kid = decodeJwt(listToken).header.kid;
  const jwk = metadata.jwks.keys.find((k: { kid?: string }) => k.kid === kid) ?? metadata.jwks.keys[0];
  const target = toRevoke[0]!;
  const verified = await timed(samples, async () => {
    const token = await getList(listPath);
    if (!(await verifyJwtSignature(token, jwk))) throw new Error('status list signature');
    if (statusFromToken(token, target.status_index).status !== 1) throw new Error('not revoked');
  });
  print(`  verifier status check (GET + signature + bit): ${summary(verified)}`);
  const lists = (
    await pool.query(
      'select count(*)::int as n, count(*) filter (where next_index < size)::int as open from status_lists where organization_id = $1',
      [org.organizationId],
    )
  ).rows[0];
  print(`  lists: ${lists.n} (${lists.open} with room)`);
}

try {
  const big: Org = {
    label: 'big',
    organizationId: info.organizationId,
    schemaId: info.schemaId,
    headers: info.headers,
  };
  const small = await smallOrganization();

  print(`loading 1,000 credentials into the small organization…`);
  await openLists(small, 1000);
  await bulkLoad(small, 1, 1000, 1000);

  print(`loading ${num(rows)} credentials into the big organization, ${num(chunk)} per statement…`);
  await openLists(big, rows);
  const loadStarted = performance.now();
  let loaded = 0;
  while (loaded < rows) {
    const to = Math.min(rows, loaded + chunk);
    const t0 = performance.now();
    await bulkLoad(big, loaded + 1, to, rows);
    loaded = to;
    print(`  ${num(loaded)} (${((performance.now() - t0) / 1000).toFixed(1)} s; ${loadLine()})`);
    if (performance.now() - loadStarted > loadBudgetMs && loaded < rows) {
      print(`  load budget (${args['load-budget']} s) spent: measuring with ${num(loaded)} credentials`);
      break;
    }
  }
  // Lists opened for rows that were not loaded: dropped, so the big organization's last list is the open one.
  await pool.query('delete from status_lists where organization_id = $1 and next_index = 0', [big.organizationId]);
  const t0 = performance.now();
  await pool.query('vacuum (analyze) credentials');
  await pool.query('vacuum (analyze) status_lists');
  const size = (await pool.query(`select pg_size_pretty(pg_total_relation_size('credentials')) as size`)).rows[0].size;
  print(
    `loaded in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s (VACUUM ANALYZE ${((performance.now() - t0) / 1000).toFixed(0)} s); credentials table ${size} with indexes`,
  );

  await measure(small, 1000);
  await measure(big, loaded);
  await measure(small, 1000);
} finally {
  await pool.end();
  await http.close();
  await server.stop();
}
