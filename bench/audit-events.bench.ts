/**
 * Activity log benchmark: latency of the statements behind `GET /api/audit-events` (a page of 10 and its total,
 * counted up to 10,000) with `--rows` events in one organization on PostgreSQL, and their plans.
 *
 *   node_modules/.bin/tsx bench/audit-events.bench.ts [--rows 200000] [--samples 20] [--explain]
 *
 * The events go straight into `audit_events` with one `generate_series` statement, spread over a year, with
 * the mix an organization's log has (mostly credentials issued, revoked and claimed; a few of everything
 * else; 70 % by members, 20 % by API keys, the rest holders and the system), plus as many events of another
 * organization (the index must skip them). Then VACUUM ANALYZE, as autovacuum would. Each case calls the
 * repository's `findAuditEvents` (what the route calls) `--samples` times after 2 unmeasured calls.
 * --explain prints EXPLAIN (ANALYZE, BUFFERS) of the statements it runs, captured from Drizzle.
 *
 * PostgreSQL: DATABASE_URL if set, else a fresh database on postgres://postgres@127.0.0.1:5432 (dropped).
 */
import { auditActions, auditActionsOfCategory } from '@cp/contracts';
import { migrateDatabase, openDatabase, schema } from '@cp/db';
import { drizzle } from 'drizzle-orm/node-postgres';
import {
  type AuditEventFilters,
  findAuditEvents,
} from '../apps/api/src/modules/audit-events/audit-events.repository.ts';
import { createDatabase, machineLine, ms, num, parseArgs, percentile, print } from './support/bench.ts';

const args = parseArgs({ rows: '200000', samples: '20', explain: 'false' });
const rows = Number(args.rows);
const samples = Number(args.samples);

print(machineLine());
const database = await createDatabase();
const handle = await openDatabase({ databaseUrl: database.url, poolMax: 2 });
try {
  await migrateDatabase(handle);
  const pool = handle.pool!;
  const [organization, noise] = await handle.db
    .insert(schema.organizations)
    .values([{ name: 'Bench Organization' }, { name: 'Other Organization' }])
    .returning();
  const userId = '00000000-0000-4000-8000-000000000001';
  const apiKeyId = '00000000-0000-4000-8000-000000000002';
  const credentialId = '00000000-0000-4000-8000-0000000000c1';

  print(`inserting ${num(rows)} events for the organization and ${num(rows)} for another (generate_series)…`);
  const started = performance.now();
  // Actions by weight: credentials dominate a real log.
  const weighted = [
    ...Array(40).fill('credential.issued'),
    ...Array(15).fill('credential.claimed'),
    ...Array(10).fill('credential.revoked'),
    ...Array(5).fill('credential.deleted'),
    ...Array(5).fill('credential.sent'),
    ...auditActions,
  ];
  for (const organizationId of [organization!.id, noise!.id]) {
    await pool.query(
      `insert into audit_events (organization_id, occurred_at, actor_type, actor_user_id, actor_api_key_id, actor_label,
         action, target_type, target_id, target_label, details)
       select $1::uuid,
         now() - make_interval(secs => ($2::int - g) * (31536000.0 / $2::int)),
         case when g % 10 < 7 then 'USER' when g % 10 < 9 then 'API_KEY' when g % 20 = 19 then 'HOLDER' else 'SYSTEM' end,
         case when g % 10 < 7 then (case when g % 7 = 0 then $4::uuid else gen_random_uuid() end) end,
         case when g % 10 in (7, 8) then $5::uuid end,
         'Person ' || (g % 50),
         ($3::text[])[1 + (g::bigint * 7919) % array_length($3::text[], 1)],
         'credential',
         case when g = $2::int / 2 then $6::text else gen_random_uuid()::text end,
         'Work Certificate — Person ' || g,
         '{}'::jsonb
       from generate_series(1, $2::int) g`,
      [organizationId, rows, weighted, userId, apiKeyId, credentialId],
    );
  }
  await pool.query('vacuum analyze audit_events');
  print(`inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const now = Date.now();
  const cases: { name: string; filters: AuditEventFilters; page?: number }[] = [
    { name: 'page 1, no filter', filters: {} },
    { name: 'page 100, no filter', filters: {}, page: 100 },
    { name: 'one frequent action (credential.issued)', filters: { actions: ['credential.issued'] } },
    { name: 'one rare action (webhook.deleted)', filters: { actions: ['webhook.deleted'] } },
    { name: 'category credentials.*', filters: { actions: auditActionsOfCategory('credentials') } },
    { name: 'category integrations.*', filters: { actions: auditActionsOfCategory('integrations') } },
    { name: 'actor type API_KEY', filters: { actorType: 'API_KEY' } },
    { name: 'one user (1 event in 10)', filters: { actorId: userId } },
    { name: 'one target (type and id)', filters: { targetType: 'credential', targetId: credentialId } },
    { name: 'one target (id only)', filters: { targetId: credentialId } },
    { name: 'last 7 days', filters: { from: new Date(now - 7 * 86_400_000) } },
    {
      name: 'a week in the middle + category credentials.*',
      filters: {
        from: new Date(now - 180 * 86_400_000),
        to: new Date(now - 173 * 86_400_000),
        actions: auditActionsOfCategory('credentials'),
      },
    },
  ];

  const captured: { sql: string; params: unknown[] }[] = [];
  const logged = drizzle(pool, {
    schema,
    logger: { logQuery: (sql, params) => captured.push({ sql, params }) },
  }) as unknown as typeof handle.db;

  print();
  print(`| case (${num(rows)} events) | total | p50 | p95 |`);
  print('|---|---|---|---|');
  for (const c of cases) {
    const page = { offset: ((c.page ?? 1) - 1) * 10, limit: 10 };
    let total = '';
    for (let i = 0; i < 2; i++) await findAuditEvents(handle.db, organization!.id, c.filters, page);
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      const found = await findAuditEvents(handle.db, organization!.id, c.filters, page);
      total = `${num(found.total)}${found.totalExact ? '' : '+'}`;
      times.push(performance.now() - t0);
    }
    print(`| ${c.name} | ${total} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} |`);
  }

  if (args.explain === 'true') {
    for (const c of cases) {
      captured.length = 0;
      await findAuditEvents(logged, organization!.id, c.filters, { offset: ((c.page ?? 1) - 1) * 10, limit: 10 });
      for (const [i, statement] of captured.entries()) {
        const plan = await pool.query(`explain (analyze, buffers) ${statement.sql}`, statement.params);
        print();
        print(`EXPLAIN ANALYZE — ${c.name}, statement ${i + 1} of ${captured.length}:`);
        for (const row of plan.rows) print(`    ${row['QUERY PLAN']}`);
      }
    }
  }
} finally {
  await handle.close();
  await database.drop();
}
