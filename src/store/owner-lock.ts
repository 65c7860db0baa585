import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { withFileLock } from './file-lock.js';
import { readJsonFile } from './read-json-file.js';
import { isProcessAlive, ownProcessStartTime, processStartTime } from './process-start-time.js';
import { randomHex } from './random-hex.js';
import { StoreError } from './store-error.js';

/** The runtime owner lock held by `cc-linker start`; `release` removes the file only while it is still ours. */
export interface OwnerLock {
  readonly pid: number;
  readonly file: string;
  /** True when a lock left by a dead (or pid-reused, or unreadable) owner was taken over. */
  readonly tookOverStale: boolean;
  release(): Promise<void>;
}

/** What `runtime/owner.lock` says, plus whether that owner is running now. */
export interface OwnerLockInfo {
  pid: number;
  startTime: string | null;
  startedAt: string;
  host: string;
  /** pid alive with the same start time; an owner on another host is assumed alive (its pid cannot be checked). */
  alive: boolean;
}

interface OwnerContent {
  pid: number;
  startTime: string | null;
  startedAt: string;
  host: string;
  token: string;
}

/**
 * Makes this process the single writer of the runtime state: while `cc-linker start` runs, only it
 * writes the registry, the user mapping, the list snapshot, the spool and the delivery receipts (the
 * write commands check `assertNoLiveOwner` and refuse, or ask the running daemon to do the work —
 * docs/design.md, "The session registry"; read-only commands run at any time). Writes
 * `{pid, startTime, startedAt, host}` to `file` (0600, dir 0700). A live owner makes it throw
 * `StoreError` `STORE_OWNER_LOCKED` naming the pid and telling the user to stop it first; a stale
 * one (dead pid, reused pid, unreadable file) is taken over and reported by `tookOverStale`. The
 * check-and-write runs under the short file lock `<file>.guard`, so two `start`s cannot both win.
 *
 * @example
 *   const owner = await acquireOwnerLock(paths.ownerLockFile);
 *   if (owner.tookOverStale) logger.warn('previous run did not shut down cleanly');
 *   try { await startupReconcile(); ... } finally { await owner.release(); }
 */
export async function acquireOwnerLock(file: string): Promise<OwnerLock> {
  const abs = path.resolve(file);
  return withFileLock(guardOf(abs), async () => {
    const existing = await readContent(abs);
    if (existing && isLive(existing)) throw ownerLocked(existing, 'cc-linker start');
    const tookOverStale = existing !== undefined;
    const content: OwnerContent = {
      pid: process.pid,
      startTime: ownProcessStartTime(),
      startedAt: new Date().toISOString(),
      host: os.hostname(),
      token: randomHex(16),
    };
    await writeFileAtomic(abs, `${JSON.stringify(content, null, 2)}\n`);
    let released = false;
    return {
      pid: process.pid,
      file: abs,
      tookOverStale,
      async release() {
        if (released) return;
        released = true;
        await withFileLock(guardOf(abs), async () => {
          const now = await readContent(abs);
          if (now && now.token === content.token) await fs.promises.rm(abs, { force: true });
        });
      },
    };
  });
}

/**
 * The current owner lock, or null when there is none (or it is unreadable, which counts as no
 * owner). For `status` and for commands that must not write while the runtime runs.
 */
export async function readOwnerLock(file: string): Promise<OwnerLockInfo | null> {
  const c = await readContent(path.resolve(file));
  if (!c) return null;
  return { pid: c.pid, startTime: c.startTime, startedAt: c.startedAt, host: c.host, alive: isLive(c) };
}

/**
 * Refuses `action` (e.g. `cc-linker sync`) with `STORE_OWNER_LOCKED` while another live process owns
 * the runtime state; the message names its pid and says to run `cc-linker stop` first. The owner
 * process itself passes.
 */
export async function assertNoLiveOwner(file: string, action: string): Promise<void> {
  const c = await readContent(path.resolve(file));
  if (!c || !isLive(c)) return;
  if (c.pid === process.pid && c.host === os.hostname() && c.startTime === ownProcessStartTime()) return;
  throw ownerLocked(c, action);
}

function guardOf(file: string): string {
  return `${file}.guard`;
}

function isLive(c: OwnerContent): boolean {
  if (c.host !== os.hostname()) return true;
  if (!isProcessAlive(c.pid)) return false;
  return c.startTime === null || processStartTime(c.pid) === c.startTime;
}

function ownerLocked(c: OwnerContent, action: string): StoreError {
  return new StoreError('STORE_OWNER_LOCKED', {
    action,
    pid: c.pid,
    ...(c.host === os.hostname() ? {} : { host: c.host }),
  });
}

/** The lock's content; `null` for a file that exists but is not a valid owner lock; `undefined` when absent. */
async function readContent(file: string): Promise<OwnerContent | null | undefined> {
  let r;
  try {
    r = await readJsonFile<Partial<OwnerContent>>(file);
  } catch (err) {
    if (err instanceof StoreError && err.code === 'STORE_CORRUPT') return null;
    throw err;
  }
  if (!r.exists) return undefined;
  const v = r.value;
  if (!v || typeof v !== 'object' || !Number.isInteger(v.pid) || (v.pid as number) <= 0) return null;
  return {
    pid: v.pid as number,
    startTime: typeof v.startTime === 'string' ? v.startTime : null,
    startedAt: typeof v.startedAt === 'string' ? v.startedAt : '',
    host: typeof v.host === 'string' ? v.host : os.hostname(),
    token: typeof v.token === 'string' ? v.token : '',
  };
}
