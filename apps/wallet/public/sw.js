// The wallet's offline shell (hand-written, no build step). Registered by src/main.tsx in production builds only.
// - install: caches index.html, the assets it references and every file of asset-manifest.json (Vite's build
//   manifest: lazy route chunks, the core), so screens not visited yet work offline too;
// - navigation: network first, so a new deployment is picked up at once; offline → the cached index.html;
// - same-origin static files: cache first, cached on first fetch (lazy route chunks, fonts, icons);
// - /config.json (where the wallet's platform is): network first, so a change is seen at once; offline → cached;
// - never cached: other origins (issuers, verifiers, the API) and anything but GET.
const CACHE = 'wallet-shell-v1';
const SHELL = ['/', '/index.html', '/manifest.webmanifest', '/favicon.svg', '/icon-maskable.svg'];
const STATIC = /\.(?:js|css|svg|png|webp|woff2?|ttf|json|webmanifest)$/;

async function precache() {
  const cache = await caches.open(CACHE);
  await cache.addAll(SHELL);
  const index = await cache.match('/index.html');
  if (!index) return;
  const html = await index.clone().text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
  await cache.addAll([...new Set(assets)]);
  try {
    const response = await fetch('/asset-manifest.json', { cache: 'no-cache' });
    if (!response.ok) return;
    const files = new Set();
    for (const chunk of Object.values(await response.json())) {
      for (const file of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) {
        // Fonts come in many subsets: only the ones a page uses are cached, on first use.
        if (typeof file === 'string' && !/\.(?:woff2?|ttf)$/.test(file)) files.add(`/${file}`);
      }
    }
    await cache.addAll([...files]);
  } catch {
    // Without the manifest the remaining files are cached on first use.
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

async function networkFirstNavigation(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.headers.get('content-type')?.includes('text/html')) {
      await cache.put('/index.html', response.clone());
    }
    return response;
  } catch {
    return (await cache.match('/index.html', { ignoreVary: true })) ?? Response.error();
  }
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch {
    return (await cache.match(request, { ignoreVary: true })) ?? Response.error();
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  // ignoreVary: servers may answer `Vary: Origin`, and module scripts are requested with an Origin header.
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/sw.js') return;
  if (request.mode === 'navigate') {
    event.respondWith(networkFirstNavigation(request));
    return;
  }
  if (url.pathname === '/config.json') {
    event.respondWith(networkFirst(request));
    return;
  }
  if (STATIC.test(url.pathname)) event.respondWith(cacheFirst(request));
});
