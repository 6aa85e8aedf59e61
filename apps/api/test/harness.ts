import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CreateCredentialSchemaRequest } from '@cp/contracts';
import { type DatabaseHandle, openDatabase, pgliteExtensions, schema } from '@cp/db';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config/env.ts';
import { createLogger } from '../src/lib/logger.ts';
import { openSession } from '../src/modules/auth/auth.service.ts';
import * as credentialSchemasService from '../src/modules/credential-schemas/credential-schemas.service.ts';
import * as organizationsService from '../src/modules/organizations/organizations.service.ts';
import * as usersService from '../src/modules/users/users.service.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { onFreePorts } from './support/ports.ts';

/** A fresh database for one test file: PGlite in memory, or a new PostgreSQL database when TEST_DATABASE_URL is set. */
export async function openTestDatabase(): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const template = inject('pgliteTemplate');
    const pglite = template
      ? new PGlite({ loadDataDir: new Blob([readFileSync(template)]), extensions: pgliteExtensions })
      : new PGlite({ extensions: pgliteExtensions });
    const handle = await openDatabase({ pglite });
    return { handle, drop: () => handle.close() };
  }
  const name = `cp_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.href, poolMax: 5 });
  return {
    handle,
    async drop() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export { freePort, freePorts } from './support/ports.ts';

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
  /** Base URL of the listening API (only when `listen: true`). */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The real application over a fresh database, with the bundled account center listening on a free
 * port (so the OpenID Connect flow is the real one) and the in-process SMTP catcher.
 */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    listen?: boolean;
    adminToken?: string;
    /** Captures the application's logs (at `logLevel`, default trace) instead of discarding them. */
    logStream?: DestinationStream;
    logLevel?: string;
  } = {},
): Promise<TestApp> {
  // A port checked free can still be taken before its server listens (see support/ports.ts): start again on new ones.
  return onFreePorts(2, (ports) => startTestAppOn(ports, options));
}

async function startTestAppOn(
  [idPort, listenPort]: number[],
  options: Parameters<typeof startTestApp>[0] = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-api-test-'));
  const cleanups: (() => Promise<unknown> | unknown)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const database = await openTestDatabase();
    cleanups.push(() => database.drop());
    const apiPort = options.listen ? (listenPort as number) : 3000;
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PORT: String(apiPort),
      PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      ID_PORT: String(idPort),
      ID_PUBLIC_URL: `http://127.0.0.1:${idPort}`,
      SMTP_CATCHER_PORT: '0',
      CONSOLE_DIST: path.join(dataDir, 'no-console'),
      ...options.env,
    });
    const logger = options.logStream
      ? createLogger({ level: options.logLevel ?? 'trace' }, options.logStream)
      : createLogger({ level: 'silent' });
    const runtime = await createRuntime(config, logger, {
      database: database.handle,
      ...(options.adminToken ? { adminToken: options.adminToken } : {}),
    });
    cleanups.push(() => runtime.close());
    if (runtime.accountCenter) await runtime.accountCenter.listen(idPort as number, '127.0.0.1');
    const app = await buildApp(runtime.ctx);
    cleanups.push(() => app.close());
    if (options.listen) await app.listen({ port: apiPort, host: '127.0.0.1' });
    else await app.ready();
    return { app, runtime, config, baseUrl: `http://127.0.0.1:${apiPort}`, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

let counter = 0;

/** A signed-in user (as after an OpenID Connect sign-in) with a live session. */
/** A user signed in through a provider (by default one that verified the address: `email_verified`). */
export async function buildUser(
  t: TestApp,
  overrides: { email?: string; firstName?: string; emailVerified?: boolean } = {},
) {
  counter += 1;
  const unique = `${Date.now().toString(36)}${counter}`;
  const user = await usersService.upsertUserFromIdentity(t.runtime.ctx.database.db, {
    issuer: 'https://issuer.test',
    subject: `subject-${unique}`,
    email: overrides.email ?? `user-${unique}@example.com`,
    emailVerified: overrides.emailVerified ?? true,
    username: `user${unique}`,
    firstName: overrides.firstName ?? 'Ada',
    lastName: 'Lovelace',
  });
  const tokens = await openSession(
    {
      db: t.runtime.ctx.database.db,
      accessTokens: t.runtime.ctx.accessTokens,
      refreshTtlDays: t.config.tokens.refreshTtlDays,
    },
    user.id,
  );
  return { user, tokens, auth: { authorization: `Bearer ${tokens.access_token}` } };
}

export async function buildOrganization(t: TestApp, memberUserId: string, name = 'Acme') {
  return organizationsService.createOrganization(t.runtime.ctx.database.db, memberUserId, { name, description: '' });
}

/**
 * An organization that passed KYB, with a member and one credential schema of its own: the starting
 * point of every issuing test.
 */
/** Claims of the platform's Work Certificate schema (slug `work-certificate`), every attribute given. */
export const WORK_CERTIFICATE_CLAIMS = {
  first_name: 'Grace',
  last_name: 'Hopper',
  date_of_birth: '1906-12-09',
  job_title: 'Rear admiral',
  location: 'Arlington',
  employment_type: 'Full time',
  start_date: '1943-12-01',
  end_date: '1986-08-14',
  description: 'Naval Reserve',
};

export async function buildVerifiedOrganization(t: TestApp, name: string, schemaInput: CreateCredentialSchemaRequest) {
  const member = await buildUser(t);
  const organization = await buildOrganization(t, member.user.id, name);
  await t.runtime.ctx.database.db
    .update(schema.organizations)
    .set({ verificationStatus: 'APPROVED', verifiedAt: new Date() })
    .where(eq(schema.organizations.id, organization.id));
  const schemaRecord = await credentialSchemasService.createCredentialSchema(
    t.runtime.ctx.database.db,
    { organizationId: organization.id, userId: member.user.id, actor: { kind: 'user', userId: member.user.id } },
    schemaInput,
  );
  return { organization, schemaRecord, member, headers: { ...member.auth, currentidentity: organization.id } };
}
