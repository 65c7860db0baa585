import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir, fsyncDirSync } from './fsync-dir.js';
import { ensurePrivateDir, ensurePrivateDirSync } from './private-dir.js';
import { randomHex } from './random-hex.js';
import { StoreError } from './store-error.js';
import { writeAll, writeAllSync } from './write-all.js';

/** Owner-only file mode used for everything under `~/.cc-linker`. */
export const PRIVATE_FILE_MODE = 0o600;

/** Options of `writeFileAtomic`: `mode` of the resulting file (default 0600, applied whatever the umask). */
export interface AtomicWriteOptions {
  mode?: number;
  /**
   * `false` keeps the atomic replace (never a torn file) but skips both fsyncs, for files whose
   * loss on a power cut is harmless because other durable state covers them (spool receipts).
   */
  durable?: boolean;
}

/**
 * Replaces `file` with `data` so that a reader — or the next start after a crash or power loss —
 * sees either the old content or the new one, never a mix or an empty file.
 *
 * Steps: write to a uniquely named temp file in the same directory (`.<name>.<pid>.<random>.tmp`),
 * fsync it, rename it over `file`, fsync the directory so the rename itself is durable. The temp
 * file is removed when any step fails. A missing parent directory is created 0700
 * (`ensurePrivateDir`); an existing one is left as it is. Errors are `StoreError` `STORE_IO`.
 *
 * @example
 *   await writeFileAtomic(paths.registryFile, JSON.stringify(registry, null, 2));
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  const mode = opts.mode ?? PRIVATE_FILE_MODE;
  const tmp = tempPathFor(target);
  let handle: fs.promises.FileHandle | undefined;
  try {
    try {
      handle = await fs.promises.open(tmp, 'wx', mode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await ensurePrivateDir(dir);
      handle = await fs.promises.open(tmp, 'wx', mode);
    }
    await writeAll(handle, data);
    await handle.chmod(mode);
    if (opts.durable !== false) await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.promises.rename(tmp, target);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw StoreError.io('write', target, err);
  }
  if (opts.durable === false) return;
  await fsyncDir(dir).catch((err: unknown) => Promise.reject(StoreError.io('write', target, err)));
}

/** Synchronous `writeFileAtomic` with the same guarantees, for exit handlers and sync code paths. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  const mode = opts.mode ?? PRIVATE_FILE_MODE;
  const tmp = tempPathFor(target);
  let fd: number | undefined;
  try {
    try {
      fd = fs.openSync(tmp, 'wx', mode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      ensurePrivateDirSync(dir);
      fd = fs.openSync(tmp, 'wx', mode);
    }
    writeAllSync(fd, data);
    fs.fchmodSync(fd, mode);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, target);
  } catch (err) {
    if (fd !== undefined) closeQuietly(fd);
    fs.rmSync(tmp, { force: true });
    throw StoreError.io('write', target, err);
  }
  try {
    fsyncDirSync(dir);
  } catch (err) {
    throw StoreError.io('write', target, err);
  }
}

/** `.<name>.<pid>.<random>.tmp` beside `target`; the name is capped so long targets stay under NAME_MAX. */
function tempPathFor(target: string): string {
  const base = path.basename(target).slice(0, 200);
  return path.join(path.dirname(target), `.${base}.${process.pid}.${randomHex(12)}.tmp`);
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    /* already failing; the original error is what matters */
  }
}
