import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * A plugin that gives `importers` (a path pattern) a stub in place of the modules `sources` they import: code the
 * console never runs, left out of the build. The stub throws with `message` should it ever be called.
 */
function unusedModules(options: {
  name: string;
  importers: RegExp;
  sources: string[];
  message: string;
  namedExports?: string[];
}): Plugin {
  const stub = `\0${options.name}`;
  return {
    name: `cp:${options.name}`,
    enforce: 'pre',
    resolveId(source, importer) {
      return options.sources.includes(source) && importer && options.importers.test(importer) ? stub : null;
    },
    load(id) {
      if (id !== stub) return null;
      return [
        `const unused = () => { throw new Error(${JSON.stringify(`${options.message} (apps/console/vite.config.ts)`)}); };`,
        'export default unused;',
        ...(options.namedExports ?? []).map((name) => `export const ${name} = unused;`),
      ].join('\n');
    },
  };
}

/**
 * MUI's `createTheme` and `ThemeProvider` carry the CSS-variables theme engine (`createThemeWithVars`,
 * `CssVarsProvider`, ≈ 7 KB gzip) in every first screen, although `createAppTheme` (@cp/ui) makes a theme without
 * CSS variables or color schemes, for which both only take their "no vars" branch (issue 8). The build replaces the two
 * modules, as imported by those two files only, with stubs that fail loudly should a theme ever need them.
 */
const muiWithoutCssVariables = () =>
  unusedModules({
    name: 'mui-css-variables-unused',
    importers: /[\\/]@mui[\\/]material[\\/]styles[\\/](?:createTheme|ThemeProvider)\.mjs$/,
    sources: ['./createThemeWithVars.mjs', './ThemeProviderWithVars.mjs'],
    message: 'CSS-variables themes are left out of the console build',
    namedExports: ['CssVarsProvider'],
  });

/**
 * Every text field and select of the console is outlined (MUI's default variant; none asks for another). TextField and
 * Select still import the standard and filled inputs (Input, FilledInput, ≈ 2 KB gzip) for their other variants, and
 * they were on the credential list's first page with its filters (issue 16). The build replaces the two, as imported
 * by those two files only, with a stub that fails loudly should a field ever ask for the standard or filled variant
 * (src/lib/build-plugins.test.ts keeps the sources to the outlined variant).
 */
const muiOutlinedFieldsOnly = () =>
  unusedModules({
    name: 'mui-field-variants-unused',
    importers: /[\\/]@mui[\\/]material[\\/](?:TextField[\\/]TextField|Select[\\/]Select)\.mjs$/,
    sources: ['../Input/index.mjs', '../FilledInput/index.mjs'],
    message: 'Only outlined text fields and selects are in the console build',
  });

/**
 * MUI's Select renders its Menu (Popover, Modal, focus trap, Portal, Grow) only while open, yet imports it statically:
 * every page with a select field carried the menu's code at first paint (issue 16). The build gives SelectInput, and it
 * only, src/lib/lazy-select-menu.tsx instead, which renders the same Menu once its code is in: fetched on the first
 * open, or before (the credential list prefetches it once idle). The closed field is MUI's own, unchanged.
 */
function lazySelectMenu(): Plugin {
  const lazyMenu = fileURLToPath(new URL('./src/lib/lazy-select-menu.tsx', import.meta.url));
  const importer = /[\\/]@mui[\\/]material[\\/]Select[\\/]SelectInput\.mjs$/;
  return {
    name: 'cp:lazy-select-menu',
    enforce: 'pre',
    resolveId(source, from) {
      return source === '../Menu/Menu.mjs' && from && importer.test(from) ? lazyMenu : null;
    },
  };
}

/**
 * The signed-in user's first page (the app shell and the credential list, issue 16) in one chunk instead of some forty:
 * gzip compresses them together ≈ 10 KB smaller, and the browser makes one request instead of forty. The modules are
 * those the shell and the credential-list route import statically, less what /intro loads too (so a signed-out visitor
 * gets none of it), less the messages (one language at a time) and less the two route modules themselves (they stay
 * chunks of their own, which the router imports and scripts/bundle-size.mjs finds in the manifest). What index.html
 * loads goes to the `initial` group first (higher priority). Pages loaded later that share a module of it import this
 * chunk, which a signed-in user already has.
 */
const FIRST_PAGE_ROOTS = [
  /[\\/]src[\\/]app[\\/]shell[\\/]app-shell\.tsx$/,
  /[\\/]src[\\/]app[\\/]routes[\\/]credential-list-route\.tsx$/,
];
const INTRO_ROOTS = [
  /[\\/]src[\\/]features[\\/]auth[\\/]components[\\/]intro-page\.tsx$/,
  /[\\/]src[\\/]i18n[\\/]bundles[\\/]\w+\.ts$/,
];
// Barrels /intro imports one or two names from: what it uses from them is in the entry chunk (the `initial` group),
// and following all their exports would count most of MUI and @cp/ui as /intro's.
const BARRELS =
  /(?:[\\/]packages[\\/]ui[\\/]src[\\/]index\.ts|[\\/]@mui[\\/](?:system|utils|material(?:[\\/](?:utils|styles))?)[\\/]index\.mjs)$/;
const firstPageModules = new Set<string>();
function signedInFirstPage(): Plugin {
  return {
    name: 'cp:signed-in-first-page',
    apply: 'build',
    // Before chunking: the module graph is complete, and the codeSplitting group below reads the set.
    renderStart() {
      firstPageModules.clear();
      const ids = [...this.getModuleIds()];
      const closure = (roots: string[], stopAt?: RegExp) => {
        const seen = new Set<string>();
        const stack = [...roots];
        while (stack.length > 0) {
          const id = stack.pop() as string;
          if (seen.has(id)) continue;
          seen.add(id);
          if (stopAt?.test(id)) continue;
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const matching = (patterns: RegExp[]) => ids.filter((id) => patterns.some((pattern) => pattern.test(id)));
      const elsewhere = closure(matching(INTRO_ROOTS), BARRELS);
      const roots = matching(FIRST_PAGE_ROOTS);
      for (const id of closure(roots)) {
        if (!elsewhere.has(id) && !roots.includes(id) && !/[\\/]locales[\\/]\w+\.json$/.test(id))
          firstPageModules.add(id);
      }
      if (firstPageModules.size === 0) this.error('no module of the signed-in first page found (FIRST_PAGE_ROOTS)');
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins:
    command === 'build'
      ? [muiWithoutCssVariables(), muiOutlinedFieldsOnly(), lazySelectMenu(), signedInFirstPage(), react()]
      : [react()],
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
            // Everything index.html loads in one chunk instead of fourteen (≈ 7 KB gzip less for every first screen).
            { name: 'initial', tags: ['$initial'], priority: 2 },
            { name: 'workspace', test: (id) => firstPageModules.has(id), priority: 1 },
            {
              // The MUI components of the other signed-in pages (dialogs, the rest of the form fields) in one chunk
              // instead of some ten: gzip compresses them better together. /intro loads none of them; those of the
              // signed-in first page are in `workspace` (higher priority).
              name: 'mui-workspace',
              test: /[\\/]@mui[\\/]material[\\/](?:Modal|Popover|Menu|MenuList|MenuItem|Grow|Fade|Backdrop|Portal|Unstable_TrapFocus|Avatar|Badge|Divider|List|ListItem|ListItemButton|ListItemIcon|ListItemText|ListItemSecondaryAction|TextField|Select|NativeSelect|InputBase|Input|FilledInput|OutlinedInput|FormControl|FormLabel|InputLabel|FormHelperText|TextareaAutosize|InputAdornment|Table|TableBody|TableCell|TableHead|TableRow|TableSortLabel|Checkbox|Chip|Pagination|PaginationItem|usePagination|Skeleton|Dialog|DialogActions|DialogContent|DialogTitle|DialogContentText|AlertTitle|useMediaQuery)[\\/]/,
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
