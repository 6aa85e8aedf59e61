import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config/env.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createRuntime } from '../src/runtime.ts';
import { openTestDatabase } from './harness.ts';

/**
 * The bundled account center (oidc-provider, its views and keys) is loaded only by processes that serve it:
 * runtime.ts imports it with `await import('@cp/id')` when it is enabled. A worker, or an API signing in
 * with an external provider, must never load oidc-provider (nothing in their import graph may reach it).
 * The tests run in this order in one module registry: once oidc-provider is loaded it stays loaded.
 */
const loaded = vi.hoisted(() => ({ oidcProvider: 0 }));
vi.mock('oidc-provider', async (importOriginal) => {
  loaded.oidcProvider += 1;
  return importOriginal();
});

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let dataDir: string;
beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'cp-runtime-imports-'));
});
afterAll(async () => {
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function startAndStop(env: Record<string, string>) {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SMTP_CATCHER_PORT: '0',
    ID_PORT: '0',
    // One key for every start: the secrets the first start stores in the shared database must open later.
    MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    ...env,
  });
  const runtime = await createRuntime(config, createLogger({ level: 'silent' }), { database: database.handle });
  const hasAccountCenter = runtime.accountCenter !== undefined;
  await runtime.close();
  return hasAccountCenter;
}

/** Scaled-out processes need PostgreSQL (the configuration asks for it; the test passes its own database). */
const scaledOut = { DATABASE_URL: 'postgres://unused.invalid/cp' };

describe('loading the account center', () => {
  it('a worker process never loads oidc-provider, even with the account center enabled', async () => {
    expect(await startAndStop({ ...scaledOut, PROCESS_ROLE: 'worker', ACCOUNT_CENTER_ENABLED: 'true' })).toBe(false);
    expect(loaded.oidcProvider).toBe(0);
  });

  it('an API signing in with an external identity provider never loads oidc-provider', async () => {
    const external = { OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_SECRET: 'external-provider-client-secret' };
    expect(await startAndStop({ ...scaledOut, PROCESS_ROLE: 'api', ...external })).toBe(false);
    expect(await startAndStop(external)).toBe(false);
    expect(loaded.oidcProvider).toBe(0);
  });

  it('an API with the bundled account center loads it (the check above can fail)', async () => {
    expect(await startAndStop({})).toBe(true);
    expect(loaded.oidcProvider).toBe(1);
  });
});
