import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'credentials', environment: 'node', include: ['src/**/*.test.ts'] },
});
