import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'holder', environment: 'node', include: ['src/**/*.test.ts'] },
});
