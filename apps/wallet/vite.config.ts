import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // The API serves the built wallet at the root of its own port (WALLET_PUBLIC_URL); client routes such as
  // /credentials/:id need absolute asset URLs.
  base: '/',
  server: { port: 5174, proxy: { '/api': 'http://localhost:3000' } },
  // asset-manifest.json lists every built file (lazy route chunks, the core, fonts): public/sw.js precaches them all
  // so the installed app works offline, even on screens not visited yet.
  build: { outDir: 'dist', emptyOutDir: true, manifest: 'asset-manifest.json' },
});
