import path from 'node:path';

/** True when `file` is strictly below `dir` (both absolute; no symlink resolution). */
export function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
