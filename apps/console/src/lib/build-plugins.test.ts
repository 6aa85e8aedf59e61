import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The production build (vite.config.ts, muiOutlinedFieldsOnly) leaves MUI's standard and filled inputs out:
 * a TextField or Select asking for either variant would throw in the built console only, never in these tests
 * or the dev server, which use the real modules. This check keeps the sources to the outlined variant.
 */
const sourceRoots = ['apps/console/src', 'packages/ui/src'].map((root) =>
  path.resolve(import.meta.dirname, '../../../..', root),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('the console build', () => {
  it('has no field asking for the standard or filled variant (they are not in the production build)', () => {
    const offending = sourceRoots
      .flatMap(sourceFiles)
      .filter((file) => /variant\s*[=:]\s*\{?\s*["'](?:standard|filled)["']/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(process.cwd(), file));
    // A Chip or Alert (not a text field or select) may use those names: then narrow this check, not the build.
    expect(offending).toEqual([]);
  });
});
