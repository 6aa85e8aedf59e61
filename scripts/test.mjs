// `npm test`: install what is missing, then lint, type-check, build, and run every test: unit and
// API/account-center integration tests (PGlite, and PostgreSQL too when TEST_DATABASE_URL is set),
// console tests, and the end-to-end journeys in Chromium.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { ensureBuilt, ensureInstalled, ensureRuntime, root, run } from './lib.mjs';

ensureInstalled();
await ensureRuntime();
process.stdout.write(`Running every test on Node.js ${process.versions.node}\n`);

const chromium = '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const isRoot = process.getuid?.() === 0;
  if (isRoot && spawnSync('which', ['apt-get']).status === 0) {
    process.stdout.write('Installing Debian chromium and fonts-noto-cjk for the browser tests…\n');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    process.stderr.write('The browser tests need Chromium: sudo apt-get install -y chromium fonts-noto-cjk\n');
    process.exit(1);
  }
}

const bin = (name) => `${root}/node_modules/.bin/${name}`;
const step = (title) => process.stdout.write(`\n▶ ${title}\n`);

step('Lint and format (Biome)');
run(bin('biome'), ['check', '.']);

step('Type-check');
const projects = ['packages', 'apps']
  .flatMap((dir) => readdirSync(`${root}/${dir}`).map((name) => `${dir}/${name}`))
  .concat('e2e', 'bench')
  .filter((project) => existsSync(`${root}/${project}/tsconfig.json`));
for (const project of projects) run(bin('tsc'), ['-p', project, '--noEmit']);

step('Build the web apps');
ensureBuilt();

step('First-screen size budgets (console and wallet)');
run(process.execPath, ['apps/console/scripts/bundle-size.mjs', '--quiet']);
run(process.execPath, ['apps/wallet/scripts/bundle-size.mjs', '--quiet']);

const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;
step('Unit and integration tests (database: PGlite)');
run(bin('vitest'), ['run'], { env: withoutPostgres });

if (TEST_DATABASE_URL) {
  step('Database integration tests again on PostgreSQL (TEST_DATABASE_URL)');
  run(bin('vitest'), ['run', '--project', 'api', '--project', 'id'], { env: process.env });
}

step('End-to-end journeys in Chromium');
run(bin('vitest'), ['run', '--config', 'e2e/vitest.config.ts'], { env: withoutPostgres });

process.stdout.write('\n✔ All tests passed\n');
