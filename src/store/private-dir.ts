import fs from 'node:fs';
import path from 'node:path';
import { StoreError } from './store-error.js';

/** Owner-only directory mode used for everything under `~/.cc-linker`. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Makes sure `dir` exists as an owner-only (0700) directory: creates it and any missing parents
 * (each created one 0700, whatever the umask), and tightens an existing directory to 0700 when we
 * own it. A directory owned by someone else is left alone. Throws `STORE_IO` when `dir` exists but
 * is not a directory, or cannot be created.
 *
 * Why: session titles, chat text and tokens live under `~/.cc-linker`; other local users must not
 * be able to list or read them.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const abs = path.resolve(dir);
  try {
    const first = await fs.promises.mkdir(abs, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (first !== undefined) {
      for (const d of createdChain(first, abs)) await fs.promises.chmod(d, PRIVATE_DIR_MODE);
      return;
    }
    const st = await fs.promises.stat(abs);
    if (!st.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    if (ownedByUs(st) && (st.mode & 0o777) !== PRIVATE_DIR_MODE) await fs.promises.chmod(abs, PRIVATE_DIR_MODE);
  } catch (err) {
    throw StoreError.io('create', abs, err);
  }
}

/** Synchronous `ensurePrivateDir`, for startup paths and sync writers. */
export function ensurePrivateDirSync(dir: string): void {
  const abs = path.resolve(dir);
  try {
    const first = fs.mkdirSync(abs, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (first !== undefined) {
      for (const d of createdChain(first, abs)) fs.chmodSync(d, PRIVATE_DIR_MODE);
      return;
    }
    const st = fs.statSync(abs);
    if (!st.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    if (ownedByUs(st) && (st.mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(abs, PRIVATE_DIR_MODE);
  } catch (err) {
    throw StoreError.io('create', abs, err);
  }
}

/** The directories `mkdir -p` created: from the first created one down to the leaf. */
function createdChain(first: string, leaf: string): string[] {
  const chain = [leaf];
  let cur = leaf;
  while (cur !== first && path.dirname(cur) !== cur) {
    cur = path.dirname(cur);
    chain.unshift(cur);
  }
  return chain;
}

function ownedByUs(st: fs.Stats): boolean {
  return typeof process.getuid !== 'function' || st.uid === process.getuid();
}
