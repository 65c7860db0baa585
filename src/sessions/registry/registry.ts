import path from 'node:path';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { withFileLock, type FileLockOptions } from '../../store/file-lock.js';
import { rotateBackups } from '../../store/rolling-backup.js';
import { readRegistry, registryStamp, type LoadedRegistry, type RegistryPaths } from './read-registry.js';
import { writeListIndex } from './list-index.js';
import { isUsableRegistry, type Registry, type SessionEntry } from './registry-schema.js';
import { encodeProjectDir } from '../scan/project-dir.js';
import { SessionsError } from '../sessions-error.js';

export { readRegistry, requireRegistry, type LoadedRegistry, type RegistryPaths } from './read-registry.js';

/** Backups kept in `registryBackupDir` (`registry.json.1` newest … `.5`). */
export const REGISTRY_BACKUPS = 5;
/**
 * The newest backup is replaced at most this often: the live watch rewrites the registry every few
 * seconds while a session runs, and the backups must still reach back long enough to be useful.
 */
export const REGISTRY_BACKUP_INTERVAL_MS = 10 * 60_000;

/**
 * Replaces the registry: rotates the rolling backup (a broken current file is not rotated in),
 * then writes atomically (0600), then refreshes the list index (`list-index.ts`). The caller holds
 * the registry lock (`modifyRegistry` does).
 */
export async function writeRegistry(paths: RegistryPaths, registry: Registry): Promise<void> {
  await rotateBackups(paths.registryFile, paths.registryBackupDir, REGISTRY_BACKUPS, {
    validate: isUsableRegistry,
    minIntervalMs: REGISTRY_BACKUP_INTERVAL_MS,
  });
  await writeFileAtomic(paths.registryFile, `${JSON.stringify(registry, null, 2)}\n`);
  await writeListIndex(paths.registryFile, registry, await registryStamp(paths.registryFile));
}

/** The inter-process lock every registry writer takes. */
export function registryLockFile(paths: RegistryPaths): string {
  return path.join(paths.locksDir, 'registry.lock');
}

/**
 * Read-modify-write under the registry lock. `fn` gets the current registry and returns the next
 * one (or null to leave the file alone) plus a result. The file is written only when the sessions
 * changed, so an idle `sync` does not touch the disk.
 *
 * @example
 *   await modifyRegistry(paths, async ({ registry }) => ({ registry: { ...registry, sessions: {} }, result: undefined }));
 */
export async function modifyRegistry<T>(
  paths: RegistryPaths,
  fn: (current: LoadedRegistry) => Promise<{ registry: Registry | null; result: T }>,
  opts: { lock?: FileLockOptions; reuse?: LoadedRegistry } = {},
): Promise<T> {
  return withFileLock(
    registryLockFile(paths),
    async () => {
      // A registry read just before taking the lock is reused when the file is still the same one.
      const reusable =
        opts.reuse &&
        opts.reuse.stamp !== null &&
        opts.reuse.recoveredFrom === null &&
        (await registryStamp(paths.registryFile)) === opts.reuse.stamp;
      const current = reusable && opts.reuse ? opts.reuse : await readRegistry(paths);
      const { registry, result } = await fn(current);
      if (registry && (!current.exists || current.recoveredFrom !== null || !sameSessions(current.registry, registry)))
        await writeRegistry(paths, registry);
      return result;
    },
    opts.lock,
  );
}

/** Fields a caller may give when creating or updating a session (everything but the key). */
export type SessionFields = Partial<SessionEntry>;

/**
 * Creates a session entry or updates an existing one — the call the bridge/engine makes when a
 * session is created from chat (`/new`): typically
 * `upsertSession(paths, id, { origin: 'feishu', cwd, feishu_user_id, status: 'provisioning' })`.
 * A new entry gets defaults: `created_at`/`last_active` = now, `project_name` = basename of cwd,
 * `project_dir` = Claude's encoding of cwd, `jsonl_path` null with `pending_jsonl_resolve` and
 * status `provisioning` until a path is known (then `active`). Returns the stored entry.
 */
export async function upsertSession(
  paths: RegistryPaths,
  id: string,
  fields: SessionFields & { cwd?: string },
  now: Date = new Date(),
): Promise<SessionEntry> {
  return modifyRegistry(paths, async ({ registry }) => {
    const before = registry.sessions[id];
    const entry = before ? { ...before, ...fields } : newEntry(fields, now);
    const next: Registry = {
      ...registry,
      updated_at: now.toISOString(),
      sessions: { ...registry.sessions, [id]: entry },
    };
    return { registry: next, result: entry };
  });
}

/**
 * Changes an existing session: a patch object, or a function of the current entry. Used for
 * provisioning → active (`{ jsonl_path, status: 'active', pending_jsonl_resolve: false }`),
 * `{ status: 'degraded', last_error }`, `last_active` after a chat turn, `lastKnownProvider`.
 * Throws `SESSION_NOT_FOUND` when the id is unknown.
 */
export async function updateSession(
  paths: RegistryPaths,
  id: string,
  patch: SessionFields | ((entry: SessionEntry) => SessionEntry),
  now: Date = new Date(),
): Promise<SessionEntry> {
  return modifyRegistry(paths, async ({ registry }) => {
    const before = registry.sessions[id];
    if (!before) throw new SessionsError('SESSION_NOT_FOUND', { prefix: id });
    const entry = typeof patch === 'function' ? patch({ ...before }) : { ...before, ...patch };
    return {
      registry: { ...registry, updated_at: now.toISOString(), sessions: { ...registry.sessions, [id]: entry } },
      result: entry,
    };
  });
}

function newEntry(fields: SessionFields, now: Date): SessionEntry {
  const cwd = fields.cwd ?? '';
  const jsonlPath = fields.jsonl_path ?? null;
  return {
    agent: 'claude',
    origin: 'cli',
    cwd,
    project_name: cwd ? path.basename(cwd) || null : null,
    jsonl_path: jsonlPath,
    project_dir: cwd ? encodeProjectDir(cwd) : null,
    ...(jsonlPath === null ? { pending_jsonl_resolve: true } : {}),
    last_error: null,
    created_at: now.toISOString(),
    last_active: now.toISOString(),
    title: null,
    message_count: 0,
    last_message_preview: '',
    status: jsonlPath === null ? 'provisioning' : 'active',
    ...fields,
  };
}

/** Deep equality of two session maps (key order ignored), without serialising them. */
function sameSessions(a: Registry, b: Registry): boolean {
  const ka = Object.keys(a.sessions);
  if (ka.length !== Object.keys(b.sessions).length) return false;
  return ka.every((k) => deepEqual(a.sessions[k], b.sessions[k]));
}

function deepEqual(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (
    typeof x !== 'object' ||
    typeof y !== 'object' ||
    x === null ||
    y === null ||
    Array.isArray(x) !== Array.isArray(y)
  )
    return false;
  const ox = x as Record<string, unknown>;
  const oy = y as Record<string, unknown>;
  const keys = Object.keys(ox).filter((k) => ox[k] !== undefined);
  if (keys.length !== Object.keys(oy).filter((k) => oy[k] !== undefined).length) return false;
  return keys.every((k) => deepEqual(ox[k], oy[k]));
}
