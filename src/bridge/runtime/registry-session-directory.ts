import type { Paths } from '../../core/paths.js';
import { readRegistry, registryStamp } from '../../sessions/registry/read-registry.js';
import { isChatOrigin, type Registry } from '../../sessions/registry/registry-schema.js';
import { searchSessions } from '../../sessions/present/search-sessions.js';
import type { SessionDirectory, SessionView } from '../commands/command-context.js';
import type { RegistryView } from '../mapping/reconcile-mapping.js';

type RegistryFiles = Pick<Paths, 'registryFile' | 'registryBackupDir' | 'locksDir'>;

/**
 * The bridge's read-only views of the session registry (`SessionDirectory` for chat commands,
 * `RegistryView` for the reconciler). The registry is re-read only when the file changed — the
 * engine and the periodic sync write it — so `/list` and `/switch` stay cheap when the dispatcher routes them.
 */
export class RegistrySessionDirectory implements SessionDirectory {
  private cached: { stamp: string | null; registry: Registry } | null = null;

  constructor(private readonly paths: RegistryFiles) {}

  private async registry(): Promise<Registry> {
    const stamp = await registryStamp(this.paths.registryFile);
    if (this.cached && stamp !== null && this.cached.stamp === stamp) return this.cached.registry;
    const loaded = await readRegistry(this.paths);
    this.cached = { stamp: loaded.stamp, registry: loaded.registry };
    return loaded.registry;
  }

  private static view(uuid: string, entry: Registry['sessions'][string]): SessionView {
    return { ...entry, uuid };
  }

  async list(): Promise<SessionView[]> {
    return Object.entries((await this.registry()).sessions).map(([id, e]) => RegistrySessionDirectory.view(id, e));
  }

  async get(uuid: string): Promise<SessionView | null> {
    const e = (await this.registry()).sessions[uuid];
    return e ? RegistrySessionDirectory.view(uuid, e) : null;
  }

  async resolvePrefix(prefix: string): Promise<SessionView[]> {
    const p = prefix.toLowerCase();
    return (await this.list()).filter((s) => s.uuid.toLowerCase().startsWith(p));
  }

  async search(keyword: string): Promise<SessionView[]> {
    return searchSessions(await this.registry(), keyword).map((h) => RegistrySessionDirectory.view(h.id, h.entry));
  }

  /** RegistryView for the reconciler. */
  async recentChatSessions(
    userId: string,
    sinceMs: number,
  ): Promise<Array<{ sessionId: string; status: string; cwd: string; createdAt: string }>> {
    return (await this.list())
      .filter((s) => isChatOrigin(s.origin) && s.feishu_user_id === userId && Date.parse(s.created_at) >= sinceMs)
      .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
      .map((s) => ({ sessionId: s.uuid, status: s.status ?? 'active', cwd: s.cwd, createdAt: s.created_at }));
  }
}

/** Adapts `get` to the reconciler's `RegistryView` shape. */
export function registryViewOf(dir: RegistrySessionDirectory): RegistryView {
  return {
    get: async (id) => {
      const s = await dir.get(id);
      return s
        ? {
            status: s.status ?? 'active',
            origin: s.origin,
            feishuUserId: s.feishu_user_id ?? null,
            createdAt: s.created_at,
            cwd: s.cwd,
          }
        : null;
    },
    recentChatSessions: (userId, since) => dir.recentChatSessions(userId, since),
  };
}
