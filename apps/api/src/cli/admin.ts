import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrateDatabase, openDatabase } from '@cp/db';
import { type Config, ConfigError, loadConfig } from '../config/env.ts';
import { AppError } from '../errors/app-error.ts';
import * as adminService from '../modules/admin/admin.service.ts';

const usage = `Usage: npm run admin -- <command>

  user create --email <e-mail> --password <password> --first-name <name> --last-name <name> [--username <name>]
  org create  --name <name> --member <e-mail> [--description <text>] [--verified]
  org list    (one organization a line: id, then name)

Works whether or not the product is running: while the server holds the embedded database the
command goes through its loopback admin endpoint; otherwise it opens the database itself.`;

type Outcome =
  | { kind: 'user'; value: unknown }
  | { kind: 'org'; value: { id: string; name: string } }
  | {
      kind: 'orgs';
      value: { id: string; name: string }[];
    };

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

async function viaServer(server: { port: number; token: string }, method: string, url: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/admin${url}`, {
    method,
    headers: { 'x-admin-token': server.token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const payload = (await response.json()) as Record<string, unknown>;
  if (!response.ok) fail(`Error: ${String(payload.detail ?? payload.code ?? response.status)}`);
  return payload;
}

async function main() {
  const [group, action, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      member: { type: 'string' },
      verified: { type: 'boolean' },
    },
    strict: true,
  });
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : String(err));
  }
  const command = `${group ?? ''} ${action ?? ''}`.trim();
  if (!['user create', 'org create', 'org list'].includes(command)) fail(usage);
  if (
    command === 'user create' &&
    (!values.email || !values.password || !values['first-name'] || !values['last-name'])
  ) {
    fail(usage);
  }
  if (command === 'org create' && (!values.name || !values.member)) fail(usage);

  const server = config.database.url ? undefined : runningServer(config);
  let outcome: Outcome;
  if (server) {
    if (command === 'user create') {
      outcome = {
        kind: 'user',
        value: await viaServer(server, 'POST', '/users', {
          email: values.email,
          password: values.password,
          username: values.username,
          first_name: values['first-name'],
          last_name: values['last-name'],
        }),
      };
    } else if (command === 'org create') {
      outcome = {
        kind: 'org',
        value: (await viaServer(server, 'POST', '/organizations', {
          name: values.name,
          description: values.description,
          member_email: values.member,
          verified: values.verified ?? false,
        })) as { id: string; name: string },
      };
    } else {
      outcome = {
        kind: 'orgs',
        value: (await viaServer(server, 'GET', '/organizations')).results as { id: string; name: string }[],
      };
    }
  } else {
    const database = await openDatabase({ databaseUrl: config.database.url, pgliteDir: config.database.pgliteDir });
    try {
      await migrateDatabase(database);
      const deps: adminService.AdminDeps = {
        db: database.db,
        accountCenterIssuer: config.accountCenter.enabled ? config.accountCenter.publicUrl : undefined,
      };
      if (command === 'user create') {
        outcome = {
          kind: 'user',
          value: await adminService.createUser(deps, {
            email: values.email!,
            password: values.password!,
            username: values.username,
            firstName: values['first-name'],
            lastName: values['last-name'],
          }),
        };
      } else if (command === 'org create') {
        const row = await adminService.createOrganization(deps, {
          name: values.name!,
          description: values.description,
          memberEmail: values.member!,
          verified: values.verified ?? false,
        });
        outcome = { kind: 'org', value: { id: row.id, name: row.name } };
      } else {
        outcome = { kind: 'orgs', value: await adminService.listOrganizations(deps) };
      }
    } finally {
      await database.close();
    }
  }
  if (outcome.kind === 'orgs') {
    for (const org of outcome.value) process.stdout.write(`${org.id} ${org.name}\n`);
  } else if (outcome.kind === 'org') {
    process.stdout.write(`${outcome.value.id} ${outcome.value.name}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(outcome.value)}\n`);
  }
}

main().catch((err: unknown) => {
  if (err instanceof AppError) fail(`Error: ${err.detail ?? err.code}`);
  const message = err instanceof Error ? err.message : String(err);
  fail(`Error: ${message}`);
});
