import fs from 'node:fs';
import path from 'node:path';
import type { ScanWarning } from '../scan-warning.js';

/**
 * The entries of `dir`, or null when it does not exist (nothing there: no warning) or cannot be
 * read (an `unreadable_dir` warning, and `dir` pushed to `unlisted`).
 */
export function readDirQuietly(dir: string, warnings: ScanWarning[], unlisted: string[]): fs.Dirent[] | null {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      warnings.push({ code: 'unreadable_dir', file: dir, detail: code ?? 'EIO' });
      unlisted.push(dir);
    }
    return null;
  }
}

/** Directories (or links to them) among `entries`, as paths under `dir`, sorted. */
export function subdirs(dir: string, entries: fs.Dirent[]): string[] {
  return entries
    .filter((d) => d.isDirectory() || d.isSymbolicLink())
    .map((d) => path.join(dir, d.name))
    .sort();
}

/** Files (or links) among `entries` whose name passes `keep`, as paths under `dir`, sorted. */
export function filesIn(dir: string, entries: fs.Dirent[], keep: (name: string) => boolean): string[] {
  return entries
    .filter((d) => !d.isDirectory() && keep(d.name))
    .map((d) => path.join(dir, d.name))
    .sort();
}
