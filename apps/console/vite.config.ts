import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const reactRouterDir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));

export default defineConfig(({ command }) => ({
  plugins: [react()],
  resolve: {
    // react-router's package exports only its development build (dev warnings on); the build uses the production one.
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: path.join(reactRouterDir, 'dist/production/index.mjs'),
            },
          ]
        : [],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/dev': 'http://localhost:3000',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The manifest lets scripts/bundle-size.mjs follow each lazy route's chunks (issue 8: first-screen budget).
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // @cp/ui declares no `sideEffects`: without this its barrel puts AccountDisplay (Avatar, Badge) in the entry
        // chunk although only the lazy shell uses it. Only fonts.ts (the CSS imports) has side effects.
        moduleSideEffects: [{ test: /\/packages\/ui\/src\/(?!fonts\.ts$)[^/]+$/, sideEffects: false }],
      },
    },
  },
}));
