#!/usr/bin/env node
/**
 * First-screen size of the built console: each first screen within its budget of gzip JavaScript and CSS
 * (issue 8: /intro ≤ 160 KB; issue 16: a signed-in user's first page, the credential list, ≤ 180 KB).
 *
 *   npm run build -w apps/console && node apps/console/scripts/bundle-size.mjs [--dist <dir>] [--json] [--targets] [--quiet]
 *
 * Counted for each first screen, every file once:
 * - what index.html loads: module scripts, modulepreload links and stylesheets;
 * - the messages of the language shown (fetched before the first render): the shared ones for every screen, and the
 *   signed-in pages' (`<lang>-workspace`, fetched with the app shell) for the signed-in one;
 * - the lazy code of the first route and of its lazy layout: the signed-out visitor lands on /intro, the
 *   signed-in one on /credentials/{orgId} (inside the app shell). The router fetches these before the first paint.
 * Each chunk brings the chunks it imports statically and its CSS (read from the Vite manifest, dist/.vite).
 * Sizes are gzip level 6, what `gzip -c file | wc -c` gives (and the usual server setting). Each screen is counted in
 * English and in the language with the largest messages.
 *
 * Each screen has a target (the issue's) and a budget, the ceiling the console has reached so far (the target once
 * met; lowered as the console shrinks, never raised to let a change through). Over its budget is a regression: the
 * script exits 1, and so does `npm test`, which runs it after the build (the build itself only builds). `--targets` exits 1 when a screen is
 * over its target instead (bench/console-size.bench.ts). `--json` prints the same figures as JSON; `--quiet` nothing
 * but the screens over.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
// --quiet (npm test): say nothing unless a screen is over.
const print = args.includes('--quiet') ? () => {} : (line = '') => process.stdout.write(`${line}\n`);
const distArg = args.includes('--dist') ? args[args.indexOf('--dist') + 1] : undefined;
const p = 'apps/console/scripts/bundle-size.mjs';
const dist = path.resolve(distArg ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'));
const manifestFile = path.join(dist, '.vite', 'manifest.json');
if (!existsSync(path.join(dist, 'index.html')) || !existsSync(manifestFile)) {
  process.stderr.write(`No build with a manifest in ${dist}: run \`npm run build -w apps/console\` first.\n`);
  process.exit(1);
}

/** Source module of each first-screen part (keys of the Vite manifest). */
const LANGUAGES = ['en', 'ja', 'es', 'ko'];
const localeModule = (language) => `src/i18n/bundles/${language}.ts`;
const workspaceLocaleModule = (language) => `src/i18n/bundles/${language}-workspace.ts`;
const SCREENS = [
  {
    name: 'signed out: /intro',
    targetKb: 160,
    budgetKb: 160,
    modules: ['src/features/auth/components/intro-page.tsx'],
    locales: [localeModule],
  },
  {
    name: 'signed in: /credentials/{orgId}',
    targetKb: 180,
    // 230.6 (en) / 232.3 KB (ja) after issue 16's first cuts, 207.1 / 208.8 KB once index.html's chunks and the
    // signed-in first page's were each merged into one and the phone's top bar left the desktop's first page,
    // 178.5 / 179.7 KB once the menus, the messages and the MUI components the page does not show at first paint
    // left it (bench/RESULTS.md): the target is met.
    budgetKb: 180,
    modules: ['src/app/shell/app-shell.tsx', 'src/app/routes/credential-list-route.tsx'],
    locales: [localeModule, workspaceLocaleModule],
  },
];

/** @type {Record<string, {file: string, imports?: string[], css?: string[], isEntry?: boolean}>} */
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));

const sizes = new Map();
function size(file) {
  let known = sizes.get(file);
  if (!known) {
    const bytes = readFileSync(path.join(dist, file));
    known = { raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
    sizes.set(file, known);
  }
  return known;
}

/** The files of a manifest entry: its chunk, its CSS, and the same for everything it imports statically. */
function filesOf(key, into = new Set()) {
  const entry = manifest[key];
  if (!entry) return into; // The module is not a chunk of its own (bundled into its importer): nothing more to fetch.
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const css of entry.css ?? []) into.add(css);
  for (const imported of entry.imports ?? []) filesOf(imported, into);
  return into;
}

// index.html: <script type="module" src>, <link rel="modulepreload" href>, <link rel="stylesheet" href>.
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const htmlFiles = new Set();
for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
  const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
  if (!url || !/\.(?:js|css)(?:\?|$)/.test(url) || /^(?:[a-z]+:)?\/\//.test(url)) continue;
  const loaded = /<script\b/.test(tag) || /rel="(?:modulepreload|stylesheet)"/.test(tag);
  if (loaded) htmlFiles.add(url.replace(/^\//, '').split('?')[0]);
}
// A static import the html forgot to preload is still fetched before anything runs.
for (const [key, entry] of Object.entries(manifest)) if (htmlFiles.has(entry.file)) filesOf(key, htmlFiles);

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const total = (files) => [...files].reduce((sum, file) => sum + size(file).gzip, 0);
/** What a language's messages (all of them: shared, public and signed-in pages') add to what index.html loads. */
const localeFiles = (language, locales = [localeModule, workspaceLocaleModule]) =>
  [...new Set(locales.flatMap((locale) => [...filesOf(locale(language))]))].filter((file) => !htmlFiles.has(file));

function screen(name, targetKb, budgetKb, modules, locales, language) {
  const files = new Set(htmlFiles);
  for (const module of [...locales.map((locale) => locale(language)), ...modules]) {
    if (!manifest[module]) throw new Error(`${module} is not in the build's manifest: update SCREENS in ${p}`);
    filesOf(module, files);
  }
  const gzip = total(files);
  return {
    name,
    targetKb,
    budgetKb,
    language,
    files,
    gzip,
    targetMet: gzip <= targetKb * 1024,
    withinBudget: gzip <= budgetKb * 1024,
  };
}

const heaviest = LANGUAGES.reduce((a, b) => (total(localeFiles(b)) > total(localeFiles(a)) ? b : a));
const screens = SCREENS.flatMap(({ name, targetKb, budgetKb, modules, locales }) =>
  [...new Set(['en', heaviest])].map((language) => screen(name, targetKb, budgetKb, modules, locales, language)),
);
const checkTargets = args.includes('--targets');
const failing = screens.filter((s) => (checkTargets ? !s.targetMet : !s.withinBudget));
const allOk = failing.length === 0;

if (args.includes('--json')) {
  const out = {
    html: { files: [...htmlFiles], gzip: total(htmlFiles) },
    screens: screens.map((s) => ({ ...s, files: [...s.files].map((file) => ({ file, ...size(file) })) })),
  };
  print(JSON.stringify(out, null, 2));
  process.exit(allOk ? 0 : 1);
}

print(`Console first screen (${dist})\n`);
print('index.html loads:');
for (const file of [...htmlFiles].sort((a, b) => size(b).gzip - size(a).gzip)) {
  print(`  ${kb(size(file).gzip).padStart(9)}  ${file}`);
}
print(`  ${kb(total(htmlFiles)).padStart(9)}  total\n`);

print("messages (one language per first screen: shared + signed-in pages'):");
for (const language of LANGUAGES) {
  const base = total(localeFiles(language, [localeModule]));
  const workspace = total(localeFiles(language, [workspaceLocaleModule]));
  print(`  ${kb(base + workspace).padStart(9)}  ${language} (${kb(base)} + ${kb(workspace)})`);
}
print();

for (const s of screens) {
  const extra = [...s.files].filter((file) => !htmlFiles.has(file));
  print(`${s.name} (${s.language}):`);
  for (const file of extra.sort((a, b) => size(b).gzip - size(a).gzip)) {
    print(`  ${kb(size(file).gzip).padStart(9)}  ${file}`);
  }
  const target = `target ${s.targetKb} KB: ${s.targetMet ? 'met' : 'not met'}`;
  const budget = `budget ${s.budgetKb} KB: ${s.withinBudget ? 'ok' : 'OVER'}`;
  print(`  ${kb(s.gzip).padStart(9)}  first-screen total (${target}; ${budget})\n`);
}
for (const s of failing) {
  const limit = checkTargets ? `target of ${s.targetKb} KB` : `budget of ${s.budgetKb} KB (a regression)`;
  process.stderr.write(`${s.name} (${s.language}): ${kb(s.gzip)} gzip, over its ${limit}\n`);
}
process.exitCode = allOk ? 0 : 1;
