import path from 'node:path';
import { makePrivateDir, makePrivateDirSync } from '../core/private-dir.js';
import { StoreError } from './store-error.js';

export { PRIVATE_DIR_MODE } from '../core/private-dir.js';

/**
 * Makes sure `dir` exists as an owner-only (0700) directory (`makePrivateDir`: missing levels
 * created 0700 whatever the umask, an existing one of ours tightened). Throws `STORE_IO` when
 * `dir` exists but is not a directory, or cannot be created.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  try {
    await makePrivateDir(dir);
  } catch (err) {
    throw StoreError.io('create', path.resolve(dir), err);
  }
}

/** Synchronous `ensurePrivateDir`, for startup paths and sync writers. */
export function ensurePrivateDirSync(dir: string): void {
  try {
    makePrivateDirSync(dir);
  } catch (err) {
    throw StoreError.io('create', path.resolve(dir), err);
  }
}
