// Shared by `npm start` and `npm test`: install what is missing and build the web apps when stale.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The product runs on Node.js 24 LTS (package.json `engines`, `.nvmrc`). */
export const NODE_MAJOR = 24;

/**
 * The Node.js 24 binary that `npm ci` installed from the npm registry (the `node-<platform>-<arch>` package in
 * package.json's optionalDependencies; npm installs only the one for this machine), or undefined.
 */
function bundledNode() {
  const executable = process.platform === 'win32' ? 'node.exe' : 'node';
  const candidate = path.join(root, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', executable);
  return existsSync(candidate) ? candidate : undefined;
}

/**
 * Runs on Node.js 24: returns at once when this process already does; otherwise runs this same script again on
 * the Node.js 24 that `npm ci` installed, with that Node first on PATH (so every tool it starts runs on it too),
 * relays signals, exits with its exit code and never resolves.
 */
export function ensureRuntime() {
  if (Number(process.versions.node.split('.')[0]) >= NODE_MAJOR) return Promise.resolve();
  const node = bundledNode();
  if (!node) {
    process.stderr.write(
      `\n✖ This product runs on Node.js ${NODE_MAJOR}; this is Node.js ${process.versions.node} and the npm registry has ` +
        `no Node.js ${NODE_MAJOR} package for ${process.platform}-${process.arch}. Install Node.js ${NODE_MAJOR} ` +
        `(e.g. nvm install ${NODE_MAJOR}) and run the command again.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`Node.js ${process.versions.node} is older than ${NODE_MAJOR}: running on ${node}\n`);
  const PATH = [path.dirname(node), path.join(root, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter);
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, PATH },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return new Promise(() => {});
}

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
