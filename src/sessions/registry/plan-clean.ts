import fs from 'node:fs';
import type { Paths } from '../../core/paths.js';
import { MISSING_FILE_ERROR } from './merge-registry.js';
import { modifyRegistry } from './registry.js';
import type { Registry } from './registry-schema.js';
import type { SessionRef } from './resolve-session.js';
import { scanJsonl } from '../scan/scan-jsonl.js';

/**
 * Why `clean` removes a session:
 * - `missing_file`: its JSONL file is gone (`claude --resume` cannot load it);
 * - `empty`: a Claude Code session file that holds no message at all (a session opened and
 *   closed without a prompt) — the empty file is deleted too, otherwise the next scan would
 *   register it again. Never another agent's: their files (OpenCode's database holds every
 *   session) are theirs to delete;
 * - `never_written`: a terminal session announced by the hook more than a day ago whose file never
 *   appeared.
 * Feishu-created sessions that are still provisioning are never cleaned (the bridge owns them).
 */
export type CleanReason = 'missing_file' | 'empty' | 'never_written';

/** One planned removal. */
export interface CleanItem extends SessionRef {
  reason: CleanReason;
}

/** How long an empty session file must be untouched before it is cleaned (it may be starting). */
export const EMPTY_GRACE_MS = 60 * 60 * 1000;
/** How long a hook-announced session may stay without a file. */
export const NEVER_WRITTEN_AFTER_MS = 24 * 60 * 60 * 1000;

/** What `clean` would remove and why, oldest activity first. Pure. */
export function planClean(registry: Registry, now: Date): CleanItem[] {
  const items: CleanItem[] = [];
  const nowMs = now.getTime();
  for (const [id, entry] of Object.entries(registry.sessions)) {
    const idleMs = nowMs - Date.parse(entry.last_active);
    if (entry.jsonl_path && entry.status === 'corrupted' && entry.last_error === MISSING_FILE_ERROR)
      items.push({ id, entry, reason: 'missing_file' });
    else if (
      entry.agent === 'claude' &&
      entry.jsonl_path &&
      entry.message_count === 0 &&
      entry.status !== 'corrupted' &&
      idleMs > EMPTY_GRACE_MS
    )
      items.push({ id, entry, reason: 'empty' });
    else if (
      !entry.jsonl_path &&
      entry.origin === 'cli' &&
      entry.status === 'provisioning' &&
      idleMs > NEVER_WRITTEN_AFTER_MS
    )
      items.push({ id, entry, reason: 'never_written' });
  }
  return items.sort(
    (a, b) => Date.parse(a.entry.last_active) - Date.parse(b.entry.last_active) || (a.id < b.id ? -1 : 1),
  );
}

/** What `applyClean` removed. `kept` are planned items that changed in the meantime. */
export interface CleanResult {
  removed: CleanItem[];
  kept: CleanItem[];
}

/**
 * Removes the planned sessions under the registry lock, re-checking each one first: an `empty`
 * file is re-scanned and deleted only if it still has no message and was not modified in the grace
 * period; a `missing_file` entry is removed only if the file is still missing. CLI callers check
 * `assertNoLiveOwner` first.
 */
export async function applyClean(
  paths: Pick<Paths, 'registryFile' | 'registryBackupDir' | 'locksDir'>,
  now: Date,
  opts: { maxFileSize: number },
): Promise<CleanResult> {
  return modifyRegistry(paths, async ({ registry }) => {
    const removed: CleanItem[] = [];
    const kept: CleanItem[] = [];
    const sessions = { ...registry.sessions };
    for (const item of planClean(registry, now)) {
      if (await stillCleanable(item, now, opts.maxFileSize)) {
        if (item.reason === 'empty' && item.entry.jsonl_path)
          await fs.promises.rm(item.entry.jsonl_path, { force: true });
        delete sessions[item.id];
        removed.push(item);
      } else kept.push(item);
    }
    return {
      registry: removed.length > 0 ? { ...registry, updated_at: now.toISOString(), sessions } : null,
      result: { removed, kept },
    };
  });
}

async function stillCleanable(item: CleanItem, now: Date, maxFileSize: number): Promise<boolean> {
  const file = item.entry.jsonl_path;
  if (item.reason === 'never_written') return true;
  if (!file) return false;
  if (item.reason === 'empty' && item.entry.agent !== 'claude') return false; // see CleanReason
  const st = await fs.promises.stat(file).catch(() => null);
  if (item.reason === 'missing_file') return st === null;
  if (!st?.isFile() || now.getTime() - st.mtimeMs <= EMPTY_GRACE_MS) return false;
  const scan = await scanJsonl(file, { maxFileSize });
  return scan.session !== null && scan.session.health === 'ok' && scan.session.messageCount === 0;
}
