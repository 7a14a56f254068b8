// Offline support: network first (so a new deploy is picked up at once), falling back to the last
// copy cached here when the network is gone. Only the site's own files are cached (pages, scripts,
// styles, the wasm core, the sample trace), never traces fetched through ?url= from this origin.
const CACHE = 'tracewise-v4';
const CORE = ['./', 'index.html', 'app.js', 'app.css', 'worker.js', 'feed.js', 'part.js', 'tracewise.mjs', 'tracewise.wasm', 'favicon.svg'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(CORE)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});
const scope = new URL('./', self.location.href).pathname;
const isSiteFile = (url) => url.pathname.startsWith(scope) &&
  (/\/$|\.(html|js|mjs|css|wasm|svg|map)$/.test(url.pathname) || url.pathname.startsWith(`${scope}samples/`));

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== self.location.origin || !isSiteFile(url)) return;
  e.respondWith(fetch(e.request).then((res) => {
    if (res.ok && !url.search) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(e.request, copy));
    }
    return res;
  }).catch(() => caches.match(e.request, { ignoreSearch: true }).then((r) => r || Response.error())));
});
