/**
 * The real API for the HTTP benchmarks, in a process of its own (so the load generator never shares its
 * event loop): `createRuntime` + `buildApp` exactly as `apps/api/src/main.ts` wires them, on the
 * PostgreSQL database in DATABASE_URL, listening on 127.0.0.1:PORT. It then creates what every issuing
 * benchmark starts from (as `buildVerifiedOrganization` does in apps/api/test/harness.ts: a signed-in
 * member with a session, an organization that passed KYB, one credential schema) and sends it to the
 * parent over IPC. On 'profile-start' / 'profile-stop' messages it records a V8 CPU profile (the same as
 * `node --cpu-prof`, limited to the measured phase) into the file named; it stops on a 'stop' message.
 *
 * Spawned by `startApiServer` in ./bench.ts; not run by hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config/env.ts';
import { createLogger } from '../../apps/api/src/lib/logger.ts';
import { openSession } from '../../apps/api/src/modules/auth/auth.service.ts';
import * as credentialSchemasService from '../../apps/api/src/modules/credential-schemas/credential-schemas.service.ts';
import * as keysService from '../../apps/api/src/modules/organization-keys/organization-keys.service.ts';
import * as organizationsService from '../../apps/api/src/modules/organizations/organizations.service.ts';
import * as usersService from '../../apps/api/src/modules/users/users.service.ts';
import { createRuntime } from '../../apps/api/src/runtime.ts';
import { answerEventLoopQuestions } from './event-loop.ts';

export const BENCH_ATTRIBUTES = [
  { name: 'full_name', type: 'TEXT' as const },
  { name: 'age', type: 'NUMBER' as const },
  { name: 'member', type: 'BOOLEAN' as const },
  { name: 'joined_on', type: 'DATETIME' as const },
  { name: 'email', type: 'EMAIL' as const },
  { name: 'homepage', type: 'URL' as const },
];

export interface ServerInfo {
  baseUrl: string;
  organizationId: string;
  userId: string;
  schemaId: string;
  /** A second schema of the same organization (list filters). */
  otherSchemaId: string;
  attributes: { id: string; name: string; type: string }[];
  headers: Record<string, string>;
  /** The data directory (master key), shared with replica processes. */
  dataDir: string;
}

if (process.send) {
  const port = Number(process.env.PORT);
  // A replica (`--api-processes` > 1) shares the first process's data directory (master key) and public URL.
  const replica = Boolean(process.env.BENCH_REPLICA_DATA_DIR);
  const dataDir = process.env.BENCH_REPLICA_DATA_DIR || mkdtempSync(path.join(tmpdir(), 'cp-bench-api-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    // As in production (LOG_LEVEL's default): two lines per request, into a file (bench.ts).
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: process.env.BENCH_REPLICA_PUBLIC_URL || `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL,
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? '10',
    // The bundled account center is created (as in `npm start`) but not listened on: no load goes there.
    ID_PORT: '0',
    SMTP_CATCHER_PORT: '0',
    DEMO_SEED: 'false',
    CONSOLE_DIST: path.join(dataDir, 'no-console'),
    WALLET_DIST: path.join(dataDir, 'no-wallet'),
    // One load generator on 127.0.0.1 is one client IP: the per-IP limits (600/min overall, 120/min on the
    // issuer, verifier and holder-page endpoints) would answer 429.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000000000',
    RATE_LIMIT_ISSUER_PER_MINUTE: '1000000000',
    RATE_LIMIT_VERIFIER_PER_MINUTE: '1000000000',
    RATE_LIMIT_HOLDER_PER_MINUTE: '1000000000',
    API_KEY_RATE_LIMIT_PER_MINUTE: '1000000000',
    ACCESS_TOKEN_TTL_SECONDS: '86400',
    ...(process.env.STATUS_LIST_SIZE ? { STATUS_LIST_SIZE: process.env.STATUS_LIST_SIZE } : {}),
  });
  const logger = createLogger({ level: config.logLevel });
  const runtime = await createRuntime(config, logger, {});
  const app = await buildApp(runtime.ctx);
  await app.listen({ port, host: '127.0.0.1' });
  answerEventLoopQuestions();
  if (replica) {
    process.send({ type: 'ready', info: null });
    process.on('disconnect', () => {
      void Promise.allSettled([app.close(), runtime.close()]).then(() => process.exit(1));
    });
    process.on('message', async (message: { type?: string }) => {
      if (message?.type !== 'stop') return;
      await app.close();
      await runtime.close();
      process.exit(0);
    });
  } else {
    const db = runtime.ctx.database.db;
    const unique = Date.now().toString(36);
    const user = await usersService.upsertUserFromIdentity(db, {
      issuer: 'https://issuer.bench',
      subject: `bench-${unique}`,
      email: `bench-${unique}@example.com`,
      username: `bench${unique}`,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const tokens = await openSession(
      { db, accessTokens: runtime.ctx.accessTokens, refreshTtlDays: config.tokens.refreshTtlDays },
      user.id,
    );
    const organization = await organizationsService.createOrganization(db, user.id, {
      name: 'Bench University',
      description: '',
    });
    await db
      .update(schema.organizations)
      .set({ verificationStatus: 'APPROVED', verifiedAt: new Date() })
      .where(eq(schema.organizations.id, organization.id));
    const scope = {
      organizationId: organization.id,
      userId: user.id,
      actor: { kind: 'user', userId: user.id } as const,
    };
    const record = await credentialSchemasService.createCredentialSchema(db, scope, {
      name: 'Membership',
      attributes: BENCH_ATTRIBUTES,
    });
    const other = await credentialSchemasService.createCredentialSchema(db, scope, {
      name: 'Diploma',
      attributes: BENCH_ATTRIBUTES,
    });
    // The organization's signing key and certificate (otherwise made by the first signature or the backfill job).
    await keysService.getActiveSigner(runtime.ctx.keys, organization.id);

    const info: ServerInfo = {
      baseUrl: config.publicUrl,
      organizationId: organization.id,
      userId: user.id,
      schemaId: record.schema.id,
      otherSchemaId: other.schema.id,
      attributes: record.attributes.map((a) => ({ id: a.id, name: a.name, type: a.type })),
      headers: { authorization: `Bearer ${tokens.access_token}`, currentidentity: organization.id },
      dataDir,
    };
    process.send({ type: 'ready', info });
    const inspector = new Session();
    inspector.connect();
    // The parent went away without a 'stop' (killed, or its output pipe closed): do not linger.
    process.on('disconnect', () => {
      void Promise.allSettled([app.close(), runtime.close()]).then(() => process.exit(1));
    });
    process.on('message', async (message: { type?: string; file?: string }) => {
      if (message?.type === 'profile-start') {
        await inspector.post('Profiler.enable');
        await inspector.post('Profiler.setSamplingInterval', { interval: 500 });
        await inspector.post('Profiler.start');
        process.send?.({ type: 'profile-started' });
        return;
      }
      if (message?.type === 'profile-stop' && message.file) {
        const { profile } = await inspector.post('Profiler.stop');
        writeFileSync(message.file, JSON.stringify(profile));
        process.send?.({ type: 'profile-written' });
        return;
      }
      if (message?.type !== 'stop') return;
      await app.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.send?.({ type: 'stopped' });
      // A normal exit: --cpu-prof writes its profile here.
      process.exit(0);
    });
  }
}
