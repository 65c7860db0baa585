// The console's service worker: it keeps the shell — the page, its scripts, styles, manifest and
// icons — and nothing else. The API, the login and the logout never pass through it: those
// requests go to the network untouched, so no answer with data is ever cached. The page itself is
// fetched from the network first (a missing or ended login gets the server's login page, never a
// cached shell) and comes from the cache only when the network fails; the other shell files come
// from the cache at once and are refreshed in the background. Served at /assets/sw.js with
// `Service-Worker-Allowed: /`; the server writes BUILD and SHELL in (http/service-worker.ts), so a
// new build installs a new worker, which deletes the caches of the old ones.
const BUILD = 'dev';
const SHELL = ['/'];
const PREFIX = 'cc-linker-shell-';
const CACHE = `${PREFIX}${BUILD}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(SHELL.map((url) => new Request(url, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    })(),
  );
});

/** Requests the worker never answers: anything but a GET of this origin, the API, login, logout, a `?token=` link. */
function passThrough(request, url) {
  return (
    request.method !== 'GET' ||
    url.origin !== self.location.origin ||
    url.pathname.startsWith('/api/') ||
    url.pathname === '/login' ||
    url.pathname === '/logout' ||
    url.searchParams.has('token')
  );
}

/** A complete same-origin answer worth keeping (never a 401 login page, never a redirect). */
function keepable(response) {
  return response.ok && response.type === 'basic' && !response.redirected;
}

/** The page: from the network (its 401 login page included); the cached shell only when offline. */
async function page(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (url.pathname === '/' && !url.search && keepable(response)) await cache.put('/', response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match('/');
    if (cached) return cached;
    throw err;
  }
}

/** A shell file: from the cache at once, refreshed in the background; from the network when missing. */
async function shellFile(event) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(event.request, { ignoreVary: true });
  const update = fetch(event.request).then(async (response) => {
    if (keepable(response)) await cache.put(event.request, response.clone());
    return response;
  });
  if (!cached) return update;
  event.waitUntil(update.catch(() => undefined));
  return cached;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (passThrough(event.request, url)) return;
  if (event.request.mode === 'navigate') return event.respondWith(page(event.request, url));
  if (SHELL.includes(url.pathname) && !url.search) event.respondWith(shellFile(event));
});
