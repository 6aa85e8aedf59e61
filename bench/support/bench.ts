/**
 * Shared by the HTTP benchmarks: a fresh PostgreSQL database, the real API in a child process, an HTTP
 * load generator (undici, N requests in flight), percentiles, machine and load notes, and a summary of a
 * V8 CPU profile (what bounds a figure).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { closeSync, cpSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { derToP1363 } from '../../apps/api/src/modules/organization-keys/key-store.ts';
import { freePort } from '../../apps/api/test/support/ports.ts';
import type { ServerInfo } from './api-server.ts';
import { ask, type EventLoopUse, eventLoopLine, measureEventLoop } from './event-loop.ts';

export const print = (line = '') => process.stdout.write(`${line}\n`);

/** `--name value` pairs of the command line. */
export function parseArgs(defaults: Record<string, string>): Record<string, string> {
  const args = { ...defaults };
  for (let i = 2; i < process.argv.length; i++) {
    const key = process.argv[i]!.replace(/^--/, '');
    const next = process.argv[i + 1];
    if (next === undefined || next.startsWith('--')) args[key] = 'true';
    else {
      args[key] = next;
      i++;
    }
  }
  return args;
}

export function machineLine() {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return `machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 1024 ** 3)} GB, node ${process.version}; load average ${load}`;
}

export const loadLine = () =>
  `load average (1, 5, 15 min): ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;

const SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/** DATABASE_URL when set, else a new database on the local server, dropped by `drop()`. */
export async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, drop: async () => {} };
  const name = `cp_bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const cleanup = new pg.Client({ connectionString: SERVER });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export { freePort };

export interface ApiServer {
  info: ServerInfo;
  /** Process ids of the API processes (the first is the one set up and profiled). */
  pids: number[];
  /** Where the API processes listen (one per process; all share the database and `info.baseUrl`). */
  origins: string[];
  databaseUrl: string;
  pid: number;
  /**
   * Runs `phase` with the server's CPU profiler on (when profiling was asked for); answers the summary and how
   * busy the first process's event loop was (event-loop.ts).
   */
  profile<T>(name: string, phase: () => Promise<T>): Promise<{ result: T; summary: string[]; eventLoop: EventLoopUse }>;
  /** Stops the server and drops the database. */
  stop(): Promise<void>;
}

/**
 * The API's event-loop line for a phase of `operations` (event-loop.ts): with several processes, the first one's,
 * per operation it answered (the load generator's round robin gives it its share).
 */
export function apiEventLoopLine(
  server: ApiServer,
  phase: string,
  use: EventLoopUse,
  operations: number,
  operation: string,
) {
  const processes = server.pids.length;
  const label = `the API's event loop${processes > 1 ? ' (first process)' : ''}, ${phase}`;
  return eventLoopLine(label, use, operations / processes, operation);
}

/** The API processes write their log (stdout) into `logFile`, as production writes it into a collector. */
function spawnApiProcess(env: Record<string, string>, logFile: string) {
  const log = openSync(logFile, 'a');
  const child: ChildProcess = spawn(
    process.execPath,
    [...process.execArgv, path.join(import.meta.dirname, 'api-server.ts')],
    { stdio: ['ignore', log, 'inherit', 'ipc'], env: { ...process.env, ...env } },
  );
  closeSync(log);
  const ready = new Promise<ServerInfo>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the API server exited (${code}) before it was ready`)));
    child.on('message', (message: { type: string; info: ServerInfo }) => {
      if (message.type === 'ready') resolve(message.info);
    });
  });
  return { child, ready };
}

/**
 * The real API (./api-server.ts) in a child process on a fresh database. `profile`: sample its CPU in
 * phases (the first process's). `processes` > 1: more API processes on the same database, data directory
 * and public URL, each on its own port (as behind a load balancer; `httpClient` spreads requests over them).
 */
export async function startApiServer(
  options: { profile?: boolean; env?: Record<string, string>; processes?: number } = {},
) {
  const database = await createDatabase();
  const port = await freePort();
  // BENCH_API_LOG keeps the API's log there; otherwise it goes to a file of its own, read and removed at stop.
  const logFile = process.env.BENCH_API_LOG || path.join(mkdtempSync(path.join(tmpdir(), 'cp-bench-log-')), 'api.log');
  const { child, ready } = spawnApiProcess({ ...options.env, PORT: String(port), DATABASE_URL: database.url }, logFile);
  const info = await ready;
  child.removeAllListeners('exit');
  const replicas: ChildProcess[] = [];
  const origins = [`http://127.0.0.1:${port}`];
  for (let i = 1; i < (options.processes ?? 1); i++) {
    const replicaPort = await freePort();
    const replica = spawnApiProcess(
      {
        ...options.env,
        PORT: String(replicaPort),
        DATABASE_URL: database.url,
        BENCH_REPLICA_PUBLIC_URL: info.baseUrl,
        BENCH_REPLICA_DATA_DIR: info.dataDir,
      },
      logFile,
    );
    await replica.ready;
    replica.child.removeAllListeners('exit');
    replicas.push(replica.child);
    origins.push(`http://127.0.0.1:${replicaPort}`);
  }
  const server: ApiServer = {
    info,
    origins,
    databaseUrl: database.url,
    pid: child.pid!,
    pids: [child.pid!, ...replicas.map((replica) => replica.pid!)],
    async profile(name, phase) {
      if (!options.profile) return { ...(await measureEventLoop(child, phase)), summary: [] };
      const dir = mkdtempSync(path.join(tmpdir(), 'cp-bench-prof-'));
      await ask(child, { type: 'profile-start' }, 'profile-started');
      const { result, eventLoop } = await measureEventLoop(child, phase);
      await ask(child, { type: 'profile-stop', file: path.join(dir, `${name}.cpuprofile`) }, 'profile-written');
      const summary = summarizeProfile(dir);
      // BENCH_PROFILE_DIR keeps the .cpuprofile (for Chrome DevTools or speedscope).
      if (process.env.BENCH_PROFILE_DIR) cpSync(dir, process.env.BENCH_PROFILE_DIR, { recursive: true });
      rmSync(dir, { recursive: true, force: true });
      return { result, summary, eventLoop };
    },
    async stop() {
      for (const replica of replicas) {
        await new Promise<void>((resolve) => {
          replica.once('exit', () => resolve());
          replica.send({ type: 'stop' });
        });
      }
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'stop' });
      });
      await database.drop();
      for (const line of apiLogSummary(logFile)) print(line);
      if (!process.env.BENCH_API_LOG) rmSync(path.dirname(logFile), { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * The API's log in a few lines: how many it wrote, and the first of those at `warn` or above (pino's level 40),
 * which a run must not hide.
 */
export function apiLogSummary(logFile: string, shown = 5): string[] {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n').filter(Boolean);
  const warnings = lines.filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 40;
    } catch {
      return true;
    }
  });
  return [
    `the API's log (LOG_LEVEL ${process.env.BENCH_LOG_LEVEL ?? 'info'}): ${num(lines.length)} lines, ${num(warnings.length)} at warn or above${process.env.BENCH_API_LOG ? `, in ${logFile}` : ''}`,
    ...warnings.slice(0, shown).map((line) => `  ${line.slice(0, 300)}`),
  ];
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; 0 when it cannot be read. */
export function processCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (fields 14 and 15 of proc(5))
  } catch {
    return 0;
  }
}

/**
 * Where a phase's CPU goes on the one machine: the API processes, the PostgreSQL server (the backends serving
 * the benchmark's database, and the cluster's WAL writer, checkpointer and background writer, which write what
 * those backends logged), and this process, the load generator. Read from /proc before and after the phase
 * (PostgreSQL is local in these runs). The sum per operation bounds the rate two cores allow: 2,000 ms of CPU a
 * second divided by it.
 */
export async function cpuMeter(server: ApiServer) {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  const postgresPids = async () => {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where (datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid())
          or backend_type in ('walwriter', 'checkpointer', 'background writer')`,
    );
    return rows.map((row) => row.pid);
  };
  const read = async () => {
    const pids = await postgresPids();
    const perPid = new Map(pids.map((pid) => [pid, processCpuSeconds(pid)]));
    const self = process.cpuUsage();
    return {
      api: server.pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0),
      perPid,
      generator: (self.user + self.system) / 1e6,
    };
  };
  const statements = await statementStats(client);
  return {
    /**
     * Measures `phase`; answers milliseconds of CPU per operation of each part, and where pg_stat_statements is
     * loaded, the phase's costliest statements (`statements`, lines to print; empty otherwise).
     */
    async measure<T>(operations: number, phase: () => Promise<T>) {
      await statements.reset();
      const before = await read();
      const result = await phase();
      const after = await read();
      // Backends that came and went during the phase are missed (pools keep theirs open for the phase).
      let database = 0;
      for (const [pid, seconds] of after.perPid) database += seconds - (before.perPid.get(pid) ?? 0);
      const perOp = (seconds: number) => (seconds * 1000) / operations;
      const cpu = {
        api: perOp(after.api - before.api),
        database: perOp(database),
        generator: perOp(after.generator - before.generator),
      };
      return { result, cpu, statements: await statements.lines(operations) };
    },
    close: () => client.end(),
  };
}

/**
 * PostgreSQL's own profile of a phase, when the server loads pg_stat_statements (`shared_preload_libraries =
 * 'pg_stat_statements'` and a restart; `pg_stat_statements.track_planning = on` adds planning time): the
 * statements of the benchmark's database that took the most time, each with its calls and plans per operation
 * and its execution and planning time per call. Times are wall time inside the server (a busy machine's waits
 * for a core included), so they rank statements rather than add up to the server's CPU. Resetting clears the
 * whole server's statistics.
 */
async function statementStats(client: pg.Client, top = 6) {
  const { rows } = await client.query<{ loaded: boolean }>(
    `select coalesce(current_setting('shared_preload_libraries', true), '') like '%pg_stat_statements%' as loaded`,
  );
  const loaded = rows[0]?.loaded === true;
  if (loaded) await client.query('create extension if not exists pg_stat_statements');
  return {
    async reset() {
      if (loaded) await client.query('select pg_stat_statements_reset()');
    },
    async lines(operations: number): Promise<string[]> {
      if (!loaded) return [];
      const { rows: stats } = await client.query<{
        calls: string;
        plans: string;
        exec: number;
        plan: number;
        query: string;
      }>(
        `select calls, plans, total_exec_time as exec, total_plan_time as plan, query
           from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database())
          order by total_exec_time + total_plan_time desc limit $1`,
        [top],
      );
      const total = stats.reduce((sum, row) => sum + row.exec + row.plan, 0);
      return stats.map((row) => {
        const calls = Number(row.calls);
        const text = row.query.replace(/\s+/g, ' ').slice(0, 90);
        return `  ${(((row.exec + row.plan) / total) * 100).toFixed(0).padStart(3)} %  ${(calls / operations).toFixed(2)} calls and ${(Number(row.plans) / operations).toFixed(2)} plans per operation, ${ms(row.exec / calls)} executing and ${ms(row.plan / calls)} planning per call: ${text}`;
      });
    },
  };
}

/**
 * The cryptography one operation cannot do without, on node:crypto (the fastest here), as one call to repeat:
 * - presentation (direct_post.jwt): import the attempt's private key and the wallet's ephemeral key, ECDH
 *   (ECDH-ES), import the holder key from `cnf`, verify the issuer's ES256 signature and the key-binding JWT's;
 * - claim: import the proof's key and verify the proof (ES256), sign the SD-JWT VC (ES256, key kept).
 * Keys and signatures are made once, by this function. Throws if a signature does not verify.
 */
export function protocolCryptoStep(kind: 'presentation' | 'claim'): () => void {
  const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer = p256();
  const holder = p256();
  const attempt = p256();
  const ephemeral = p256();
  const data = randomBytes(700);
  // Signed as the product's key store signs: a bare KeyObject, the DER signature converted to r||s.
  const es256 = (key: Parameters<typeof sign>[2]) => derToP1363(sign('sha256', data, key as never));
  const issuerSignature = es256(issuer.privateKey);
  const holderSignature = es256(holder.privateKey);
  const jwk = (key: { export(o: { format: 'jwk' }): object }) => key.export({ format: 'jwk' });
  const attemptJwk = jwk(attempt.privateKey);
  const ephemeralJwk = jwk(ephemeral.publicKey);
  const holderJwk = jwk(holder.publicKey);
  const check = (ok: boolean) => {
    if (!ok) throw new Error('signature did not verify');
  };
  if (kind === 'presentation') {
    return () => {
      const privateKey = createPrivateKey({ key: attemptJwk as never, format: 'jwk' });
      const publicKey = createPublicKey({ key: ephemeralJwk as never, format: 'jwk' });
      diffieHellman({ privateKey, publicKey });
      const holderKey = createPublicKey({ key: holderJwk as never, format: 'jwk' });
      check(verify('sha256', data, { key: issuer.publicKey, dsaEncoding: 'ieee-p1363' }, issuerSignature));
      check(verify('sha256', data, { key: holderKey, dsaEncoding: 'ieee-p1363' }, holderSignature));
    };
  }
  return () => {
    const proofKey = createPublicKey({ key: holderJwk as never, format: 'jwk' });
    check(verify('sha256', data, { key: proofKey, dsaEncoding: 'ieee-p1363' }, holderSignature));
    es256(issuer.privateKey);
  };
}

/**
 * `protocolCryptoStep` timed on one core, in this process: a lower bound on the API's CPU per operation (ms),
 * whatever else its code does.
 */
export function protocolCryptoMs(kind: 'presentation' | 'claim', iterations = 3000): number {
  const step = protocolCryptoStep(kind);
  const started = performance.now();
  for (let i = 0; i < iterations; i++) step();
  return (performance.now() - started) / iterations;
}

/** One line: each part's CPU per operation, their sum, and the rate at which they would fill two cores. */
export function cpuBudgetLine(
  label: string,
  cpu: { api: number; database: number; generator: number },
  cryptoMs?: number,
  target = 1000,
) {
  const total = cpu.api + cpu.database + cpu.generator;
  const cores = 2;
  const rate = (perOp: number) => num((cores * 1000) / perOp);
  const floor =
    cryptoMs === undefined
      ? ''
      : `; with the API doing nothing but its cryptography (${ms(cryptoMs)}, node:crypto) they would fill at ≈ ${rate(cpu.database + cpu.generator + cryptoMs)}/s`;
  // What the target leaves the API once PostgreSQL and the load generator have their share of the two cores.
  const perOperation = (cores * 1000) / target;
  const left = perOperation - cpu.database - cpu.generator;
  const apiBudget =
    left > 0
      ? `, which leaves the API ≤ ${ms(left)} at ${num(target)}/s`
      : ` (no CPU left for the API at ${num(target)}/s)`;
  return (
    `CPU per ${label}: API ${ms(cpu.api)}, PostgreSQL ${ms(cpu.database)}, load generator ${ms(cpu.generator)} = ${ms(total)}; ` +
    `two cores fill at ≈ ${rate(total)}/s (${num(target)}/s needs ≤ ${ms(perOperation)} in all); ` +
    `PostgreSQL and the load generator alone at ≈ ${rate(cpu.database + cpu.generator)}/s${apiBudget}${floor}`
  );
}

/**
 * Transactions committed in a database so far (pg_stat_database): the delta over a phase divided by its
 * operations is the number of SQL statements per operation (each autocommit statement is one; the job
 * queue's polling adds a few). Backends flush these counters within a second of going idle.
 */
export async function transactionCount(databaseUrl: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: the parsed JSON of the endpoints under load
  json<T = any>(): T;
}

/**
 * An HTTP client with up to `connections` keep-alive connections (undici Pool) per origin. Several origins
 * (API processes): requests go to each in turn, whatever the URL's own origin (a load balancer).
 */
export function httpClient(originOrOrigins: string | string[], connections: number) {
  const origins = typeof originOrOrigins === 'string' ? [originOrOrigins] : originOrOrigins;
  const origin = origins[0]!;
  const pools = origins.map((o) => new Pool(o, { connections, pipelining: 1, keepAliveTimeout: 60_000 }));
  let turn = 0;
  async function request(
    pathOrUrl: string,
    init: {
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      json?: unknown;
      form?: Record<string, string>;
    } = {},
  ): Promise<HttpResponse> {
    const url = new URL(pathOrUrl, origin);
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const pool = pools[turn++ % pools.length]!;
    const response = await pool.request({
      path: `${url.pathname}${url.search}`,
      method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
      headers,
      body,
    });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      headers: response.headers,
      text,
      json: () => JSON.parse(text),
    };
  }
  return { request, close: () => Promise.all(pools.map((p) => p.close())).then(() => undefined) };
}

/** Runs `task(i)` for i in [0, count) with `concurrency` in flight; answers each task's latency in ms. */
export async function runConcurrent(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  const latencies = new Float64Array(count);
  let next = 0;
  let failures = 0;
  let firstError: unknown;
  const started = performance.now();
  async function worker() {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      try {
        await task(i);
      } catch (err) {
        failures++;
        firstError ??= err;
      }
      latencies[i] = performance.now() - t0;
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { seconds, perSecond: count / seconds, latencies, failures, firstError };
}

export function percentile(values: ArrayLike<number>, p: number) {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const ms = (value: number) => `${value.toFixed(value < 1 ? 2 : value < 10 ? 1 : 0)} ms`;
export const num = (value: number) => Math.round(value).toLocaleString('en');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/**
 * Self time of a V8 .cpuprofile: the top functions, and the time per area (a package under node_modules,
 * node internals, the app's own files, garbage collection, idle).
 */
export function summarizeProfile(dir: string, top = 15): string[] {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return ['(no profile written)'];
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
    endTime: number;
  };
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const total = profile.endTime - profile.startTime;
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  const area = (url: string, name: string) => {
    if (!url) return name.startsWith('(') ? name : '(native / V8 builtins)';
    if (url.startsWith('node:')) return 'node internals';
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) return pkg[1]!;
    const own = /\/(apps\/[^/]+|packages\/[^/]+)\//.exec(url);
    return own ? own[1]! : url;
  };
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (us === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules|apps|packages)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const a = area(url, functionName);
    byArea.set(a, (byArea.get(a) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1)}%`;
  const lines = [`API server CPU profile (${file.replace('.cpuprofile', '')}): ${(total / 1e6).toFixed(1)} s sampled`];
  lines.push('self time by area:');
  for (const [name, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    lines.push(`  ${pct(us).padStart(6)}  ${name}`);
  }
  lines.push(`top ${top} functions by self time:`);
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`  ${pct(us).padStart(6)}  ${name}`);
  }
  // Total time (self + callees) of the project's own functions: which step of a request costs what.
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const inclusive = new Map<number, number>();
  const totalOf = (id: number): number => {
    const known = inclusive.get(id);
    if (known !== undefined) return known;
    const node = nodes.get(id)!;
    const value = (selfUs.get(id) ?? 0) + (node.children ?? []).reduce((n, child) => n + totalOf(child), 0);
    inclusive.set(id, value);
    return value;
  };
  const byOwnFunction = new Map<string, number>();
  const walk = (id: number, active: Set<string>) => {
    const node = nodes.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    let key: string | undefined;
    if (/\/(apps|packages)\//.test(url) && !url.includes('node_modules') && functionName) {
      key = `${functionName} ${url.replace(/^.*\/(apps|packages)\//, '$1/')}:${lineNumber + 1}`;
      // Recursion (or re-entry through callbacks) counts once.
      if (!active.has(key)) byOwnFunction.set(key, (byOwnFunction.get(key) ?? 0) + totalOf(id));
    }
    const next = key && !active.has(key) ? new Set(active).add(key) : active;
    for (const child of node.children ?? []) walk(child, next);
  };
  walk(profile.nodes[0]!.id, new Set());
  lines.push(`top ${top} project functions by total time (self + callees):`);
  for (const [name, us] of [...byOwnFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`  ${pct(us).padStart(6)}  ${name}`);
  }
  return lines;
}
