import fs from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir } from './fsync-dir.js';
import { StoreError } from './store-error.js';

/**
 * Moves a file between directories of the same filesystem so that the move survives a crash:
 * `rename` (atomic) and then fsync of both directories. Used for spool state transitions
 * (`pending → processing → replied → done`), where "the file is in exactly one state directory"
 * is the source of truth after a restart. `sync: false` skips the directory fsyncs for moves whose
 * loss on a power cut is harmless (the caller can redo them from other durable state).
 */
export async function renameDurable(from: string, to: string, options: { sync?: boolean } = {}): Promise<void> {
  try {
    await fs.rename(from, to);
    if (options.sync === false) return;
    await fsyncDir(path.dirname(to));
    if (path.dirname(from) !== path.dirname(to)) await fsyncDir(path.dirname(from));
  } catch (err) {
    throw StoreError.io('write', to, err);
  }
}
