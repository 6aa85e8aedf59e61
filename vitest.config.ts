import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' } },
    ],
    // Database test files each open their own database (PGlite in memory, or a fresh PostgreSQL
    // database); two at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
  },
});
