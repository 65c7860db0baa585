import path from 'node:path';

/**
 * True when `p` is `root` or lies below it, comparing whole path segments: `/a/b` is inside `/a`,
 * `/ab` is not, and a folder named `..foo` is an ordinary child. Both paths must be absolute;
 * nothing is resolved here, so callers that guard access resolve symlinks first (`fs.realpath`).
 *
 * @example
 *   isInside('/home/me/Git/app', '/home/me/Git') // true
 *   isInside('/home/me/..foo', '/home/me') // true
 *   isInside('/home/me/../you', '/home/me') // false
 */
export function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`);
}
