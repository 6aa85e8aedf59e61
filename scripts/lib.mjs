// Shared by `npm start` and `npm test`: install what is missing and build the web apps when stale.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    process.stderr.write(`\n✖ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
}

/** `npm ci` on a fresh clone, `npm install` when package-lock.json changed since the last install. */
export function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (!existsSync(marker)) {
    process.stdout.write('Installing dependencies (npm ci)…\n');
    run('npm', ['ci', '--no-audit', '--no-fund']);
  } else if (statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000) {
    process.stdout.write('package-lock.json changed: installing (npm install)…\n');
    run('npm', ['install', '--no-audit', '--no-fund']);
  }
}

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  const stat = statSync(dir);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(dir, entry)));
  }
  return newest;
}

/** Builds the console and the wallet when their dist is missing or older than their sources. */
export function ensureBuilt({ force = false } = {}) {
  const shared = Math.max(
    newestMtime(path.join(root, 'packages/ui/src')),
    newestMtime(path.join(root, 'packages/contracts/src')),
  );
  for (const app of ['apps/console', 'apps/wallet']) {
    const index = path.join(root, app, 'dist/index.html');
    const built = existsSync(index) ? statSync(index).mtimeMs : 0;
    const sources = Math.max(shared, newestMtime(path.join(root, app)));
    if (force || built < sources) {
      process.stdout.write(`Building ${app}…\n`);
      run('npm', ['run', 'build', '--workspace', app]);
    }
  }
}
