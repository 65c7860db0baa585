import fs from 'node:fs';
import path from 'node:path';
import { registryStamp } from './read-registry.js';
import { SESSION_STATUSES, type Registry, type SessionEntry, type SessionStatus } from './registry-schema.js';

/** What `cc-linker list` shows and filters on for one session (a subset of `SessionEntry`). */
export type ListEntry = Pick<SessionEntry, 'origin' | 'status' | 'title' | 'message_count' | 'last_active' | 'project_name' | 'cwd'>;

/** One row on disk: `[id, origin, status, title, message_count, last_active, project_name, cwd]`. */
type Row = [string, 'cli' | 'feishu', SessionStatus | null, string | null, number, string, string | null, string];

interface ListIndexFile {
  version: 1;
  /** `registryStamp` of the registry file this index was made from. */
  registry: string;
  rows: Row[];
}

/** `registry.list-index.json` beside the registry. */
export function listIndexFile(registryFile: string): string {
  return path.join(path.dirname(registryFile), 'registry.list-index.json');
}

/**
 * Writes the list index of `registry`, the content of `registryFile` when it had identity `stamp`
 * (`registryStamp`, taken after writing it or before reading it): the eight fields
 * `list` needs per session, about a quarter of the registry's bytes, so a cold `cc-linker list`
 * does not parse every preview and path of thousands of sessions (issue 2's cold-start goal).
 * It is a cache: written without fsync, tagged with the registry file's identity, and ignored by
 * `readListIndex` as soon as the registry is replaced by anything that does not rewrite it.
 */
export async function writeListIndex(registryFile: string, registry: Registry, stamp: string | null): Promise<void> {
  if (stamp === null) return;
  const rows = Object.entries(registry.sessions).map(([id, e]): Row => [id, e.origin, e.status ?? null, e.title, e.message_count, e.last_active, e.project_name, e.cwd]);
  const index: ListIndexFile = { version: 1, registry: stamp, rows };
  // Loaded here, not at the top: `list` reads this module on every cold start and writes an index
  // only after a full read; the writer's module pulls in node:crypto (~4 ms of a ~60 ms start).
  const { writeFileAtomic } = await import('../store/atomic-write.js');
  await writeFileAtomic(listIndexFile(registryFile), `${JSON.stringify(index)}\n`, { durable: false });
}

/**
 * The sessions of the list index, or null when there is no usable index for the registry file as
 * it is now (missing, torn, another version, or made from an earlier registry): the caller then
 * reads the registry itself. Never throws.
 */
export async function readListIndex(registryFile: string): Promise<{ id: string; entry: ListEntry }[] | null> {
  try {
    const [stamp, text] = await Promise.all([registryStamp(registryFile), fs.promises.readFile(listIndexFile(registryFile), 'utf8')]);
    const index = JSON.parse(text) as Partial<ListIndexFile>;
    if (stamp === null || index.version !== 1 || index.registry !== stamp || !Array.isArray(index.rows)) return null;
    const out: { id: string; entry: ListEntry }[] = [];
    for (const row of index.rows) {
      const entry = rowEntry(row);
      if (!entry) return null;
      out.push({ id: row[0], entry });
    }
    return out;
  } catch {
    return null;
  }
}

function rowEntry(row: unknown): ListEntry | null {
  if (!Array.isArray(row) || row.length !== 8) return null;
  const [id, origin, status, title, count, lastActive, projectName, cwd] = row as unknown[];
  if (typeof id !== 'string' || (origin !== 'cli' && origin !== 'feishu') || typeof count !== 'number' || typeof lastActive !== 'string' || typeof cwd !== 'string') return null;
  if (status !== null && !SESSION_STATUSES.includes(status as SessionStatus)) return null;
  if ((title !== null && typeof title !== 'string') || (projectName !== null && typeof projectName !== 'string')) return null;
  return { origin, ...(status !== null ? { status: status as SessionStatus } : {}), title: title as string | null, message_count: count, last_active: lastActive, project_name: projectName as string | null, cwd };
}
