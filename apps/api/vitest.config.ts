import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file opens its own database (PGlite in memory, or a fresh PostgreSQL database); two at a
    // time keeps a 2-core machine responsive.
    maxWorkers: 2,
  },
});
