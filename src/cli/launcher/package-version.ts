import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in cc-linker's own `package.json`: the nearest one above this module whose name is
 * `cc-linker` (the module sits at another depth in `src/` and in `dist/`). `0.0.0` when none is found.
 */
export function readPackageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'cc-linker') return pkg.version ?? '0.0.0';
    } catch {
      // no package.json here (or not readable): look one level up
    }
    const up = path.dirname(dir);
    if (up === dir) return '0.0.0';
    dir = up;
  }
}
