import path from 'node:path';

/**
 * Shows a path under the home directory as `~/…` (shorter, and it hides the user name); any other
 * path is returned unchanged. Only a whole segment counts: `/home/me2` is not under `/home/me`.
 *
 * @example
 *   tildify('/home/me/.cc-linker/registry.json', '/home/me') // '~/.cc-linker/registry.json'
 */
export function tildify(p: string, home: string): string {
  if (!home) return p;
  const h = path.resolve(home);
  if (p === h) return '~';
  if (h !== path.sep && p.startsWith(h + path.sep)) return `~${p.slice(h.length)}`;
  return p;
}
