import fs from 'node:fs';
import path from 'node:path';

/** Owner-only directory mode used for everything under `~/.cc-linker`. */
export const PRIVATE_DIR_MODE = 0o700;

/** Options of `makePrivateDir`. */
export interface PrivateDirOptions {
  /**
   * Create what is missing but leave an existing `dir` as it is: for a directory the user may
   * have chosen outside `~/.cc-linker` (`general.log_path`'s), which is theirs to set.
   */
  leaveExisting?: boolean;
}

/**
 * The one way a directory under `~/.cc-linker` is made: creates `dir` and any missing parents,
 * each created one 0700 whatever the umask (`mkdir`'s mode alone is masked by it), and tightens an
 * existing `dir` to 0700 when we own it; a directory owned by someone else is left alone. Throws
 * the file system's error (`ENOTDIR` when `dir` is a file); `store/`'s `ensurePrivateDir` turns it
 * into a `StoreError`.
 *
 * Why: session titles, chat text, tokens and the audit log live under `~/.cc-linker`; other local
 * users must not be able to list or read them.
 */
export async function makePrivateDir(dir: string, opts: PrivateDirOptions = {}): Promise<void> {
  const abs = path.resolve(dir);
  const first = await fs.promises.mkdir(abs, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first !== undefined) {
    for (const d of createdChain(first, abs)) await fs.promises.chmod(d, PRIVATE_DIR_MODE);
    return;
  }
  if (opts.leaveExisting) return;
  const st = await fs.promises.stat(abs);
  if (!st.isDirectory()) throw Object.assign(new Error(`not a directory: ${abs}`), { code: 'ENOTDIR' });
  if (ownedByUs(st) && (st.mode & 0o777) !== PRIVATE_DIR_MODE) await fs.promises.chmod(abs, PRIVATE_DIR_MODE);
}

/** Synchronous `makePrivateDir`, for startup paths and synchronous writers. */
export function makePrivateDirSync(dir: string, opts: PrivateDirOptions = {}): void {
  const abs = path.resolve(dir);
  const first = fs.mkdirSync(abs, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first !== undefined) {
    for (const d of createdChain(first, abs)) fs.chmodSync(d, PRIVATE_DIR_MODE);
    return;
  }
  if (opts.leaveExisting) return;
  const st = fs.statSync(abs);
  if (!st.isDirectory()) throw Object.assign(new Error(`not a directory: ${abs}`), { code: 'ENOTDIR' });
  if (ownedByUs(st) && (st.mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(abs, PRIVATE_DIR_MODE);
}

/**
 * Tightens `dir` to 0700 when it exists, is a directory we own and is not 0700 yet; creates
 * nothing and never throws (true when it is private afterwards). Every command and the
 * SessionStart hook run it on `~/.cc-linker` first: a user who made that directory by hand
 * (`mkdir ~/.cc-linker` to write `config.toml`) gets 0755, and what cc-linker then writes inside
 * must not be listable by others.
 */
export function tightenPrivateDirSync(dir: string): boolean {
  try {
    const st = fs.statSync(dir);
    if (!st.isDirectory() || !ownedByUs(st)) return false;
    if ((st.mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(dir, PRIVATE_DIR_MODE);
    return true;
  } catch {
    return false;
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
