import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // A browser poll asks the page (a locator's textContent waits for its element): since vitest 5 the poll's
    // timeout also bounds a call still running, so it gets the time a page takes, not the 1 s default.
    expect: { poll: { timeout: 30_000, interval: 100 } },
    // Journeys each start the whole product; one at a time on a 2-core machine.
    fileParallelism: false,
  },
});
