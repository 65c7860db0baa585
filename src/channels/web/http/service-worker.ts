import { createHash } from 'node:crypto';

/** The service worker among the UI files; served at `/assets/sw.js`, its scope is the whole console. */
export const SERVICE_WORKER = 'sw.js';

/** The worker's own header: a script under `/assets/` may control every page of the console. */
export const SERVICE_WORKER_HEADERS: Record<string, string> = { 'Service-Worker-Allowed': '/' };

const BUILD_LINE = /^const BUILD = '[^']*';$/m;
const SHELL_LINE = /^const SHELL = \[[^\]]*\];$/m;

/**
 * The worker's source with what it caches and under which name written in: `BUILD`, a hash of
 * every other UI file (name and ETag), and `SHELL`, their URLs (`/` for the page). Any changed file
 * thus changes the worker's bytes, so the browser installs the new worker, which caches the new
 * shell under a new name and deletes the old caches.
 */
export function stampServiceWorker(source: string, files: ReadonlyArray<{ name: string; etag: string }>): string {
  const sorted = [...files].filter((f) => f.name !== SERVICE_WORKER).sort((a, b) => a.name.localeCompare(b.name));
  const hash = createHash('sha256');
  for (const f of sorted) hash.update(`${f.name}\0${f.etag}\0`);
  const build = hash.digest('base64url').slice(0, 16);
  const shell = ['/', ...sorted.filter((f) => f.name !== 'index.html').map((f) => `/assets/${f.name}`)];
  return source
    .replace(BUILD_LINE, `const BUILD = '${build}';`)
    .replace(SHELL_LINE, `const SHELL = ${JSON.stringify(shell)};`);
}
