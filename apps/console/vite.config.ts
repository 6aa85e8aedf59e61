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
      // The verifier's protocol endpoints the holder page calls for the Digital Credentials API.
      '/oid4vp': 'http://localhost:3000',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The manifest lets scripts/bundle-size.mjs follow each lazy route's chunks (issue 8: first-screen budget).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Only the modules a group names: otherwise each group drags its dependencies (React, emotion) in with it.
          includeDependenciesRecursively: false,
          groups: [
            {
              // The MUI components of the signed-in pages (menus, drawers, dialogs, form fields, tables) in one chunk
              // instead of some twenty small ones, which gzip compresses better together (≈ 6 KB less for a signed-in
              // user's first page, issue 16); /intro loads none of them.
              name: 'mui-workspace',
              test: /[\\/]@mui[\\/]material[\\/](?:Modal|Popover|Menu|MenuList|MenuItem|Grow|Fade|Slide|Backdrop|Portal|Unstable_TrapFocus|Drawer|AppBar|Toolbar|Avatar|Badge|Divider|List|ListItem|ListItemButton|ListItemIcon|ListItemText|ListItemSecondaryAction|TextField|Select|NativeSelect|InputBase|Input|FilledInput|OutlinedInput|FormControl|FormLabel|InputLabel|FormHelperText|TextareaAutosize|InputAdornment|Table|TableBody|TableCell|TableHead|TableRow|TableSortLabel|Checkbox|Chip|Pagination|PaginationItem|usePagination|Skeleton|Dialog|DialogActions|DialogContent|DialogTitle|DialogContentText|AlertTitle|useMediaQuery)[\\/]/,
            },
          ],
        },
      },
      treeshake: {
        // @cp/ui declares no `sideEffects`: without this its barrel puts AccountDisplay (Avatar, Badge) in the entry
        // chunk although only the lazy shell uses it. Only fonts.ts (the CSS imports) has side effects, and index.ts,
        // which imports it: marked side-effect free, the barrel was skipped and Inter's @font-face CSS left the build.
        // @cp/contracts has none either: `ProblemCode` (error-codes.ts, no imports) through its barrel otherwise brings every
        // zod schema of the API, and zod with them (≈ 33 KB gzip), into the entry chunk (issue 16).
        moduleSideEffects: [
          { test: /\/packages\/ui\/src\/(?!(?:fonts|index)\.ts$)[^/]+$/, sideEffects: false },
          { test: /\/packages\/contracts\/src\/[^/]+\.ts$/, sideEffects: false },
        ],
      },
    },
  },
}));
