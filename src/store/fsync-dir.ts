import fs from 'node:fs';

/**
 * Flushes a directory's entries to disk, so a `rename`/`link`/`unlink` inside it survives a power
 * loss (the file's own fsync does not cover its name). Filesystems and platforms that cannot fsync
 * a directory (EINVAL, ENOTSUP, EISDIR, EPERM, EBADF) are tolerated: the rename is still atomic
 * there, only not yet durable. Other errors are thrown as they are (callers wrap them).
 */
export async function fsyncDir(dir: string): Promise<void> {
  try {
    const handle = await fs.promises.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (!unsupported(err)) throw err;
  }
}

/** Synchronous `fsyncDir`. */
export function fsyncDirSync(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    if (!unsupported(err)) throw err;
  }
}

function unsupported(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EINVAL' || code === 'ENOTSUP' || code === 'EISDIR' || code === 'EPERM' || code === 'EBADF';
}
