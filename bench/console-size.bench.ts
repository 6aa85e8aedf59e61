/**
 * Console size benchmark: JavaScript and CSS bytes (raw and gzip) of the first screen and of each lazy
 * chunk of the built console. Builds nothing: run `npm run build -w apps/console` first.
 *
 *   node_modules/.bin/tsx bench/console-size.bench.ts [--dist apps/console/dist] [--top 25]
 *
 * First screen = what index.html loads before any route code: the entry script, its modulepreload links
 * and its stylesheets (plus any chunk those import statically, in case a preload link is missing).
 * Every other chunk is loaded on demand (a lazy route or a dynamic import); each is listed with what it
 * imports statically beyond the first screen. gzip is level 6 (the usual server default); brotli too.
 * The largest contributors to the first screen are read from the chunks' source maps (the build writes
 * them): the minified bytes each package or source folder generated, and its share of the gzip bytes.
 * Last, each first screen as apps/console/scripts/bundle-size.mjs counts it (index.html + messages + the route's
 * chunks) against its target, /intro ≤ 160 KB and a signed-in user's first page (the credential list) ≤ 180 KB gzip,
 * and its budget (the ceiling reached so far, which `npm run build -w apps/console` enforces). Exits 1 when a screen
 * misses its target.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const root = path.resolve(import.meta.dirname, '..');
const dist = path.resolve(root, option('dist', 'apps/console/dist'));
const top = Number(option('top', '25'));
const TARGET_KB = 160;
const print = (line = '') => process.stdout.write(`${line}\n`);

if (!existsSync(path.join(dist, 'index.html'))) {
  process.stderr.write(`No build in ${dist}: run \`npm run build -w apps/console\` first.\n`);
  process.exit(1);
}

interface Asset {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}
const cache = new Map<string, Asset>();
function asset(file: string): Asset {
  const known = cache.get(file);
  if (known) return known;
  const bytes = readFileSync(path.join(dist, file));
  const entry = {
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 6 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
  cache.set(file, entry);
  return entry;
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// ---- first screen: index.html ----
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const local = (url: string) => url.replace(/^\//, '').split('?')[0]!;
const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const entryScripts = tags
  .filter((t) => t.startsWith('<script') && /type="module"/.test(t) && attr(t, 'src'))
  .map((t) => local(attr(t, 'src')!));
const preloads = tags.filter((t) => /rel="modulepreload"/.test(t)).map((t) => local(attr(t, 'href')!));
const styles = tags.filter((t) => /rel="stylesheet"/.test(t)).map((t) => local(attr(t, 'href')!));

/** Static imports of a chunk (`import … from "./x.js"` / `import "./x.js"`), as dist-relative paths. */
function staticImports(file: string): string[] {
  const code = readFileSync(path.join(dist, file), 'utf8');
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*${}\s,]+from\s*)?["'](\.\.?\/[^"']+\.js)["']/g)) {
    found.add(path.posix.join(path.posix.dirname(file), m[1]!));
  }
  return [...found];
}
function closure(files: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...files];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !file.endsWith('.js')) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}
const firstJs = closure([...entryScripts, ...preloads]);
const firstCss = new Set(styles);
const first = [...firstJs, ...firstCss].map(asset).sort((a, b) => b.gzip - a.gzip);
const sum = (list: Asset[], key: 'raw' | 'gzip' | 'brotli') => list.reduce((n, a) => n + a[key], 0);

print(`console build: ${path.relative(root, dist)}`);
print('');
print('First screen (index.html: entry, modulepreload, stylesheets):');
print('| file | raw | gzip | brotli |');
print('|---|---|---|---|');
for (const a of first) print(`| ${a.file} | ${kb(a.raw)} | ${kb(a.gzip)} | ${kb(a.brotli)} |`);
const js = first.filter((a) => a.file.endsWith('.js'));
const css = first.filter((a) => a.file.endsWith('.css'));
print(
  `| **JavaScript** (${js.length} files) | ${kb(sum(js, 'raw'))} | **${kb(sum(js, 'gzip'))}** | ${kb(sum(js, 'brotli'))} |`,
);
print(
  `| **CSS** (${css.length} files) | ${kb(sum(css, 'raw'))} | **${kb(sum(css, 'gzip'))}** | ${kb(sum(css, 'brotli'))} |`,
);
const firstGzip = sum(first, 'gzip');
print(`| **total** | ${kb(sum(first, 'raw'))} | **${kb(firstGzip)}** | ${kb(sum(first, 'brotli'))} |`);
print('');
print(
  `target first screen ≤ ${TARGET_KB} KB gzip: ${firstGzip <= TARGET_KB * 1024 ? 'met' : 'NOT met'} (${kb(firstGzip)})`,
);

// ---- lazy chunks ----
const assetsDir = path.join(dist, 'assets');
const allJs = readdirSync(assetsDir)
  .filter((f) => f.endsWith('.js'))
  .map((f) => `assets/${f}`);
const lazy = allJs.filter((f) => !firstJs.has(f));
print('');
print(`Loaded on demand (${lazy.length} chunks; "+ shared" = what it imports statically beyond the first screen):`);
print('| chunk | raw | gzip | + shared (gzip) |');
print('|---|---|---|---|');
const lazyRows = lazy
  .map((file) => {
    const own = asset(file);
    const shared = [...closure([file])].filter((f) => f !== file && !firstJs.has(f)).map(asset);
    return { own, shared: sum(shared, 'gzip') };
  })
  .sort((a, b) => b.own.gzip - a.own.gzip);
for (const row of lazyRows) {
  print(`| ${row.own.file} | ${kb(row.own.raw)} | ${kb(row.own.gzip)} | ${row.shared ? kb(row.shared) : '–'} |`);
}
print(
  `| **all on-demand chunks** | ${kb(
    sum(
      lazyRows.map((r) => r.own),
      'raw',
    ),
  )} | ${kb(
    sum(
      lazyRows.map((r) => r.own),
      'gzip',
    ),
  )} | |`,
);

// ---- what the first screen is made of (source maps) ----
const VLQ = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));
/** Minified bytes per source file of a chunk, from its source map's mappings. */
function bytesPerSource(file: string): Map<string, number> {
  const mapFile = path.join(dist, `${file}.map`);
  const out = new Map<string, number>();
  if (!existsSync(mapFile)) return out;
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string };
  const lines = readFileSync(path.join(dist, file), 'utf8').split('\n');
  let source = 0;
  let line = 0;
  for (const groupText of map.mappings.split(';')) {
    const segments: [number, number | undefined][] = [];
    let column = 0;
    for (const segment of groupText.split(',')) {
      if (!segment) continue;
      const values: number[] = [];
      let shift = 0;
      let value = 0;
      for (const c of segment) {
        const digit = VLQ.get(c)!;
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0]!;
      if (values.length >= 4) source += values[1]!;
      segments.push([column, values.length >= 4 ? source : undefined]);
      // values[2], values[3] (original line/column) are not needed here.
    }
    const length = lines[line]?.length ?? 0;
    for (let i = 0; i < segments.length; i++) {
      const [start, src] = segments[i]!;
      const end = segments[i + 1]?.[0] ?? length;
      if (src === undefined) continue;
      const name = map.sources[src]!;
      out.set(name, (out.get(name) ?? 0) + Math.max(0, end - start));
    }
    line++;
  }
  return out;
}
const group = (source: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) return pkg[1]!;
  const feature = /(apps\/console\/src|src)\/(features|app|pages|components|lib|i18n)\/([^/]+)/.exec(source);
  if (feature) return `console ${feature[2]}/${feature[3]}`;
  const workspace = /packages\/([^/]+)/.exec(source);
  if (workspace) return `@cp/${workspace[1]}`;
  return source.replace(/^(\.\.\/)+/, '');
};
const groups = new Map<string, { raw: number; gzip: number }>();
for (const file of firstJs) {
  const perSource = bytesPerSource(file);
  const mapped = [...perSource.values()].reduce((a, b) => a + b, 0);
  if (mapped === 0) continue;
  const { gzip } = asset(file);
  for (const [source, bytes] of perSource) {
    const g = groups.get(group(source)) ?? { raw: 0, gzip: 0 };
    g.raw += bytes;
    g.gzip += (gzip * bytes) / mapped;
    groups.set(group(source), g);
  }
}
if (groups.size > 0) {
  print('');
  print(
    `First-screen JavaScript by package / source folder (minified bytes from the source maps; gzip = its share of the chunk's gzip size), top ${top}:`,
  );
  print('| package or folder | minified | ≈ gzip |');
  print('|---|---|---|');
  for (const [name, g] of [...groups].sort((a, b) => b[1].raw - a[1].raw).slice(0, top)) {
    print(`| ${name} | ${kb(g.raw)} | ${kb(g.gzip)} |`);
  }
}

// ---- each first screen against its budget (apps/console/scripts/bundle-size.mjs) ----
interface Screen {
  name: string;
  language: string;
  targetKb: number;
  budgetKb: number;
  gzip: number;
  targetMet: boolean;
  withinBudget: boolean;
}
const sizeScript = spawnSync(
  process.execPath,
  [path.join(root, 'apps/console/scripts/bundle-size.mjs'), '--dist', dist, '--json'],
  { encoding: 'utf8' },
);
const screens = (JSON.parse(sizeScript.stdout) as { screens: Screen[] }).screens;
print('');
print('First screens as apps/console/scripts/bundle-size.mjs counts them (index.html + messages + the route):');
print('| screen | language | gzip | target | budget (the build fails above) |');
print('|---|---|---|---|---|');
for (const s of screens) {
  const target = `${s.targetKb} KB: ${s.targetMet ? 'met' : '**not met**'}`;
  const budget = `${s.budgetKb} KB: ${s.withinBudget ? 'ok' : '**OVER**'}`;
  print(`| ${s.name} | ${s.language} | ${kb(s.gzip)} | ${target} | ${budget} |`);
}
process.exitCode = screens.every((s) => s.targetMet) ? 0 : 1;
