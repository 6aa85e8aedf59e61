// `npm run worker`: a background worker process for a scaled-out deployment. It runs the job handlers
// (CSV imports, credential e-mails, webhooks, KYB mail, key backfill, maintenance) against the shared
// PostgreSQL database, and serves no HTTP besides an optional health listener (WORKER_HEALTH_PORT).
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { type Config, ConfigError, loadWorkerConfig } from './config/env.ts';
import { problemBody } from './errors/app-error.ts';
import { createLogger } from './lib/logger.ts';
import { checkReadiness } from './modules/health/health.routes.ts';
import { createRuntime, handleShutdownSignals } from './runtime.ts';

// Like `npm start`: a .env file next to package.json supplies variables the environment does not set.
const envFile = path.resolve(import.meta.dirname, '../../../.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

let config: Config;
try {
  config = loadWorkerConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

const logger = createLogger({ level: config.logLevel, pretty: !config.isProduction && process.stdout.isTTY });
mkdirSync(config.dataDir, { recursive: true });
const runtime = await createRuntime(config, logger);

let draining = false;
const health = config.workerHealthPort === undefined ? undefined : createServer();
if (health) {
  // GET /health: the process is up; GET /health/ready: database reachable and migrated (503 otherwise).
  health.on('request', (request, response) => {
    const send = (status: number, body: unknown, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    const pathname = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET')
      return send(405, problemBody('REQUEST_METHOD_NOT_ALLOWED'), 'application/problem+json');
    if (pathname === '/health') return send(200, { status: 'ok', role: 'worker' });
    if (pathname === '/health/ready') {
      if (draining) {
        return send(503, problemBody('SHUTTING_DOWN', 'The worker is stopping.'), 'application/problem+json');
      }
      void checkReadiness(runtime.ctx).then((readiness) =>
        readiness.ready
          ? send(200, { status: 'ready', database: readiness.database, role: 'worker' })
          : send(503, problemBody(readiness.code, readiness.detail), 'application/problem+json'),
      );
      return;
    }
    return send(404, problemBody('NOT_FOUND'), 'application/problem+json');
  });
  await new Promise<void>((resolve) => health.listen(config.workerHealthPort, config.host, resolve));
}

process.stdout.write(
  `Credential platform worker is running (PROCESS_ROLE=worker, PostgreSQL${
    health ? `, health on port ${config.workerHealthPort}` : ''
  })\n`,
);

handleShutdownSignals(logger, config.shutdownTimeoutMs, async () => {
  // Running jobs finish (or are released for another worker after SHUTDOWN_TIMEOUT_SECONDS); then mail and
  // the database close.
  draining = true;
  await runtime.close();
  await new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve()));
});
