import { describe, expect, it } from 'vitest';
import { checkAll, importsOf, packageOf } from './workspace-dependencies.mjs';

describe('workspace dependencies', () => {
  it('names the package of an import, not files or built-ins', () => {
    expect(packageOf('@cp/id/accounts')).toBe('@cp/id');
    expect(packageOf('drizzle-orm/pg-core')).toBe('drizzle-orm');
    expect(packageOf('node:fs')).toBeNull();
    expect(packageOf('path')).toBeNull();
    expect(packageOf('./local.ts')).toBeNull();
  });

  it('finds static, type-only, re-exported, dynamic and mocked imports', () => {
    const text = [
      "import { a } from 'alpha';",
      "import type { B } from '@scope/beta/sub';",
      "export { c } from 'gamma';",
      "const d = await import('delta');",
      "vi.mock('epsilon', () => ({}));",
      "// a comment mentioning import('…') is no import",
    ].join('\n');
    expect([...importsOf(text)].sort()).toEqual(['@scope/beta', 'alpha', 'delta', 'epsilon', 'gamma']);
  });

  it('every workspace declares what it imports and imports what it declares', () => {
    expect(checkAll()).toEqual([]);
  });
});
