import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SERVICE_WORKER, SERVICE_WORKER_HEADERS, stampServiceWorker } from './service-worker.js';

/** One UI file held in memory, with its gzip form and validator. */
export interface UiAsset {
  body: Buffer;
  gzip: Buffer;
  type: string;
  etag: string;
  /** Headers of this file alone (the service worker's `Service-Worker-Allowed`). */
  headers?: Record<string, string>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
};

/** The console's UI folder, beside `http/`: `src/channels/web/ui` under tsx, `dist/channels/web/ui` once built. */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../ui/', import.meta.url));

/**
 * Loads every file of the UI folder into memory at start (a few dozen KB), keyed by its path
 * relative to the folder (`app.js`, `index.html`, `icons/icon-192.png`). Served only to authorised
 * requests; nothing is read from disk per request, so no request path can reach the file system.
 * The service worker gets the shell's list and build id written in (`stampServiceWorker`).
 */
export async function loadUiAssets(dir: string = DEFAULT_UI_DIR): Promise<Map<string, UiAsset>> {
  const assets = new Map<string, UiAsset>();
  const walk = async (sub: string): Promise<void> => {
    for (const d of await fs.readdir(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${d.name}` : d.name;
      if (d.isDirectory()) await walk(rel);
      else if (d.isFile() && TYPES[path.extname(d.name)] && !d.name.endsWith('.test.js')) {
        assets.set(rel, uiAsset(await fs.readFile(path.join(dir, rel)), TYPES[path.extname(d.name)] as string));
      }
    }
  };
  await walk('');
  const sw = assets.get(SERVICE_WORKER);
  if (sw) {
    const files = [...assets].map(([name, a]) => ({ name, etag: a.etag }));
    const text = stampServiceWorker(sw.body.toString('utf8'), files);
    assets.set(SERVICE_WORKER, uiAsset(Buffer.from(text), sw.type, SERVICE_WORKER_HEADERS));
  }
  return assets;
}

/** One file's in-memory form: its bytes, their gzip, and an ETag from their hash. */
export function uiAsset(body: Buffer, type: string, headers?: Record<string, string>): UiAsset {
  return {
    body,
    gzip: gzipSync(body, { level: 9 }),
    type,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    ...(headers ? { headers } : {}),
  };
}

/**
 * Bytes a first load transfers before the page shows, raw and gzipped: index.html, the scripts and
 * stylesheets it links, and every module those scripts import statically (`from './x.js'`,
 * `import './x.js'`), followed transitively. A module imported on first use (`import('./x.js')`)
 * and the service worker (fetched after the page runs) are left out.
 */
export function firstLoadSize(assets: Map<string, UiAsset>): { raw: number; gzip: number } {
  const html = assets.get('index.html');
  if (!html) return { raw: 0, gzip: 0 };
  const seen = new Set<string>(['index.html']);
  const todo = [...html.body.toString('utf8').matchAll(/(?:src|href)="\/assets\/([\w./-]+\.(?:js|css))"/g)].map(
    (m) => m[1] as string,
  );
  for (let name = todo.pop(); name !== undefined; name = todo.pop()) {
    const a = assets.get(name);
    if (seen.has(name) || !a || name === SERVICE_WORKER) continue;
    seen.add(name);
    if (name.endsWith('.js'))
      for (const m of a.body.toString('utf8').matchAll(/(?:from|^import)\s+'\.\/([\w-]+\.js)'/gm))
        todo.push(m[1] as string);
  }
  let raw = 0;
  let gzip = 0;
  for (const name of seen) {
    const a = assets.get(name) as UiAsset;
    raw += a.body.length;
    gzip += a.gzip.length;
  }
  return { raw, gzip };
}
