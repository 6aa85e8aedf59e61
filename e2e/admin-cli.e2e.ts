import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, runAdmin, startProduct } from './support/product.ts';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.stop();
});

describe('admin CLI', () => {
  it('works through the running server, then directly on the data directory once it stops', async () => {
    const health = await fetch(`${product.consoleUrl}/api/health`).then((r) => r.json());
    expect(health).toEqual({ status: 'ok', database: 'pglite' });

    const user = runAdmin(product, [
      'user',
      'create',
      '--email',
      'grace@example.com',
      '--password',
      'Navy-Cobol1!',
      '--first-name',
      'Grace',
      '--last-name',
      'Hopper',
    ]);
    expect(user.stderr).toBe('');
    expect(user.status).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({ email: 'grace@example.com' });

    const weak = runAdmin(product, [
      'user',
      'create',
      '--email',
      'weak@example.com',
      '--password',
      'short',
      '--first-name',
      'W',
      '--last-name',
      'K',
    ]);
    expect(weak.status).toBe(1);
    expect(weak.stderr).toMatch(/password/i);

    const created = runAdmin(product, ['org', 'create', '--name', 'Navy Labs', '--member', 'grace@example.com']);
    expect(created.status).toBe(0);
    const [orgId] = created.stdout.trim().split(' ');

    const listed = runAdmin(product, ['org', 'list']);
    expect(listed.status).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toContain(`${orgId} Navy Labs`);
    expect(lines.some((l) => / Demo Organization$/.test(l))).toBe(true);
    for (const line of lines) expect(line).toMatch(/^[0-9a-f-]{36} .+$/);

    // The server stopped: the CLI opens the embedded database itself and sees the same data.
    await product.stop({ keepData: true });
    const offline = runAdmin(product, ['org', 'list']);
    expect(offline.stderr).toBe('');
    expect(offline.stdout).toContain(`${orgId} Navy Labs`);
    rmSync(product.dataDir, { recursive: true, force: true });
  });

  it('prints its usage for an unknown command', () => {
    const result = runAdmin(product, ['frobnicate']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('org list');
  });
});
