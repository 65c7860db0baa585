import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { ensurePrivateDir } from './private-dir.js';
import { parseJsonText, readJsonFile } from './read-json-file.js';
import { StoreError } from './store-error.js';

/** A backup that parsed and validated: which file, its generation (1 = newest) and its value. */
export interface ValidBackup<T> {
  file: string;
  generation: number;
  value: T;
}

/**
 * Keeps the last `keep` versions of `file` as `backupDir/<basename>.1` (newest) … `.<keep>`.
 * Call it before replacing `file`, while holding the writer's lock: the current file is copied to
 * `.1` (atomically, 0600, dir 0700) after shifting `.1→.2 …` and dropping the oldest. A missing
 * `file` is not an error (nothing to keep). With `opts.validate`, a current file that does not
 * parse or validate is not rotated in, so a broken file cannot push the good backups out. With
 * `opts.minIntervalMs`, nothing rotates while the newest backup is younger than that: a file
 * rewritten every few seconds keeps backups that reach back `keep × minIntervalMs`, not seconds.
 *
 * Why: the registry is rebuilt from many sources; if a bug or a crash ever leaves it unusable,
 * `latestValidBackup` gives the last good one back.
 */
export async function rotateBackups(
  file: string,
  backupDir: string,
  keep = 5,
  opts: { validate?: (v: unknown) => boolean; minIntervalMs?: number; now?: () => number } = {},
): Promise<void> {
  if (!Number.isInteger(keep) || keep < 1)
    throw new RangeError(`rotateBackups: keep must be a positive integer, got ${keep}`);
  let current: Buffer;
  try {
    current = await fs.promises.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw StoreError.io('read', file, err);
  }
  if (opts.validate && !isValid(file, current, opts.validate)) return;
  await ensurePrivateDir(backupDir);
  const name = (n: number) => path.join(backupDir, `${path.basename(file)}.${n}`);
  if (opts.minIntervalMs) {
    const newest = await fs.promises.stat(name(1)).catch(() => null);
    if (newest && (opts.now ?? Date.now)() - newest.mtimeMs < opts.minIntervalMs) return;
  }
  for (const extra of await generations(file, backupDir)) {
    if (extra.generation >= keep) await fs.promises.rm(extra.file, { force: true });
  }
  for (let n = keep - 1; n >= 1; n -= 1) {
    try {
      await fs.promises.rename(name(n), name(n + 1));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw StoreError.io('write', name(n + 1), err);
    }
  }
  await writeFileAtomic(name(1), current);
}

/**
 * The newest backup of `file` in `backupDir` that parses as JSON and passes `validate`, or null.
 * Unparsable or invalid generations are skipped (that is the point: recovering from a half-written
 * or otherwise broken registry).
 *
 * @example
 *   const b = await latestValidBackup<Registry>(paths.registryFile, paths.registryBackupDir, isRegistry);
 *   if (b) await writeFileAtomic(paths.registryFile, JSON.stringify(b.value));
 */
export async function latestValidBackup<T = unknown>(
  file: string,
  backupDir: string,
  validate: (v: unknown) => boolean,
): Promise<ValidBackup<T> | null> {
  for (const g of await generations(file, backupDir)) {
    try {
      const r = await readJsonFile(g.file);
      if (r.exists && validate(r.value)) return { file: g.file, generation: g.generation, value: r.value as T };
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
    }
  }
  return null;
}

/** Existing `<basename>.<n>` files in `backupDir`, newest (lowest n) first. */
async function generations(file: string, backupDir: string): Promise<{ file: string; generation: number }[]> {
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = await fs.promises.readdir(backupDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw StoreError.io('read', backupDir, err);
  }
  return names
    .filter((n) => n.startsWith(prefix) && /^[1-9]\d*$/.test(n.slice(prefix.length)))
    .map((n) => ({ file: path.join(backupDir, n), generation: Number(n.slice(prefix.length)) }))
    .sort((a, b) => a.generation - b.generation);
}

function isValid(file: string, content: Buffer, validate: (v: unknown) => boolean): boolean {
  try {
    return validate(parseJsonText(file, content.toString('utf8')));
  } catch (err) {
    if (err instanceof StoreError) return false;
    throw err;
  }
}
