import fs from 'node:fs';
import path from 'node:path';
import { expandHome } from '../core/expand-home.js';

/** True for an existing regular file this process may execute. */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `name` looked up on a PATH string like the shell does; null when no executable file matches. */
export function searchPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/**
 * Resolves a configured executable: `~` expanded, a bare name (`claude`) looked up on PATH, a
 * path made absolute. Null when it does not name an executable file.
 */
export function resolveConfiguredExecutable(value: string, env: NodeJS.ProcessEnv, home: string): string | null {
  const expanded = expandHome(value.trim(), home);
  if (!expanded.includes('/') && !expanded.includes(path.sep)) return searchPath(expanded, env.PATH);
  return isExecutable(expanded) ? path.resolve(expanded) : null;
}
