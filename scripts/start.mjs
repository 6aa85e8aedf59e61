// `npm start`: install what is missing, build the web apps, then run the whole product (API and
// console, account center, wallet, development mailbox) on embedded defaults in one process.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, ensureRuntime, root } from './lib.mjs';

ensureInstalled();
await ensureRuntime();
// A .env file next to package.json, when present, supplies variables the environment does not set.
if (existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));
ensureBuilt();
const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/api/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, '--disable-warning=ExperimentalWarning'].filter(Boolean).join(' '),
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
