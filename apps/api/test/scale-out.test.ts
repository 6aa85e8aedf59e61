import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { schema } from '@cp/db';
import { count, countDistinct, eq } from 'drizzle-orm';
import pg from 'pg';
import S3rver from 's3rver';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/env.ts';
import { createLogger } from '../src/lib/logger.ts';
import { CREDENTIAL_DELIVERY_QUEUE } from '../src/modules/credentials/credential-deliveries.worker.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { buildVerifiedOrganization, type TestApp } from './harness.ts';
import { onFreePorts } from './support/ports.ts';
import { claimCredential, fetchHttp, makeHolder, presentCredential, type WalletHttp } from './support/wallet.ts';

/**
 * The production shape on one machine: two API processes (PROCESS_ROLE=api) and a worker (`npm run worker`)
 * against one PostgreSQL database, S3-compatible storage (s3rver) and an SMTP relay (a catcher here).
 * Requests alternate between the API processes; the worker is killed (SIGKILL) in the middle of a
 * 5,000-row import and stopped (SIGTERM) in the middle of the e-mails, and a new one takes over each time.
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const ROWS = 5000;
const began = Date.now();
/** Progress in the test output (the timings of a run are worth seeing). */
const phase = (what: string) =>
  process.stdout.write(`[scale-out +${((Date.now() - began) / 1000).toFixed(1)} s] ${what}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
}

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const processes: Proc[] = [];
// Never leave product processes behind, even if the test run itself is interrupted.
process.once('exit', () => {
  for (const proc of processes) if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
});

function start(name: string, entry: string, env: Record<string, string>): Proc {
  // Node itself (not the tsx launcher, which would relay signals to a child): SIGKILL must kill the worker.
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', entry], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const proc = { name, child, output, exited };
  processes.push(proc);
  return proc;
}

async function ready(proc: Proc, url: string) {
  const outcome = await waitFor(
    `${proc.name} to be ready`,
    async () => {
      if (proc.child.exitCode !== null) return 'exited' as const;
      // Bounded: until the child listens, the port may belong to something that accepts and never answers.
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return response.status === 200 ? ('ready' as const) : undefined;
    },
    120_000,
  ).catch((err: Error) => err.message);
  if (outcome !== 'ready') throw new Error(`${proc.name}: ${outcome}\n--- output ---\n${proc.output.join('')}`);
}

/**
 * Runs `launch` on `n` ports that were free a moment ago. A child process binds its port only seconds later, and
 * something else on the machine (another test file's server) can take it in between: the child then stops with
 * EADDRINUSE. Whatever `launch` started (it adds each process to `started`) is then stopped and started again on
 * new ports, at most three times.
 */
function launchOnFreePorts<T>(n: number, launch: (ports: number[], started: Proc[]) => Promise<T>): Promise<T> {
  return onFreePorts(n, async (ports) => {
    const started: Proc[] = [];
    try {
      return await launch(ports, started);
    } catch (err) {
      for (const proc of started) if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
      await Promise.all(started.map((proc) => proc.exited));
      throw err;
    }
  });
}

describe.skipIf(!serverUrl)('scale-out: two API processes and a worker on PostgreSQL, S3 and SMTP', () => {
  const databaseName = `cp_scale_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = new URL(serverUrl ?? 'postgres://unused');
  databaseUrl.pathname = `/${databaseName}`;
  let dataDir: string;
  const mails: { to: string; messageId: string }[] = [];
  let s3: S3rver;
  let smtp: SMTPServer;
  let env: Record<string, string>;
  let urlA: string;
  let urlB: string;
  let worker: Proc;
  let control: Runtime;
  let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
  let request = 0;

  /** Alternates between the two API processes. */
  const api = (pathname: string, init: RequestInit = {}, headers = issuer.headers) => {
    request += 1;
    const base = request % 2 === 0 ? urlA : urlB;
    return fetch(`${base}${pathname}`, { ...init, headers: { ...headers, ...init.headers } });
  };

  const launchWorker = async (name: string, healthPort: number, started: Proc[]) => {
    const proc = start(name, 'apps/api/src/worker.ts', {
      ...env,
      DATA_DIR: path.join(dataDir, name),
      WORKER_HEALTH_PORT: String(healthPort),
    });
    started.push(proc);
    await ready(proc, `http://127.0.0.1:${healthPort}/health/ready`);
    return proc;
  };
  const startWorker = (name: string) =>
    launchOnFreePorts(1, ([healthPort], started) => launchWorker(name, healthPort as number, started));

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cp-scale-'));
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();

    // The test's own servers listen on port 0 and say which port they got: nothing can take it in between.
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: path.join(dataDir, 's3'),
      configureBuckets: [{ name: 'cp-scale', configs: [] }],
    });
    const s3Port = (await s3.run()).port;

    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      disableReverseLookup: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const head =
            Buffer.concat(chunks)
              .toString('utf8')
              .split(/\r?\n\r?\n/)[0] ?? '';
          const messageId = /^message-id:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? '';
          for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address.toLowerCase(), messageId });
          callback();
        });
      },
    });
    const smtpPort = await new Promise<number>((resolve) =>
      smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)),
    );

    // Kept across attempts: a first attempt may already have stored keys under it.
    const masterKey = randomBytes(32).toString('base64');
    // All three start together: migrations and first-start seeding happen once, the others wait.
    worker = await launchOnFreePorts(3, async ([portA, portB, healthPort], started) => {
      urlA = `http://127.0.0.1:${portA}`;
      urlB = `http://127.0.0.1:${portB}`;
      env = {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PUBLIC_URL: urlA,
        DATABASE_URL: databaseUrl.href,
        MASTER_KEY: masterKey,
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        S3_BUCKET: 'cp-scale',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        ACCOUNT_CENTER_ENABLED: 'false',
        OIDC_ISSUER: 'http://127.0.0.1:9',
        OIDC_CLIENT_SECRET: 'scale-out-test-client-secret',
        JOB_LEASE_SECONDS: '10',
        SHUTDOWN_TIMEOUT_SECONDS: '20',
        RATE_LIMIT_PER_MINUTE: '100000',
        CONSOLE_DIST: path.join(dataDir, 'no-console'),
      };
      const a = start('api-a', 'apps/api/src/main.ts', {
        ...env,
        PROCESS_ROLE: 'api',
        PORT: String(portA),
        DATA_DIR: path.join(dataDir, 'a'),
      });
      const b = start('api-b', 'apps/api/src/main.ts', {
        ...env,
        PROCESS_ROLE: 'api',
        PORT: String(portB),
        DATA_DIR: path.join(dataDir, 'b'),
      });
      started.push(a, b);
      const [, , first] = await Promise.all([
        ready(a, `${urlA}/api/health/ready`),
        ready(b, `${urlB}/api/health/ready`),
        launchWorker('worker-1', healthPort as number, started),
      ]);
      return first;
    });
    phase('two API processes and a worker ready');

    // The test's own handle on the same database (no HTTP, no job handlers) to set up an issuer and look inside.
    control = await createRuntime(
      loadConfig({ ...env, PROCESS_ROLE: 'api', DATA_DIR: path.join(dataDir, 'control'), LOG_LEVEL: 'silent' }),
      createLogger({ level: 'silent' }),
    );
    const t = { runtime: control, config: control.ctx.config } as unknown as TestApp;
    issuer = await buildVerifiedOrganization(t, 'Scale Academy', {
      name: 'Diploma',
      attributes: [
        { name: 'degree', type: 'TEXT' },
        { name: 'grade', type: 'NUMBER' },
      ],
    });
  }, 240_000);

  afterAll(async () => {
    for (const proc of processes) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    }
    await Promise.all(processes.map((proc) => proc.exited));
    await control?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    await s3?.close();
    if (serverUrl) {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await cleanup.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('issues through one API process, claims through the other, verifies through the first', async () => {
    const created = await api('/api/credentials/with-recipient', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        credential: {
          name: 'Diploma',
          schema_id: issuer.schemaRecord.schema.id,
          claims: { degree: 'BSc', grade: '92' },
        },
        recipient: { email: 'holder@example.test', first_name: 'Grace', last_name: 'Hopper' },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const credentialId = (await created.json()).id as string;
    const connect = await (await fetch(`${urlA}/api/credentials/${credentialId}/connect`)).json();

    // The offer names process A (PUBLIC_URL); the wallet's requests go to process B.
    const viaB: WalletHttp = (url, init) => fetchHttp(url.replace(urlA, urlB), init);
    const holder = await makeHolder();
    const vc = await claimCredential(viaB, connect.connection_url, holder);

    const verification = await api('/api/verifications', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Graduates',
        schema_id: issuer.schemaRecord.schema.id,
        type: 'MULTI',
        attributes: [
          {
            attribute_id: issuer.schemaRecord.attributes.find((a) => a.name === 'grade')!.id,
            operator: 'BIGGER',
            value: '50',
          },
        ],
      }),
    });
    expect(verification.status, await verification.clone().text()).toBe(201);
    const individual = await (
      await fetch(`${urlB}/api/verifications/individuals`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ verification_id: (await verification.json()).id }),
      })
    ).json();
    const request = await (await fetch(`${urlB}/api/verifications/${individual.id}/connect`)).json();
    const presented = await presentCredential(fetchHttp, request.connection_url, vc, holder);
    expect(presented.status, presented.body).toBe(200);
    const outcome = await (await fetch(`${urlB}/api/verifications/${individual.id}/verify`)).json();
    expect(outcome.status).toBe('VERIFIED');
  });

  it(`imports ${ROWS} rows and e-mails each recipient once, across a killed and a stopped worker`, async () => {
    const schemaId = issuer.schemaRecord.schema.id;
    const template = await api(`/api/credentials/import/template?schema_id=${schemaId}`);
    expect(template.status).toBe(200);
    const header = (await template.text()).split(/\r?\n/)[0]!;
    expect(header).toBe('recipient_first_name,recipient_last_name,recipient_email,degree,grade');
    const rows = Array.from({ length: ROWS }, (_, i) => `First${i},Last${i},r${i}@example.test,BSc,${i % 100}`);
    const form = new FormData();
    form.set('schema_id', schemaId);
    form.set('name', 'Class of 2026');
    form.set('file', new Blob([`${header}\r\n${rows.join('\r\n')}\r\n`], { type: 'text/csv' }), 'class.csv');
    const started = await api('/api/credentials/import', { method: 'POST', body: form });
    expect(started.status, await started.clone().text()).toBe(202);
    const importId = (await started.json()).id as string;
    const progress = async () =>
      (await (await api(`/api/credentials/import/${importId}`)).json()) as {
        status: string;
        processed_count: number;
        succeeded_count: number;
      };

    // SIGKILL the worker in the middle of the import (some rows stored, not all).
    const midway = await waitFor(
      'the import to be under way',
      async () => {
        const p = await progress();
        return p.status === 'PROCESSING' && p.processed_count > 0 ? p : undefined;
      },
      60_000,
    );
    phase(`SIGKILL worker at row ${midway.processed_count}`);
    worker.child.kill('SIGKILL');
    await worker.exited;
    expect(midway.processed_count).toBeLessThan(ROWS);
    const stored = await control.ctx.database.db
      .select({ n: count() })
      .from(schema.credentials)
      .where(eq(schema.credentials.importId, importId));
    expect(stored[0]!.n).toBeLessThan(ROWS);

    // A new worker takes the job over once the dead worker's lease has run out, and resumes it.
    worker = await startWorker('worker-2');
    phase('worker-2 ready');
    const done = await waitFor(
      'the import to complete',
      async () => {
        const p = await progress();
        return p.status === 'COMPLETED' || p.status === 'FAILED' ? p : undefined;
      },
      120_000,
    );
    phase('import completed');
    expect(done).toMatchObject({ status: 'COMPLETED', processed_count: ROWS, succeeded_count: ROWS });
    const [imported] = await control.ctx.database.db
      .select({ n: count(), rows: countDistinct(schema.credentials.importRow) })
      .from(schema.credentials)
      .where(eq(schema.credentials.importId, importId));
    expect(imported).toEqual({ n: ROWS, rows: ROWS });

    // E-mail every credential of the import; stop the worker gracefully part-way, then start another.
    const notified = await api('/api/credentials/notify/via-schema', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ schema_id: schemaId, import_id: importId }),
    });
    expect(notified.status, await notified.clone().text()).toBe(200);
    expect((await notified.json()).queued).toBe(ROWS);
    phase('e-mails queued');
    await waitFor('some e-mails', async () => (mails.length >= 500 ? true : undefined), 120_000);
    phase(`SIGTERM worker after ${mails.length} e-mails`);
    worker.child.kill('SIGTERM');
    expect(await worker.exited, worker.output.join('')).toEqual({ code: 0, signal: null });
    worker = await startWorker('worker-3');
    phase('worker-3 ready');
    await waitFor('every e-mail', async () => (mails.length >= ROWS ? true : undefined), 240_000).catch((err) => {
      throw new Error(`${(err as Error).message} (${mails.length} received)`);
    });
    phase('every e-mail received');
    // Every delivery job has finished (a job sends its mail before it completes): anything sent twice has
    // arrived by now.
    await waitFor('the delivery jobs to finish', async () => {
      const { rows } = await control.ctx.database.executor.executeSql(
        `select count(*)::int as n from pgboss.job where name = $1 and state in ('created', 'retry', 'active')`,
        [CREDENTIAL_DELIVERY_QUEUE],
      );
      return (rows[0] as { n: number }).n === 0 ? true : undefined;
    });

    const csvMails = mails.filter((m) => /^r\d+@example\.test$/.test(m.to));
    const perRecipient = new Map<string, number>();
    for (const mail of csvMails) perRecipient.set(mail.to, (perRecipient.get(mail.to) ?? 0) + 1);
    expect(perRecipient.size).toBe(ROWS);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(csvMails.map((m) => m.messageId)).size).toBe(ROWS);

    const deliveries = await control.ctx.database.db
      .select({ status: schema.credentialDeliveries.status, n: count() })
      .from(schema.credentialDeliveries)
      .innerJoin(schema.credentials, eq(schema.credentials.id, schema.credentialDeliveries.credentialId))
      .where(eq(schema.credentials.importId, importId))
      .groupBy(schema.credentialDeliveries.status);
    expect(deliveries).toEqual([{ status: 'SENT', n: ROWS }]);
    const { rows: failed } = await control.ctx.database.executor.executeSql(
      `select name, count(*)::int as n from pgboss.job where state = 'failed' group by name`,
    );
    expect(failed).toEqual([]);
  }, 420_000);

  it('stops the API processes and the worker gracefully on SIGTERM', async () => {
    const running = processes.filter((proc) => proc.child.exitCode === null && proc.child.signalCode === null);
    expect(running.map((proc) => proc.name).sort()).toEqual(['api-a', 'api-b', 'worker-3']);
    for (const proc of running) proc.child.kill('SIGTERM');
    const exits = await Promise.all(running.map((proc) => proc.exited));
    expect(exits).toEqual(running.map(() => ({ code: 0, signal: null })));
  });
});
