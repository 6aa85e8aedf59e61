import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onFreePorts } from '../../apps/api/test/support/ports.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface Product {
  env: Record<string, string>;
  consoleUrl: string;
  idUrl: string;
  walletUrl: string;
  dataDir: string;
  output: () => string;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts the whole product exactly as `npm start` does, on free ports and an empty data directory. A port checked
 * free can be taken before the product binds it (see ports.ts): then it starts again on new ports.
 */
export function startProduct(env: Record<string, string> = {}): Promise<Product> {
  return onFreePorts(4, (ports) => startProductOn(ports, env));
}

async function startProductOn(
  [port, idPort, walletPort, smtpPort]: number[],
  env: Record<string, string>,
): Promise<Product> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cp-e2e-'));
  const consoleUrl = `http://localhost:${port}`;
  const idUrl = `http://localhost:${idPort}`;
  const walletUrl = `http://localhost:${walletPort}`;
  let output = '';
  const productEnv: Record<string, string> = {
    TEST_DATABASE_URL: '',
    DATABASE_URL: '',
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: consoleUrl,
    ID_PORT: String(idPort),
    ID_PUBLIC_URL: idUrl,
    WALLET_PORT: String(walletPort),
    WALLET_PUBLIC_URL: walletUrl,
    SMTP_CATCHER_PORT: String(smtpPort),
    ...env,
  };
  const child: ChildProcess = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/api/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...productEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (output.includes('Credential platform is running')) break;
    if (child.exitCode !== null) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`The product exited during start:\n${output}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The product did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    env: productEnv,
    consoleUrl,
    idUrl,
    walletUrl,
    dataDir,
    output: () => output,
    async stop({ keepData = false } = {}) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `npm run admin -- …` against the product's data directory. */
export function runAdmin(product: Product, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: root,
    env: { ...process.env, ...product.env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
