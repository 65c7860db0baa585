import path from 'node:path';

/** Shows a path under the user's home as `~/…` (how the design prints `~/.cc-linker/registry.json`). */
export function tildify(file: string, home: string): string {
  if (!home) return file;
  if (file === home) return '~';
  const rel = path.relative(home, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? `~/${rel}` : file;
}
