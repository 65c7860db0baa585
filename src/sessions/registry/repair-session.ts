import type { Paths } from '../../core/paths.js';
import { locateSessionFile } from '../scan/locate-session-file.js';
import { idleStatus, mergeRegistry } from './merge-registry.js';
import { modifyRegistry } from './registry.js';
import type { SessionEntry } from './registry-schema.js';
import { resolveSession } from './resolve-session.js';
import { scanJsonl } from '../scan/scan-jsonl.js';

/** `last_error` when a repair could not find the file. */
export const JSONL_NOT_FOUND_ERROR = 'JSONL file not found';

/** The outcome of `repairSession`. */
export interface RepairResult {
  id: string;
  /** The entry after the repair. */
  entry: SessionEntry;
  /** The session file found, or null. */
  found: string | null;
  /** True when the entry is now resumable (active/archived). */
  resumable: boolean;
}

/**
 * Re-resolves a Claude Code session's `jsonl_path` (provisioning → active, degraded → active, or a moved
 * file) by looking for `projects/*\/<id>.jsonl`, re-scans the file and merges the result with the
 * same rules as `sync`, under the registry lock. When the file is still missing the entry keeps
 * its status, gets `pending_jsonl_resolve: true` and `last_error: "JSONL file not found"`.
 * `idOrPrefix` accepts a prefix (see `resolveSession`). The bridge's reconciler calls this for
 * its provisioning/degraded sessions; CLI callers check `assertNoLiveOwner` first.
 *
 * @example
 *   const r = await repairSession(paths, '8c4b1297', { maxFileSize: config.scanner.max_file_size });
 *   if (!r.resumable) reply(r.entry.last_error);
 */
export async function repairSession(
  paths: Pick<Paths, 'registryFile' | 'registryBackupDir' | 'locksDir' | 'claudeProjectsDir'>,
  idOrPrefix: string,
  opts: { maxFileSize: number; now?: Date },
): Promise<RepairResult> {
  const now = opts.now ?? new Date();
  return modifyRegistry(paths, async ({ registry }) => {
    const { id, entry } = resolveSession(registry, idOrPrefix);
    if (entry.agent !== 'claude') {
      // Another agent's session has no hook nor provisioning: `sync` re-reads it; nothing to repair here.
      const resumable = entry.status === undefined || entry.status === 'active' || entry.status === 'archived';
      return { registry: null, result: { id, entry, found: entry.jsonl_path, resumable } };
    }
    const found = await locateSessionFile(paths.claudeProjectsDir, id, entry.project_dir);
    const scanned = found ? await scanJsonl(found, { maxFileSize: opts.maxFileSize }) : null;
    if (!found || !scanned?.session) {
      const tooLarge = scanned?.skipped === 'too_large';
      const next: SessionEntry = tooLarge
        ? entry
        : { ...entry, pending_jsonl_resolve: true, last_error: JSONL_NOT_FOUND_ERROR };
      const result = { id, entry: next, found, resumable: tooLarge && found !== null };
      return { registry: tooLarge ? null : { ...registry, sessions: { ...registry.sessions, [id]: next } }, result };
    }
    const others = Object.keys(registry.sessions).filter((k) => k !== id);
    const merged = mergeRegistry(
      registry,
      { sessions: [scanned.session], unscannedIds: others, unlistedDirs: [] },
      [],
      [],
      now,
    ).registry;
    let next = merged.sessions[id] as SessionEntry;
    // An explicit repair re-judges a degraded session: a healthy file makes it resumable again.
    if (next.status === 'degraded' && scanned.session.health === 'ok') {
      next = { ...next, status: idleStatus(next.last_active, now.getTime()), last_error: null };
      merged.sessions[id] = next;
    }
    return {
      registry: merged,
      result: { id, entry: next, found, resumable: next.status === 'active' || next.status === 'archived' },
    };
  });
}
