import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrateDatabase, openDatabase, SecretBox } from '@cp/db';
import { type Config, ConfigError, loadConfig } from '../config/env.ts';
import { AppError } from '../errors/app-error.ts';
import { JobQueue } from '../jobs/job-queue.ts';
import { createLogger } from '../lib/logger.ts';
import { loadOrCreateMasterKey } from '../lib/master-key.ts';
import { type AdminArgs, adminCommands } from './commands/index.ts';

const usage = `Usage: npm run admin -- <command>

${Object.values(adminCommands)
  .map((c) => `  ${c.usage}`)
  .join('\n')}

Works whether or not the product is running: while the server holds the embedded database the
command goes through its loopback admin endpoint; otherwise it opens the database itself.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function runningServer(config: Config): { port: number; token: string } | undefined {
  const file = path.join(config.dataDir, 'admin.json');
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as { port: number; token: string; pid: number };
    process.kill(info.pid, 0);
    return info;
  } catch {
    return undefined;
  }
}

async function runViaServer(server: { port: number; token: string }, command: string, args: AdminArgs) {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/admin/run`, {
    method: 'POST',
    headers: { 'x-admin-token': server.token, 'content-type': 'application/json' },
    body: JSON.stringify({ command, args }),
  });
  const payload = (await response.json()) as { output?: string; detail?: string; code?: string };
  if (!response.ok) fail(`Error: ${payload.detail ?? payload.code ?? response.status}`);
  return payload.output ?? '';
}

async function runDirectly(config: Config, command: string, args: AdminArgs) {
  const database = await openDatabase({ databaseUrl: config.database.url, pgliteDir: config.database.pgliteDir });
  const jobs = new JobQueue(database.executor, createLogger({ level: 'silent' }));
  try {
    await migrateDatabase(database);
    await jobs.start();
    const secretBox = new SecretBox(loadOrCreateMasterKey(config.masterKey, config.dataDir));
    return await adminCommands[command]!.run({ db: database.db, config, secretBox, jobs }, args);
  } finally {
    await jobs.stop();
    await database.close();
  }
}

async function main() {
  const words = process.argv.slice(2);
  const command = `${words[0] ?? ''} ${words[1] ?? ''}`.trim();
  const definition = adminCommands[command];
  if (!definition) fail(usage);
  let args: AdminArgs;
  try {
    args = parseArgs({ args: words.slice(2), options: definition.options, strict: true }).values;
  } catch (err) {
    fail(`${(err as Error).message}\n\n${usage}`);
  }
  const missing = (definition.required ?? []).filter((name) => args[name] === undefined || args[name] === '');
  if (missing.length > 0) fail(`Missing ${missing.map((m) => `--${m}`).join(', ')}\n\n  ${definition.usage}`);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : String(err));
  }
  // PGlite admits one process: while the server holds it, go through the server. PostgreSQL admits many.
  const server = config.database.url ? undefined : runningServer(config);
  const output = server ? await runViaServer(server, command, args) : await runDirectly(config, command, args);
  if (output) process.stdout.write(`${output}\n`);
}

main().catch((err: unknown) => {
  if (err instanceof AppError) fail(`Error: ${err.detail ?? err.code}`);
  fail(`Error: ${err instanceof Error ? err.message : String(err)}`);
});
