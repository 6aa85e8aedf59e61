import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * MUI's `createTheme` and `ThemeProvider` carry the CSS-variables theme engine (`createThemeWithVars`,
 * `CssVarsProvider`, ≈ 7 KB gzip) in every first screen, although `createAppTheme` (@cp/ui) makes a theme without
 * CSS variables or color schemes, for which both only take their "no vars" branch (issue 8). The build replaces the two
 * modules, as imported by those two files only, with stubs that fail loudly should a theme ever need them.
 */
function muiWithoutCssVariables(): Plugin {
  const stub = '\0mui-css-variables-unused';
  const importers = /[\\/]@mui[\\/]material[\\/]styles[\\/](?:createTheme|ThemeProvider)\.mjs$/;
  return {
    name: 'cp:mui-without-css-variables',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        (source === './createThemeWithVars.mjs' || source === './ThemeProviderWithVars.mjs') &&
        importer &&
        importers.test(importer)
      ) {
        return stub;
      }
      return null;
    },
    load(id) {
      if (id !== stub) return null;
      return [
        'const unused = () => {',
        "  throw new Error('CSS-variables themes are left out of the console build (apps/console/vite.config.ts)');",
        '};',
        'export default unused;',
        'export const CssVarsProvider = unused;',
      ].join('\n');
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: command === 'build' ? [muiWithoutCssVariables(), react()] : [react()],
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
        // chunk although only the lazy shell uses it. Only fonts.ts (the CSS imports) has side effects, and index.ts,
        // which imports it: marked side-effect free, the barrel was skipped and Inter's @font-face CSS left the build.
        moduleSideEffects: [{ test: /\/packages\/ui\/src\/(?!(?:fonts|index)\.ts$)[^/]+$/, sideEffects: false }],
      },
    },
  },
}));
