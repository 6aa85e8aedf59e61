// `npm run admin -- <command>`: the admin CLI (see apps/api/src/cli/admin.ts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureInstalled, ensureRuntime, root } from './lib.mjs';

ensureInstalled();
await ensureRuntime();
const result = spawnSync(
  path.join(root, 'node_modules/.bin/tsx'),
  ['apps/api/src/cli/admin.ts', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
