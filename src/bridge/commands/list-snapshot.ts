import { VersionedDoc } from '../../store/versioned-doc.js';

/** One user's latest numbered list: the session ids in display order (index 1 = first). */
export interface ListSnapshotEntry {
  savedAt: string;
  sessionIds: string[];
}

/** The `data` of `runtime/list-snapshots.json`. */
export interface ListSnapshotData {
  users: Record<string, ListSnapshotEntry>;
}

/** Why `/switch 1` could not be resolved; each has its own message ("请重新执行 /list"). */
export type SnapshotMiss = 'none' | 'expired' | 'out-of-range';

/**
 * The numbers of the latest `/list` (or `/search`) per user, so `/switch 1` and `/resume 1` mean
 * what the user saw: only the most recent list counts, and it expires after
 * `queue.list_snapshot_ttl_minutes` so an old number cannot hit the wrong session. Persisted (a
 * `VersionedDoc`), so a restart keeps it.
 *
 * @example
 *   const snaps = new ListSnapshots(path.join(paths.runtimeDir, 'list-snapshots.json'), { ttlMs: 10 * 60_000 });
 *   await snaps.save(openId, shown.map((s) => s.uuid));
 *   const r = await snaps.resolve(openId, 1); // { ok: true, sessionId } | { ok: false, reason }
 */
export class ListSnapshots {
  private readonly doc: VersionedDoc<ListSnapshotData>;
  private readonly ttlMs: number;
  private readonly now: () => Date;

  constructor(file: string, opts: { ttlMs: number; now?: () => Date }) {
    this.doc = new VersionedDoc<ListSnapshotData>(file, {
      schema: 1,
      defaultValue: () => ({ users: {} }),
      validate: validateSnapshots,
    });
    this.ttlMs = opts.ttlMs;
    this.now = opts.now ?? (() => new Date());
  }

  /** Replaces the user's snapshot with this list (display order). */
  async save(userId: string, sessionIds: string[]): Promise<void> {
    const entry: ListSnapshotEntry = { savedAt: this.now().toISOString(), sessionIds: [...sessionIds] };
    await this.doc.update((data) => {
      data.users[userId] = entry;
      return data;
    });
  }

  /** The session shown as number `index` (1-based) in the user's latest list, if still valid. */
  async resolve(
    userId: string,
    index: number,
  ): Promise<{ ok: true; sessionId: string } | { ok: false; reason: SnapshotMiss }> {
    const entry = (await this.doc.read()).data.users[userId];
    if (!entry) return { ok: false, reason: 'none' };
    if (this.isExpired(entry)) return { ok: false, reason: 'expired' };
    const sessionId = Number.isInteger(index) && index >= 1 ? entry.sessionIds[index - 1] : undefined;
    return sessionId === undefined ? { ok: false, reason: 'out-of-range' } : { ok: true, sessionId };
  }

  /** Removes expired snapshots (reconciler, periodically); returns how many were removed. */
  async purgeExpired(): Promise<number> {
    let removed = 0;
    await this.doc.update((data) => {
      removed = 0;
      for (const [user, entry] of Object.entries(data.users)) {
        if (this.isExpired(entry)) {
          delete data.users[user];
          removed += 1;
        }
      }
      return removed > 0 ? data : undefined;
    });
    return removed;
  }

  private isExpired(entry: ListSnapshotEntry): boolean {
    const saved = Date.parse(entry.savedAt);
    return !Number.isFinite(saved) || this.now().getTime() - saved > this.ttlMs;
  }
}

function validateSnapshots(raw: unknown): ListSnapshotData {
  const users = (raw as { users?: unknown } | null)?.users;
  if (!users || typeof users !== 'object' || Array.isArray(users)) throw new Error('users must be an object');
  for (const [user, e] of Object.entries(users as Record<string, unknown>)) {
    const entry = e as Partial<ListSnapshotEntry> | null;
    if (
      !entry ||
      typeof entry.savedAt !== 'string' ||
      !Array.isArray(entry.sessionIds) ||
      !entry.sessionIds.every((x) => typeof x === 'string')
    ) {
      throw new Error(`snapshot of ${user} is invalid`);
    }
  }
  return { users: users as Record<string, ListSnapshotEntry> };
}
