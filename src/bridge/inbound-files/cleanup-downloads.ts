import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Removes `file` when older than `cutoff` (its own mtime, symlinks not followed); true if removed. */
async function removeIfOld(file: string, cutoff: number): Promise<boolean> {
  try {
    const stat = await fs.lstat(file);
    if (stat.mtimeMs >= cutoff) return false;
    await fs.unlink(file);
    return true;
  } catch {
    return false; // vanished meanwhile: nothing to clean
  }
}

/**
 * The hourly age-based cleanup of what users sent (`images.cleanup_max_age_hours`,
 * `files.cleanup_max_age_hours`): deletes the files of `dir` older than `maxAgeHours` (by mtime),
 * and one level down those of each message folder, removing a folder once it is empty and old
 * itself (a folder a download is filling right now is new). Symlinks are removed, never followed;
 * deeper folders are left alone. Returns how many files were removed.
 */
export async function cleanupDownloads(dir: string, maxAgeHours: number, now: number = Date.now()): Promise<number> {
  const cutoff = now - maxAgeHours * 3600 * 1000;
  let removed = 0;
  for (const entry of await entries(dir)) {
    const full = path.join(dir, entry.name);
    if (!entry.isDirectory()) {
      if (await removeIfOld(full, cutoff)) removed += 1;
      continue;
    }
    // Judged before its files go: removing them makes the folder's own mtime new.
    const folderOld = await fs.lstat(full).then(
      (st) => st.mtimeMs < cutoff,
      () => false,
    );
    for (const inner of await entries(full)) {
      if (!inner.isDirectory() && (await removeIfOld(path.join(full, inner.name), cutoff))) removed += 1;
    }
    try {
      if (folderOld) await fs.rmdir(full);
    } catch {
      // not empty, or vanished: kept for a later round
    }
  }
  return removed;
}
