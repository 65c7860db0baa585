import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One UI file held in memory, with its gzip form and validator. */
export interface UiAsset {
  body: Buffer;
  gzip: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/** The console's UI folder, beside `http/`: `src/channels/web/ui` under tsx, `dist/channels/web/ui` once built. */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../ui/', import.meta.url));

/**
 * Loads every file of the UI folder into memory at start (a few dozen KB), keyed by its path
 * relative to the folder (`app.js`, `index.html`). Served only to authorised requests; nothing is
 * read from disk per request, so no request path can reach the file system.
 */
export async function loadUiAssets(dir: string = DEFAULT_UI_DIR): Promise<Map<string, UiAsset>> {
  const assets = new Map<string, UiAsset>();
  const walk = async (sub: string): Promise<void> => {
    for (const d of await fs.readdir(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${d.name}` : d.name;
      if (d.isDirectory()) await walk(rel);
      else if (d.isFile() && TYPES[path.extname(d.name)] && !d.name.endsWith('.test.js')) {
        const body = await fs.readFile(path.join(dir, rel));
        assets.set(rel, {
          body,
          gzip: gzipSync(body, { level: 9 }),
          type: TYPES[path.extname(d.name)] as string,
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
        });
      }
    }
  };
  await walk('');
  return assets;
}

/** Bytes a first load transfers (index.html plus every script and stylesheet), raw and gzipped. */
export function firstLoadSize(assets: Map<string, UiAsset>): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const [name, a] of assets) {
    if (!/\.(html|js|css)$/.test(name)) continue;
    raw += a.body.length;
    gzip += a.gzip.length;
  }
  return { raw, gzip };
}
