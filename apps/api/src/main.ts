import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withAdvisoryLock } from '@cp/db';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/env.ts';
import { createLogger } from './lib/logger.ts';
import { createRuntime, handleShutdownSignals } from './runtime.ts';
import { seedDemo } from './seed.ts';
import { startStaticSite } from './static-site.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

if (config.processRole === 'worker') {
  // PROCESS_ROLE=worker on the API entry point: run the background worker instead (same as `npm run worker`).
  await import('./worker.ts');
} else {
  await serve(config);
}

/** Roles `all` (`npm start`: everything in one process) and `api` (HTTP only; workers run the jobs). */
async function serve(config: ReturnType<typeof loadConfig>) {
  const embedded = config.processRole === 'all';
  const logger = createLogger({ level: config.logLevel, pretty: !config.isProduction && process.stdout.isTTY });
  mkdirSync(config.dataDir, { recursive: true });
  const adminToken = randomBytes(32).toString('base64url');
  const runtime = await createRuntime(config, logger, { adminToken });
  const { ctx, accountCenter } = runtime;

  const seeded = await withAdvisoryLock(ctx.database, 'demo-seed', () => seedDemo(ctx, config));
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  if (accountCenter) await accountCenter.listen(config.accountCenter.port, config.host);
  // In the `api` role the wallet (static files) is served by whatever hosts the static sites.
  const wallet = embedded
    ? await startStaticSite(config.wallet.dist, config.wallet.port, config.host, logger, {
        hsts: config.wallet.publicUrl.startsWith('https:'),
        // The wallet reads it at /config.json to fetch this platform's CA and trust anchors.
        platformUrl: config.publicUrl,
      })
    : null;

  // The admin CLI finds the running server here (the embedded database admits one process).
  const adminFile = path.join(config.dataDir, 'admin.json');
  if (embedded) {
    writeFileSync(adminFile, JSON.stringify({ port: config.port, token: adminToken, pid: process.pid }), {
      mode: 0o600,
    });
  }

  const lines = [
    '',
    embedded ? 'Credential platform is running' : 'Credential platform API process is running (PROCESS_ROLE=api)',
    `  Console and API   ${config.publicUrl}   (API docs ${config.publicUrl}/api/docs)`,
    accountCenter
      ? `  Account center    ${config.accountCenter.publicUrl}`
      : `  Identity provider ${config.oidc.issuer}`,
    wallet ? `  Wallet            ${config.wallet.publicUrl}` : '',
    ctx.mailbox ? `  Mailbox           ${config.publicUrl}/dev/mailbox` : `  Mail              SMTP (${'SMTP_URL'})`,
    `  Database          ${ctx.database.kind === 'pglite' ? `PGlite in ${config.database.pgliteDir}` : 'PostgreSQL'}`,
    embedded ? '' : '  Background jobs   run by `npm run worker` processes',
    seeded === 'disabled' ? '' : `  Demo sign-in      ${config.demo.email} / ${config.demo.password}`,
    '',
  ].filter((l, i, all) => l !== '' || i === 0 || i === all.length - 1);
  process.stdout.write(`${lines.join('\n')}\n`);

  handleShutdownSignals(logger, config.shutdownTimeoutMs, async () => {
    if (embedded) rmSync(adminFile, { force: true });
    // Stop accepting; requests in flight finish. Then jobs (graceful), mail, the database.
    await Promise.allSettled([app.close(), wallet?.close()]);
    await runtime.close();
  });
}
