import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PRIVATE_FILE_MODE } from './atomic-write.js';
import { ensurePrivateDir } from './private-dir.js';
import { isProcessAlive, ownProcessStartTime, processStartTime } from './process-start-time.js';
import { randomHex } from './random-hex.js';
import { StoreError } from './store-error.js';

/** How long to wait for a lock, how often to look again, and when an unreadable lock file is abandoned. */
export interface FileLockOptions {
  /** Give up with `STORE_LOCK_TIMEOUT` after this long (default 10 000 ms). */
  timeoutMs?: number;
  /** Base delay between attempts, jittered ±50 % (default 25 ms). */
  retryMs?: number;
  /** An unparsable lock file older than this is abandoned (default 60 000 ms). */
  staleMs?: number;
}

/** A held lock. `release` is idempotent and only removes the lock file while it is still ours. */
export interface FileLock {
  readonly file: string;
  release(): Promise<void>;
}

/** What a lock file says about its holder. `token` tells two acquisitions by one process apart. */
interface LockContent {
  pid: number;
  startTime: string | null;
  host: string;
  acquiredAt: string;
  token: string;
}

type Inspection = { kind: 'gone' } | { kind: 'held' | 'stale'; holder: LockContent | null };

/**
 * Takes an inter-process lock: creates `lockFile` atomically with its content (0600, parent dir
 * 0700; see `tryCreate`) holding `{pid, startTime, host, acquiredAt, token}`, retrying until `timeoutMs` and then throwing
 * `StoreError` `STORE_LOCK_TIMEOUT` that names the holder. Not reentrant: a second acquire in the
 * same process waits like any other.
 *
 * A lock left by a crash is recovered: it is stale when its holder (on this host) is dead, when its
 * pid now belongs to a process with another start time (pid reuse), or when the file is unparsable
 * and older than `staleMs`. Breaking a stale lock happens under a short guard lock
 * (`<lockFile>.steal`) with the staleness re-checked inside, so two waiters can never both break
 * it and then remove each other's fresh lock. A holder on another host is never judged stale
 * (its pid means nothing here); the timeout message tells the user which file to delete.
 *
 * @example
 *   const lock = await acquireFileLock(path.join(paths.locksDir, 'registry.lock'));
 *   try { ... } finally { await lock.release(); }
 */
export async function acquireFileLock(lockFile: string, opts: FileLockOptions = {}): Promise<FileLock> {
  const file = path.resolve(lockFile);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const retryMs = opts.retryMs ?? 25;
  const staleMs = opts.staleMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  const content = serialize(newContent());
  for (;;) {
    if (await tryCreate(file, content)) return heldLock(file, content);
    const seen = await inspect(file, staleMs);
    if (seen.kind === 'gone') continue;
    if (seen.kind === 'stale' && (await breakStale(file, staleMs))) continue;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new StoreError('STORE_LOCK_TIMEOUT', { lockFile: file, timeoutMs, holder: describeHolder(seen.holder) });
    }
    await sleep(Math.min(remaining, retryMs * (0.5 + Math.random())));
  }
}

/**
 * Runs `fn` while holding `lockFile` and releases it afterwards, also when `fn` throws.
 *
 * @example
 *   await withFileLock(`${file}.lock`, async () => writeFileAtomic(file, next));
 */
export async function withFileLock<T>(lockFile: string, fn: () => Promise<T>, opts?: FileLockOptions): Promise<T> {
  const lock = await acquireFileLock(lockFile, opts);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

function newContent(): LockContent {
  return {
    pid: process.pid,
    startTime: ownProcessStartTime(),
    host: os.hostname(),
    acquiredAt: new Date().toISOString(),
    token: randomHex(16),
  };
}

function serialize(c: LockContent): string {
  return `${JSON.stringify(c)}\n`;
}

function heldLock(file: string, content: string): FileLock {
  let released = false;
  return {
    file,
    async release() {
      if (released) return;
      released = true;
      await removeIfContent(file, content);
      await removeDeadTemps(file);
    },
  };
}

/** Errors of `link` on filesystems without hard links: those fall back to an O_EXCL create. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Creates `file` holding `content`; false when it already exists. The content goes to a private
 * temporary file first, which is then hard-linked into place (`link` fails with EEXIST exactly like
 * an O_EXCL create), so a lock file never exists empty: a holder killed while acquiring leaves no
 * lock or a complete one, judged by its pid at once — not an empty file that only ages out after
 * `staleMs` while every waiter (and Feishu's 3-second ack) waits (docs/chaos.md, finding 2).
 */
async function tryCreate(file: string, content: string): Promise<boolean> {
  const temp = `${file}.${process.pid}.${randomHex(8)}.new`;
  try {
    if (!(await createExclusive(temp, content))) throw Object.assign(new Error(`${temp} exists`), { code: 'EEXIST' });
  } catch (err) {
    throw StoreError.io('lock', file, err);
  }
  try {
    await fs.promises.link(temp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (NO_HARD_LINKS.has(code))
      return createExclusive(file, content).catch((e: unknown) => Promise.reject(StoreError.io('lock', file, e)));
    throw StoreError.io('lock', file, err);
  } finally {
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
  }
}

/** O_EXCL create (0600, parent dir 0700) written with `content`; false when the file exists. */
async function createExclusive(file: string, content: string): Promise<boolean> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await openExclusive(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(content);
    await handle.close();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(file, { force: true }).catch(() => undefined);
    throw err;
  }
  return true;
}

async function openExclusive(file: string): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(file, 'wx', PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await ensurePrivateDir(path.dirname(file));
    return await fs.promises.open(file, 'wx', PRIVATE_FILE_MODE);
  }
}

/** Reads the lock through one handle (content and age of the same inode) and judges it. */
async function inspect(file: string, staleMs: number): Promise<Inspection> {
  let text: string;
  let mtimeMs: number;
  try {
    const handle = await fs.promises.open(file, 'r');
    try {
      mtimeMs = (await handle.stat()).mtimeMs;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw StoreError.io('read', file, err);
  }
  const holder = parseContent(text);
  // Unparsable (a holder killed before writing its content): judged by age — in both directions,
  // since after the wall clock is stepped back a lock left just before has an mtime in the future.
  if (holder === null) return { kind: Math.abs(Date.now() - mtimeMs) > staleMs ? 'stale' : 'held', holder };
  return { kind: holderIsGone(holder) ? 'stale' : 'held', holder };
}

/** Dead pid, or a live pid whose start time differs (reused); unknowable for another host. */
function holderIsGone(h: LockContent): boolean {
  if (h.host !== os.hostname()) return false;
  if (!isProcessAlive(h.pid)) return true;
  return h.startTime !== null && processStartTime(h.pid) !== h.startTime;
}

/**
 * Removes a stale lock under the `.steal` guard, re-checking staleness inside it. Returns false
 * when another waiter is breaking it right now (the caller then waits a round).
 */
async function breakStale(file: string, staleMs: number): Promise<boolean> {
  const guard = `${file}.steal`;
  const guardContent = serialize(newContent());
  if (!(await tryCreate(guard, guardContent))) {
    await breakAbandonedGuard(guard, staleMs);
    return false;
  }
  try {
    const again = await inspect(file, staleMs);
    if (again.kind === 'stale') {
      await fs.promises
        .rm(file, { force: true })
        .catch((err: unknown) => Promise.reject(StoreError.io('delete', file, err)));
      await removeDeadTemps(file);
    }
  } finally {
    await removeIfContent(guard, guardContent);
  }
  return true;
}

/**
 * Deletes the `<lock>.<pid>.<hex>.new` files (see `tryCreate`) of processes that are gone: an
 * acquirer killed between writing its temporary file and linking it leaves one behind, and no lock
 * to break. Done on every release and while breaking a stale lock, never touching a live process's
 * file (a readdir of the few files in the locks directory). Best effort.
 */
async function removeDeadTemps(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^(\d+)\.[0-9a-f]+\.new$/.exec(name.slice(prefix.length)) : null;
    if (m && !isProcessAlive(Number(m[1])))
      await fs.promises.rm(path.join(dir, name), { force: true }).catch(() => undefined);
  }
}

/**
 * A guard is held for a few milliseconds; one whose holder died (or that is unparsable and older
 * than `staleMs`) is moved aside under a unique name and deleted only if it is still the one judged
 * abandoned — if a fresh guard was moved by mistake it is linked back.
 */
async function breakAbandonedGuard(guard: string, staleMs: number): Promise<void> {
  const seen = await inspect(guard, staleMs);
  if (seen.kind !== 'stale') return;
  const aside = `${guard}.${process.pid}.${randomHex(8)}`;
  try {
    await fs.promises.rename(guard, aside);
  } catch {
    return;
  }
  const moved = parseContent(await fs.promises.readFile(aside, 'utf8').catch(() => ''));
  const same = seen.holder === null ? moved === null : moved?.token === seen.holder.token;
  if (!same) await fs.promises.link(aside, guard).catch(() => undefined);
  await fs.promises.rm(aside, { force: true });
}

async function removeIfContent(file: string, content: string): Promise<void> {
  try {
    if ((await fs.promises.readFile(file, 'utf8')) === content) await fs.promises.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw StoreError.io('delete', file, err);
  }
}

function parseContent(text: string): LockContent | null {
  try {
    const v = JSON.parse(text) as Partial<LockContent> | null;
    if (!v || typeof v !== 'object' || !Number.isInteger(v.pid) || typeof v.host !== 'string') return null;
    return {
      pid: v.pid as number,
      startTime: typeof v.startTime === 'string' ? v.startTime : null,
      host: v.host,
      acquiredAt: typeof v.acquiredAt === 'string' ? v.acquiredAt : '',
      token: typeof v.token === 'string' ? v.token : '',
    };
  } catch {
    return null;
  }
}

function describeHolder(h: LockContent | null): string {
  if (h === null) return '?';
  return `pid ${h.pid}${h.host === os.hostname() ? '' : `@${h.host}`}${h.acquiredAt ? ` since ${h.acquiredAt}` : ''}`;
}
