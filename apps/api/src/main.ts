import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/env.ts';
import { createLogger } from './lib/logger.ts';
import { createRuntime } from './runtime.ts';
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

const logger = createLogger({ level: config.logLevel, pretty: !config.isProduction && process.stdout.isTTY });
mkdirSync(config.dataDir, { recursive: true });
const adminToken = randomBytes(32).toString('base64url');
const runtime = await createRuntime(config, logger, { adminToken });
const { ctx, accountCenter } = runtime;

const seeded = await seedDemo(ctx, config);
const app = await buildApp(ctx);
await app.listen({ port: config.port, host: config.host });
if (accountCenter) await accountCenter.listen(config.accountCenter.port, config.host);
const wallet = await startStaticSite(config.wallet.dist, config.wallet.port, config.host, logger);

// The admin CLI finds the running server here (the embedded database admits one process).
const adminFile = path.join(config.dataDir, 'admin.json');
writeFileSync(adminFile, JSON.stringify({ port: config.port, token: adminToken, pid: process.pid }), { mode: 0o600 });

const lines = [
  '',
  'Credential platform is running',
  `  Console and API   ${config.publicUrl}   (API docs ${config.publicUrl}/api/docs)`,
  accountCenter ? `  Account center    ${config.accountCenter.publicUrl}` : `  Identity provider ${config.oidc.issuer}`,
  `  Wallet            ${config.wallet.publicUrl}`,
  ctx.mailbox ? `  Mailbox           ${config.publicUrl}/dev/mailbox` : `  Mail              SMTP (${'SMTP_URL'})`,
  `  Database          ${ctx.database.kind === 'pglite' ? `PGlite in ${config.database.pgliteDir}` : 'PostgreSQL'}`,
  seeded === 'disabled' ? '' : `  Demo sign-in      ${config.demo.email} / ${config.demo.password}`,
  '',
].filter((l, i, all) => l !== '' || i === 0 || i === all.length - 1);
process.stdout.write(`${lines.join('\n')}\n`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  rmSync(adminFile, { force: true });
  await Promise.allSettled([app.close(), wallet.close()]);
  await runtime.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
