import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDatabaseUnavailable, migrateDatabase, migrationsFolder, openDatabase } from '@cp/db';
import Fastify from 'fastify';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config/env.ts';
import { JobQueue } from '../src/jobs/job-queue.ts';
import { createLogger } from '../src/lib/logger.ts';
import { registerErrorHandler } from '../src/plugins/error-handler.ts';
import { createRuntime } from '../src/runtime.ts';
import { buildUser, freePort, openTestDatabase, startTestApp, type TestApp } from './harness.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const journalEntries = (
  JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const logger = createLogger({ level: 'silent' });

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe('health and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers liveness and readiness (database reachable, migrations applied), never rate limited', async () => {
    const live = await t.app.inject({ url: '/api/health' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok', database: t.runtime.ctx.database.kind });
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: t.runtime.ctx.database.kind, role: 'all' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 problem+json for readiness when migrations are missing', async () => {
    // A database nobody migrated (a fresh in-memory one): reachable, but not ready.
    const database = await openDatabase({});
    try {
      const app = await buildApp({ ...t.runtime.ctx, database });
      const response = await app.inject({ url: '/api/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({ status: 503, code: 'MIGRATIONS_PENDING' });
      await app.close();
    } finally {
      await database.close();
    }
  });
});

describe('database errors', () => {
  it('recognizes connection failures (also wrapped by drizzle), and nothing else', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('starting up'), { code: '57P03' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused], ''))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    // Another service's network error (fetch to an OIDC provider, a webhook receiver) is not the database's.
    expect(isDatabaseUnavailable(new TypeError('fetch failed', { cause: refused }))).toBe(false);
  });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After instead of 500', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/down', async () => {
      throw new Error('Failed query: select 1', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      });
    });
    app.get('/bug', async () => {
      throw new Error('boom');
    });
    const down = await app.inject({ url: '/down' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.headers['content-type']).toContain('application/problem+json');
    expect(down.json()).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    expect((await app.inject({ url: '/bug' })).statusCode).toBe(500);
    await app.close();
  });
});

describe('process roles', () => {
  const base = { NODE_ENV: 'test', MASTER_KEY: randomBytes(32).toString('base64') };

  it('refuses the api and worker roles on the embedded database, and without a shared master key', () => {
    expect(() => loadConfig({ ...base, PROCESS_ROLE: 'worker' })).toThrow(/PROCESS_ROLE=worker: requires DATABASE_URL/);
    expect(() => loadConfig({ ...base, PROCESS_ROLE: 'api' })).toThrow(ConfigError);
    expect(() => loadConfig({ PROCESS_ROLE: 'api', DATABASE_URL: 'postgres://db/cp' })).toThrow(/MASTER_KEY/);
    const config = loadConfig({ ...base, PROCESS_ROLE: 'api', DATABASE_URL: 'postgres://db/cp' });
    expect(config.processRole).toBe('api');
    expect(loadConfig({}).processRole).toBe('all');
  });

  it('`npm run worker` without DATABASE_URL exits with a clear message', () => {
    const { DATABASE_URL: _unused, ...env } = process.env;
    const result = spawnSync(path.join(repoRoot, 'node_modules/.bin/tsx'), ['apps/api/src/worker.ts'], {
      cwd: repoRoot,
      env: { ...env, NODE_ENV: 'test', DATA_DIR: tmpdir() },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('DATABASE_URL: required by `npm run worker` (PostgreSQL)');
  });
});

describe('job queue', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  /** pg-boss itself, as another process would hold it: reads jobs and plays a worker that dies. */
  let boss: PgBoss;
  beforeAll(async () => {
    database = await openTestDatabase();
    boss = new PgBoss({
      db: database.handle.executor,
      schema: 'pgboss',
      supervise: false,
      schedule: false,
      registerInstance: false,
    });
    await boss.start();
  });
  afterAll(async () => {
    await boss?.stop({ close: false });
    await database?.drop();
  });

  const jobState = async (queue: string, id: string) => {
    const [job] = await boss.findJobs(queue, { id });
    return job && { state: job.state, retryCount: job.retryCount };
  };

  it('an API process only sends; a worker runs the job; a graceful stop lets a running job finish', async () => {
    const api = new JobQueue(database.handle.executor, logger, { work: false });
    await api.start();
    await api.register('test.roles', async () => {
      throw new Error('an API process never runs handlers');
    });
    const id = await api.send('test.roles', { n: 1 });
    await sleep(1500);
    expect((await jobState('test.roles', id!))?.state).toBe('created');

    const done: number[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const worker = new JobQueue(database.handle.executor, logger, { work: true, stopTimeoutMs: 10_000 });
    await worker.start();
    await worker.register<{ n: number }>('test.roles', async ({ n }) => {
      await released; // runs until the test lets it finish, after the stop has begun
      done.push(n);
    });
    await waitFor('the job to start', async () =>
      (await jobState('test.roles', id!))?.state === 'active' ? true : undefined,
    );
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    }); // graceful: the running job finishes first
    // The stop has begun and the job still runs: the stop waits for it.
    expect((await jobState('test.roles', id!))?.state).toBe('active');
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(done).toEqual([1]);
    expect((await jobState('test.roles', id!))?.state).toBe('completed');
    await api.stop();
  });

  it('of a batch, only the job that failed is retried', async () => {
    const worker = new JobQueue(database.handle.executor, logger, { work: true, batchSize: 5 });
    await worker.start();
    const ran: number[] = [];
    await worker.register<{ n: number }>('test.batch', async ({ n }) => {
      ran.push(n);
      if (n === 2 && ran.filter((m) => m === 2).length === 1) throw new Error('first attempt of job 2 fails');
    });
    const ids = await Promise.all([1, 2, 3].map((n) => worker.send('test.batch', { n })));
    await waitFor('every job to complete', async () => {
      const states = await Promise.all(ids.map((id) => jobState('test.batch', id!)));
      return states.every((s) => s?.state === 'completed') ? states : undefined;
    });
    expect(ran.sort()).toEqual([1, 2, 2, 3]);
    expect(await Promise.all(ids.map(async (id) => (await jobState('test.batch', id!))?.retryCount))).toEqual([
      0, 1, 0,
    ]);
    await worker.stop();
  });

  it('a graceful stop releases a job that outlasts the timeout, so another worker runs it', async () => {
    const first = new JobQueue(database.handle.executor, logger, { work: true, stopTimeoutMs: 1000 });
    await first.start();
    let started = false;
    await first.register('test.release', async () => {
      started = true;
      await sleep(60_000);
    });
    const id = await first.send('test.release', {});
    await waitFor('the job to start', async () => (started ? true : undefined));
    await first.stop();
    expect((await jobState('test.release', id!))?.state).toBe('retry');

    const ran: string[] = [];
    const second = new JobQueue(database.handle.executor, logger, { work: true });
    await second.start();
    await second.register('test.release', async () => {
      ran.push('again');
    });
    await waitFor('the retry', async () =>
      (await jobState('test.release', id!))?.state === 'completed' ? true : undefined,
    );
    expect(ran).toEqual(['again']);
    await second.stop();
  });

  it('refuses a lease pg-boss cannot keep', () => {
    expect(() => new JobQueue(database.handle.executor, logger, { leaseSeconds: 5 })).toThrow(/at least 10/);
    expect(() => loadConfig({ JOB_LEASE_SECONDS: '9' })).toThrow(/JOB_LEASE_SECONDS/);
    expect(loadConfig({ JOB_LEASE_SECONDS: '10' }).jobLeaseSeconds).toBe(10);
  });

  it('a running job keeps its lease by heartbeats; a job whose process died runs again after the lease', async () => {
    const alive = new JobQueue(database.handle.executor, logger, { work: true, leaseSeconds: 10 });
    await alive.start();
    let runs = 0;
    await alive.register('test.lease', async () => {
      runs += 1;
      await sleep(16_000); // longer than the lease and a supervision pass: only the heartbeats keep it
    });
    const id = await alive.send('test.lease', {});
    await waitFor('completion', async () =>
      (await jobState('test.lease', id!))?.state === 'completed' ? true : undefined,
    );
    expect(runs).toBe(1);
    await alive.stop();

    // A worker that takes the job and then vanishes (no heartbeat, no completion): the job is failed by
    // supervision once its lease runs out, then retried by a live worker.
    const dead = await alive.send('test.lease', {});
    const taken = await boss.fetch('test.lease');
    expect(taken.map((job) => job.id)).toEqual([dead]);
    expect(await jobState('test.lease', dead!)).toEqual({ state: 'active', retryCount: 0 });
    const rescuer = new JobQueue(database.handle.executor, logger, { work: true, leaseSeconds: 10 });
    await rescuer.start();
    const rescued: string[] = [];
    await rescuer.register('test.lease', async () => {
      rescued.push('ran');
    });
    await waitFor(
      'the abandoned job to run again',
      async () => ((await jobState('test.lease', dead!))?.state === 'completed' ? true : undefined),
      40_000,
    );
    expect(rescued).toEqual(['ran']);
    expect((await jobState('test.lease', dead!))?.retryCount).toBe(1);
    await rescuer.stop();
  }, 90_000);
});

describe('job queue upgrade from pg-boss 10', () => {
  it('moves the jobs still to run from a pg-boss 10 database across, once, and drops the old tables', async () => {
    const database = await openTestDatabase();
    const { executor } = database.handle;
    const boss = new PgBoss({
      db: executor,
      schema: 'pgboss',
      supervise: false,
      schedule: false,
      registerInstance: false,
    });
    try {
      // The job tables as pg-boss 10.4.2 left them: two jobs due, one in retry, one that was running when its
      // process went away, one due in a few seconds, and finished ones.
      await executor.executeSql(readFileSync(path.join(import.meta.dirname, 'support/pgboss-10.sql'), 'utf8'));
      const ran: number[] = [];
      const first = new JobQueue(executor, logger, { work: true, leaseSeconds: 10 });
      await first.start();
      await first.register<{ n: number }>('test.v10', async ({ n }) => {
        ran.push(n);
      });
      await waitFor('the jobs that were still to run', async () => (ran.length >= 4 ? true : undefined));
      expect(ran.sort()).toEqual([1, 2, 3, 4]);

      await boss.start();
      expect(await boss.schemaVersion()).toBeGreaterThan(24);
      const jobs = new Map((await boss.findJobs('test.v10')).map((job) => [job.id.slice(-1), job]));
      expect([...jobs.keys()].sort()).toEqual(['1', '2', '3', '4']);
      expect([...jobs.values()].every((job) => job.state === 'completed')).toBe(true);
      expect(jobs.get('1')?.singletonKey).toBe('delivery-1');
      expect(jobs.get('2')?.retryLimit).toBe(3); // it had used 2 of its 5 retries
      expect(jobs.get('1')?.retryLimit).toBe(5);
      expect(jobs.get('4')!.startAfter.getTime() - jobs.get('1')!.startAfter.getTime()).toBeGreaterThan(60_000);
      const { rows } = await executor.executeSql(`select to_regnamespace('pgboss_v10') is null as gone`);
      expect(rows[0]?.gone).toBe(true);
      await first.stop();

      // Started again: nothing is moved twice.
      const second = new JobQueue(executor, logger, { work: true, leaseSeconds: 10 });
      await second.start();
      await second.register<{ n: number }>('test.v10', async ({ n }) => {
        ran.push(n);
      });
      // The move runs in start(): had it copied a job again, a copy would be waiting to run now.
      const again = await boss.findJobs('test.v10');
      expect(again).toHaveLength(4);
      expect(again.every((job) => job.state === 'completed')).toBe(true);
      expect(ran).toHaveLength(4);
      await second.stop();
    } finally {
      await boss.stop({ close: false });
      await database.drop();
    }
  }, 90_000);
});

const serverUrl = process.env.TEST_DATABASE_URL;

async function createDatabase() {
  const name = `cp_prod_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  return {
    name,
    url,
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** A TCP proxy in front of PostgreSQL that a test can cut (connections dropped, new ones refused) and restore. */
async function startProxy(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        sockets.add(client);
        sockets.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen();
  return {
    port,
    async cut() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      });
    },
    restore: listen,
  };
}

describe.skipIf(!serverUrl)('PostgreSQL in production', () => {
  it('runs the migrations once when three processes start together', async () => {
    const database = await createDatabase();
    const handles = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ databaseUrl: database.url.href, poolMax: 3 })),
    );
    try {
      await Promise.all(handles.map((handle) => migrateDatabase(handle)));
      const { rows } = await handles[0]!.executor.executeSql(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      );
      expect(rows[0]?.n).toBe(journalEntries);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await database.drop();
    }
  });

  it('answers 503 while the database is unreachable and recovers by itself; no job is lost', async () => {
    const database = await createDatabase();
    const target = new URL(serverUrl!);
    const proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(database.url.href);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-outage-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: proxied.href,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      JOB_LEASE_SECONDS: '10',
      SMTP_CATCHER_PORT: '0',
      ACCOUNT_CENTER_ENABLED: 'false',
      OIDC_ISSUER: 'http://127.0.0.1:9',
      OIDC_CLIENT_SECRET: 'not-used-in-this-test-000',
      CONSOLE_DIST: path.join(dataDir, 'no-console'),
    });
    const runtime = await createRuntime(config, logger);
    const app = await buildApp(runtime.ctx);
    await app.ready();
    try {
      const t = { app, runtime, config } as unknown as TestApp;
      const { auth } = await buildUser(t);
      const ran: number[] = [];
      await runtime.ctx.jobs.register<{ n: number }>('test.outage', async ({ n }) => {
        ran.push(n);
      });
      const get = () => app.inject({ url: '/api/organizations', headers: auth });
      expect((await get()).statusCode).toBe(200);

      // Due in the middle of the outage.
      await runtime.ctx.jobs.send('test.outage', { n: 1 }, { startAfter: new Date(Date.now() + 2000) });
      await proxy.cut();
      const during = await get();
      expect(during.statusCode, during.body).toBe(503);
      expect(during.headers['retry-after']).toBe('5');
      expect(during.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      const ready = await app.inject({ url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      await sleep(4000);
      expect((await get()).statusCode).toBe(503);
      expect(ran).toEqual([]);

      await proxy.restore();
      // No restart: the pool opens new connections and the queue polls again.
      await waitFor('the API to answer again', async () => ((await get()).statusCode === 200 ? true : undefined));
      expect((await app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
      await waitFor('the job queued before the outage', async () => (ran.length > 0 ? true : undefined));
      expect(ran).toEqual([1]);
    } finally {
      await app.close();
      await runtime.close();
      await proxy.cut();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
