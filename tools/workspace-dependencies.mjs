// Checks that every workspace declares what its files import, and imports what it declares (issue "boundaries
// that the tools keep"). Run: `node tools/workspace-dependencies.mjs` (exits 1 and lists the problems);
// tools/workspace-dependencies.test.mjs runs it with the tests.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Declared but never imported by name, on purpose: each is loaded another way.
 * Keys are `<workspace>:<package>`.
 */
export const usedWithoutImport = {
  'apps/api:pino-pretty': 'pino loads it by name as a transport in development (src/lib/logger.ts)',
};

/** Files that run only under the root's tooling (tests, configs) may use the root's devDependencies. */
const TOOLING_FILE =
  /(^|\/)(test|e2e)\/|\.test\.[cm]?[jt]sx?$|(^|\/)(vite|vitest|drizzle)\.config\.ts$|(^|\/)test-[\w-]+\.tsx?$/;
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|js)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', 'migrations', 'public']);
const BUILTINS = new Set(builtinModules);

function filesOf(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name) || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesOf(full));
    else if (SOURCE_FILE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

// import/export declarations, dynamic imports, vi.mock, require.resolve, and vitest's test environment.
const IMPORT =
  /(?:^|[^\w.])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]|(?:^|[^\w.])import\(\s*['"]([^'"]+)['"]\s*\)|vi\.mock\(\s*['"]([^'"]+)['"]|(?:require|\))\.resolve\(\s*['"]([^'"]+)['"]|environment:\s*['"](jsdom)['"]/g;

/** The package an import specifier names (`@scope/name/sub` → `@scope/name`), or null for files and built-ins. */
export function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('virtual:')) return null;
  if (specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0])) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every package a file imports (import/export declarations, dynamic imports, vi.mock). */
export function importsOf(text) {
  const names = new Set();
  for (const match of text.matchAll(IMPORT)) {
    const name = packageOf(match.slice(1).find((group) => group !== undefined));
    if (name && PACKAGE_NAME.test(name)) names.add(name);
  }
  return names;
}

/** Packages named in a tsconfig's `types` (ambient imports such as `vite/client`). */
function tsconfigTypes(dir) {
  const file = path.join(dir, 'tsconfig.json');
  if (!existsSync(file)) return [];
  const types = JSON.parse(readFileSync(file, 'utf8')).compilerOptions?.types ?? [];
  return types.map(packageOf).filter((name) => name && name !== 'node');
}

/** The peer dependencies of an installed package (as the workspace resolves it). */
function peersOf(name, dir) {
  for (const base of [path.join(root, dir), root]) {
    const file = path.join(base, 'node_modules', name, 'package.json');
    if (existsSync(file)) return Object.keys(JSON.parse(readFileSync(file, 'utf8')).peerDependencies ?? {});
  }
  return [];
}

export function workspaces() {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return pkg.workspaces.flatMap((pattern) => {
    const parent = pattern.replace(/\/\*$/, '');
    return readdirSync(path.join(root, parent))
      .map((name) => `${parent}/${name}`)
      .filter((dir) => existsSync(path.join(root, dir, 'package.json')));
  });
}

/** Problems of one workspace: imports it does not declare, declarations it does not use. */
export function checkWorkspace(dir, rootDevDependencies) {
  const pkg = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
  const declared = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  const used = new Set(tsconfigTypes(path.join(root, dir)));
  const problems = [];
  for (const file of filesOf(path.join(root, dir))) {
    const relative = path.relative(path.join(root, dir), file).split(path.sep).join('/');
    for (const name of importsOf(readFileSync(file, 'utf8'))) {
      used.add(name);
      if (name === pkg.name || declared.has(name)) continue;
      if (TOOLING_FILE.test(relative) && rootDevDependencies.has(name)) continue;
      problems.push(`${dir}: ${relative} imports ${name}, which ${dir}/package.json does not declare`);
    }
  }
  // A package that another declared package needs as its peer is used through it (MUI's emotion and react-dom).
  for (const name of declared) for (const peer of peersOf(name, dir)) used.add(peer);
  for (const name of declared) {
    if (used.has(name) || used.has(name.replace(/^@types\//, '').replace(/^(.+)__(.+)$/, '@$1/$2'))) continue;
    if (`${dir}:${name}` in usedWithoutImport) continue;
    problems.push(`${dir}: declares ${name}, which none of its files imports`);
  }
  return problems;
}

export function checkAll() {
  const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const rootDevDependencies = new Set(Object.keys(rootPkg.devDependencies ?? {}));
  return workspaces().flatMap((dir) => checkWorkspace(dir, rootDevDependencies));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkAll();
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) process.exit(1);
  process.stdout.write('Every workspace declares what it imports and imports what it declares.\n');
}
