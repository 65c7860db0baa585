import type { SessionEntry } from '../../sessions/registry/registry-schema.js';

/** The `--json` shape of one session: the registry entry with its id first. */
export function sessionJson(id: string, entry: SessionEntry): Record<string, unknown> {
  return { session_id: id, ...entry, status: entry.status ?? 'active' };
}
