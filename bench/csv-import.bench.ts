/**
 * CSV import benchmark: generates 10,000- and 100,000-row CSVs and runs the import job (the same code the
 * pg-boss worker runs: upload checks, streaming parse, row validation, batched inserts with status-list
 * indexes) against PGlite and PostgreSQL. Prints wall time, rows/s and peak RSS.
 *
 *   node_modules/.bin/tsx bench/csv-import.bench.ts [--rows 10000,100000] [--db pglite,postgres]
 *
 * PostgreSQL: DATABASE_URL if set, else a fresh database created on postgres://postgres@127.0.0.1:5432
 * (dropped afterwards). Not part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { type DatabaseHandle, migrateDatabase, openDatabase, schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { createCredentialSchema } from '../apps/api/src/modules/credential-schemas/credential-schemas.service.ts';
import * as importsService from '../apps/api/src/modules/credentials/credential-imports.service.ts';
import { LocalStorage } from '../apps/api/src/storage/local-storage.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const sizes = (args.get('rows') ?? '10000,100000').split(',').map(Number);
const targets = (args.get('db') ?? 'pglite,postgres').split(',');
const STATUS_LIST_SIZE = 1_048_576;

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);

/** Writes the CSV to a file in chunks (a 1,000,000-row file is ~120 MB: never whole in memory). */
async function generateCsv(file: string, rows: number) {
  const out = createWriteStream(file);
  let chunk =
    'recipient_first_name,recipient_last_name,recipient_email,full_name,score,graduated,graduated_on,homepage\n';
  for (let i = 0; i < rows; i++) {
    chunk += `First${i},Last${i},person${i}@example.com,"Person ${i}, Jr.",${(i % 1000) / 10},${i % 2 === 0},2024-${String((i % 12) + 1).padStart(2, '0')}-15,https://example.com/p/${i}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await finished(out);
  return statSync(file).size;
}

async function openTarget(target: string): Promise<{ handle: DatabaseHandle; close(): Promise<void> }> {
  if (target === 'pglite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'cp-bench-pglite-'));
    const handle = await openDatabase({ pgliteDir: dir });
    return {
      handle,
      async close() {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (process.env.DATABASE_URL) {
    const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolMax: 5 });
    return { handle, close: () => handle.close() };
  }
  const server = 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `cp_bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.href, poolMax: 5 });
  return {
    handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: server });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

async function organizationWithSchema(handle: DatabaseHandle) {
  const db = handle.db;
  const suffix = randomUUID();
  const [user] = await db
    .insert(schema.users)
    .values({
      issuer: 'bench',
      subject: suffix,
      email: `bench-${suffix}@example.com`,
    } as typeof schema.users.$inferInsert)
    .returning();
  const [organization] = await db
    .insert(schema.organizations)
    .values({
      name: `Bench ${suffix}`,
      verificationStatus: 'APPROVED',
      verifiedAt: new Date(),
    } as typeof schema.organizations.$inferInsert)
    .returning();
  const record = await createCredentialSchema(
    db,
    { organizationId: organization!.id, userId: user!.id, actor: { kind: 'user', userId: user!.id } },
    {
      name: 'Bench diploma',
      attributes: [
        { name: 'full_name', type: 'TEXT' },
        { name: 'score', type: 'NUMBER' },
        { name: 'graduated', type: 'BOOLEAN' },
        { name: 'graduated_on', type: 'DATETIME' },
        { name: 'homepage', type: 'URL' },
      ],
    },
  );
  return {
    organizationId: organization!.id,
    userId: user!.id,
    actor: { kind: 'user', userId: user!.id } as const,
    schemaId: record.schema.id,
  };
}

/**
 * CPU seconds (user + system) spent so far by the PostgreSQL backends serving this database, read from
 * /proc (the server is local in these runs): with the process's own CPU time it tells what bounds the
 * import on a loaded machine, where wall time alone says little. null on PGlite (in-process) or without /proc.
 */
async function databaseCpuSeconds(handle: DatabaseHandle): Promise<number | null> {
  if (handle.kind !== 'postgresql') return null;
  const { rows } = await handle.executor.executeSql(
    'select pid from pg_stat_activity where datname = current_database() and backend_type = $1',
    ['client backend'],
  );
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
    } catch {
      return null;
    }
  }
  return ticks / 100; // USER_HZ
}

/**
 * WAL written by the whole cluster so far and the checkpoints it has taken (requested + timed): a 1,000,000-row
 * import writes gigabytes of WAL, and each checkpoint it triggers (max_wal_size) makes the next change of every
 * page write a full-page image. null on PGlite.
 */
async function walState(handle: DatabaseHandle): Promise<{ lsn: string; checkpoints: number } | null> {
  if (handle.kind !== 'postgresql') return null;
  const { rows } = await handle.executor.executeSql(
    'select pg_current_wal_lsn()::text as lsn, (checkpoints_timed + checkpoints_req)::int as checkpoints from pg_stat_bgwriter',
    [],
  );
  return rows[0] as { lsn: string; checkpoints: number };
}

async function walWritten(handle: DatabaseHandle, before: { lsn: string; checkpoints: number } | null) {
  const after = await walState(handle);
  if (!before || !after) return '—';
  const { rows } = await handle.executor.executeSql('select pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::float8 as bytes', [
    after.lsn,
    before.lsn,
  ]);
  const bytes = Number((rows[0] as { bytes: number }).bytes);
  return `${(bytes / 1024 ** 3).toFixed(2)} GB, ${after.checkpoints - before.checkpoints} checkpoints`;
}

const results: string[] = [];
const print = (line = '') => process.stdout.write(`${line}\n`);

/** One measurement (one database, one size) in this process: peak RSS is then that run's alone. */
async function measure(target: string, rows: number) {
  const filesDir = mkdtempSync(path.join(tmpdir(), 'cp-bench-files-'));
  importsService.importLimits.maxRows = rows;
  importsService.importLimits.maxBytes = 512 * 1024 * 1024;
  const { handle, close } = await openTarget(target);
  try {
    await migrateDatabase(handle);
    const org = await organizationWithSchema(handle);
    const csvFile = path.join(filesDir, 'upload.csv');
    const csvBytes = await generateCsv(csvFile, rows);
    const deps = {
      db: handle.db,
      storage: new LocalStorage(filesDir),
      statusListSize: STATUS_LIST_SIZE,
      // As apps/api/src/service-deps.ts wires it.
      parallelBatches: handle.kind === 'postgresql' ? Number(process.env.BENCH_PARALLEL ?? 2) : 1,
      enqueue: async () => {},
    };
    const baseline = process.memoryUsage().rss;
    peakRss = baseline;
    const cpuBefore = process.cpuUsage();
    const dbCpuBefore = await databaseCpuSeconds(handle);
    const walBefore = await walState(handle);
    const started = performance.now();
    // The upload as the route hands it over: a stream, stored as it is checked.
    const row = await importsService.startImport(deps, org, { schema_id: org.schemaId }, createReadStream(csvFile));
    const accepted = performance.now();
    await importsService.runImport(deps, row.id);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const nodeCpu = (cpu.user + cpu.system) / 1e6;
    const dbCpu = dbCpuBefore === null ? null : ((await databaseCpuSeconds(handle)) ?? 0) - dbCpuBefore;
    const wal = await walWritten(handle, walBefore);
    const [done] = await handle.db
      .select()
      .from(schema.credentialImports)
      .where(eq(schema.credentialImports.id, row.id));
    if (done?.status !== 'COMPLETED' || done.succeededCount !== rows) {
      throw new Error(`import ended ${done?.status} with ${done?.succeededCount}/${rows}: ${done?.failureReason}`);
    }
    return `| ${target} | ${rows.toLocaleString('en')} | ${(csvBytes / 1024 / 1024).toFixed(1)} MB | ${((accepted - started) / 1000).toFixed(2)} s | ${seconds.toFixed(2)} s | ${Math.round(rows / seconds).toLocaleString('en')} | ${Math.round(peakRss / 1024 / 1024)} MB (${Math.round(baseline / 1024 / 1024)} MB before) | ${nodeCpu.toFixed(1)} s | ${dbCpu === null ? '—' : `${dbCpu.toFixed(1)} s`} | ${wal} | ${loadavg()[0]!.toFixed(1)} |`;
  } finally {
    await close();
    rmSync(filesDir, { recursive: true, force: true });
  }
}

if (args.get('child')) {
  try {
    print(`RESULT ${await measure(targets[0]!, sizes[0]!)}`);
  } finally {
    clearInterval(sampler);
  }
  process.exit(0);
}
clearInterval(sampler);
for (const target of targets) {
  for (const rows of sizes) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, process.argv[1]!, '--child', '1', '--db', target, '--rows', String(rows)],
      { encoding: 'utf8', env: process.env, maxBuffer: 16 * 1024 * 1024 },
    );
    const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) {
      process.stderr.write(`${child.stdout}\n${child.stderr}\n`);
      throw new Error(`the ${target} run of ${rows} rows failed`);
    }
    print(line.slice(7));
    results.push(line.slice(7));
  }
}
print(
  `\nmachine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 1024 ** 3)} GB, node ${process.version}`,
);
print(
  '| database | rows | file | upload checks | total wall time | rows/s | peak RSS of the process | CPU of the process | CPU of the PostgreSQL backends | WAL (cluster) | load average (1 min, at the end) |',
);
print('|---|---|---|---|---|---|---|---|---|---|---|');
for (const line of results) print(line);
