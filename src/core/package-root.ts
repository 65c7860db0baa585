import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's own `package.json`: its name, and its version when it has one. */
export interface OwnPackage {
  root: string;
  version?: string;
}

/**
 * cc-linker's installed folder: the nearest one above this module whose `package.json` is named
 * `cc-linker` (this module sits at another depth in `src/` and in `dist/`), or undefined.
 */
export function ownPackage(): OwnPackage | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'cc-linker') return { root: dir, ...(pkg.version ? { version: pkg.version } : {}) };
    } catch {
      // no package.json here (or not readable): look one level up
    }
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** A file shipped with the package (`docs/…`), as an absolute path; the relative one when the package is not found. */
export function packageFile(relative: string): string {
  const own = ownPackage();
  return own ? path.join(own.root, relative) : relative;
}
