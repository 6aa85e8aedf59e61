import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const lib = pathToFileURL(path.resolve(import.meta.dirname, 'lib.mjs')).href;
const systemNode = '/usr/bin/node';
const systemMajor = existsSync(systemNode)
  ? Number(spawnSync(systemNode, ['-p', 'process.versions.node']).stdout.toString().split('.')[0])
  : undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A script that, like `npm start` and `npm test`, calls ensureRuntime() first. */
function script(body: string) {
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `import { ensureRuntime } from '${lib}';\nawait ensureRuntime();\n${body}\n`);
  return file;
}

describe('Node.js 24 runtime', () => {
  it('runs the tests on Node.js 24 or later', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it.skipIf(systemMajor === undefined || systemMajor >= 24)(
    "runs a script started on the system's older Node.js again on the registry's Node.js 24, first on PATH, with its exit code",
    () => {
      const file = script(
        `const { execSync } = await import('node:child_process');
         console.log(JSON.stringify({ self: process.versions.node, child: execSync('node -p process.versions.node').toString().trim(), argv: process.argv.slice(2) }));
         process.exit(7);`,
      );
      const result = spawnSync(systemNode, [file, '--flag', 'value'], {
        env: { ...process.env, PATH: `/usr/bin${path.delimiter}${process.env.PATH}` },
      });
      expect(result.status).toBe(7);
      const line = result.stdout.toString().trim().split('\n').at(-1)!;
      const report = JSON.parse(line) as { self: string; child: string; argv: string[] };
      expect(Number(report.self.split('.')[0])).toBe(24);
      // Tools it starts by name (tsx, vitest, npm) find the same Node.js.
      expect(report.child).toBe(report.self);
      expect(report.argv).toEqual(['--flag', 'value']);
    },
    60_000,
  );

  it('returns at once on Node.js 24', () => {
    const file = script(`console.log(process.versions.node);`);
    const result = spawnSync(process.execPath, [file]);
    expect(result.status).toBe(0);
    expect(result.stdout.toString().trim()).toBe(process.versions.node);
  }, 60_000);
});
