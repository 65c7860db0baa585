import fs from 'node:fs';
import path from 'node:path';
import { registryStamp } from './read-registry.js';
import { newestFirst } from './newest-first.js';
import {
  SESSION_ORIGINS,
  SESSION_STATUSES,
  type Registry,
  type SessionOrigin,
  type SessionEntry,
  type SessionStatus,
} from './registry-schema.js';
import { isAgentName, type AgentName } from '../scan/agent-files/agent-name.js';

/** What `cc-linker list` shows and filters on for one session (a subset of `SessionEntry`). */
export type ListEntry = Pick<
  SessionEntry,
  'agent' | 'origin' | 'status' | 'title' | 'message_count' | 'last_active' | 'project_name' | 'cwd'
>;

/** One row on disk: `[id, origin, status, title, message_count, last_active, project_name, cwd, agent]`. */
type Row = [
  string,
  SessionOrigin,
  SessionStatus | null,
  string | null,
  number,
  string,
  string | null,
  string,
  AgentName,
];

/**
 * The index layout: 3 — rows carry the agent (9 fields); 4 — the origin may be `web` (an index
 * made from a v5 registry still labels the console's sessions `feishu`: it must not be used).
 */
const INDEX_VERSION = 4;

/** The first line of the file. */
interface ListIndexHeader {
  version: typeof INDEX_VERSION;
  /** `registryStamp` of the registry file this index was made from. */
  registry: string;
  /** How many rows follow. */
  count: number;
}

/** What `readListIndex` gives: how many sessions there are, and (the first of) them, newest first. */
export interface ListIndexRead {
  total: number;
  sessions: { id: string; entry: ListEntry }[];
}

/** `registry.list-index.json` beside the registry. */
export function listIndexFile(registryFile: string): string {
  return path.join(path.dirname(registryFile), 'registry.list-index.json');
}

/**
 * Writes the list index of `registry`, the content of `registryFile` when it had identity `stamp`
 * (`registryStamp`, taken after writing it or before reading it): the nine fields `list` needs
 * per session, one session a line, newest first (the order `list` shows), after a header line
 * with the count. A cold `cc-linker list` then parses the header and its first 20 lines instead
 * of every preview and path of thousands of sessions (a cold `list` must start fast). It is a cache:
 * written without fsync, tagged with the registry file's identity, and ignored by
 * `readListIndex` as soon as the registry is replaced by anything that does not rewrite it.
 */
export async function writeListIndex(registryFile: string, registry: Registry, stamp: string | null): Promise<void> {
  if (stamp === null) return;
  const sessions = Object.entries(registry.sessions).map(([id, entry]) => ({ id, entry }));
  const lines = newestFirst(sessions, sessions.length).map(({ id, entry: e }) =>
    JSON.stringify([
      id,
      e.origin,
      e.status ?? null,
      e.title,
      e.message_count,
      e.last_active,
      e.project_name,
      e.cwd,
      e.agent,
    ] satisfies Row),
  );
  const header: ListIndexHeader = { version: INDEX_VERSION, registry: stamp, count: lines.length };
  // Loaded here, not at the top: `list` reads this module on every cold start and writes an index
  // only after a full read, so a cold `list` never initialises the store's writers.
  const { writeFileAtomic } = await import('../../store/atomic-write.js');
  await writeFileAtomic(listIndexFile(registryFile), `${[JSON.stringify(header), ...lines].join('\n')}\n`, {
    durable: false,
  });
}

/**
 * The sessions of the list index, newest first — only the first `limit` when given (the total is
 * still the count of all) — or null when there is no usable index for the registry file as it is
 * now (missing, torn, another version, or made from an earlier registry): the caller then reads
 * the registry itself. Never throws.
 */
export async function readListIndex(registryFile: string, limit?: number): Promise<ListIndexRead | null> {
  try {
    // One synchronous read, like the registry's (see readJsonFile): a thread-pool round trip costs more.
    const bytes = fs.readFileSync(listIndexFile(registryFile));
    const stamp = await registryStamp(registryFile);
    let end = bytes.indexOf(0x0a);
    if (stamp === null || end < 0) return null;
    const header = JSON.parse(bytes.toString('utf8', 0, end)) as Partial<ListIndexHeader>;
    if (header.version !== INDEX_VERSION || header.registry !== stamp || !Number.isInteger(header.count)) return null;
    const total = header.count as number;
    const wanted = Math.min(total, limit ?? total);
    const sessions: { id: string; entry: ListEntry }[] = [];
    while (sessions.length < wanted) {
      const start = end + 1;
      end = bytes.indexOf(0x0a, start);
      if (end < 0) return null;
      const row = JSON.parse(bytes.toString('utf8', start, end)) as unknown;
      const entry = rowEntry(row);
      if (!entry) return null;
      sessions.push({ id: (row as Row)[0], entry });
    }
    // Read whole, the file must hold exactly `count` rows (a torn copy does not).
    if (limit === undefined && end + 1 !== bytes.length) return null;
    return { total, sessions };
  } catch {
    return null;
  }
}

function rowEntry(row: unknown): ListEntry | null {
  if (!Array.isArray(row) || row.length !== 9) return null;
  const [id, origin, status, title, count, lastActive, projectName, cwd, agent] = row as unknown[];
  if (
    typeof id !== 'string' ||
    !isAgentName(agent) ||
    !SESSION_ORIGINS.includes(origin as SessionOrigin) ||
    typeof count !== 'number' ||
    typeof lastActive !== 'string' ||
    typeof cwd !== 'string'
  )
    return null;
  if (status !== null && !SESSION_STATUSES.includes(status as SessionStatus)) return null;
  if ((title !== null && typeof title !== 'string') || (projectName !== null && typeof projectName !== 'string'))
    return null;
  return {
    agent,
    origin: origin as SessionOrigin,
    ...(status !== null ? { status: status as SessionStatus } : {}),
    title: title as string | null,
    message_count: count,
    last_active: lastActive,
    project_name: projectName as string | null,
    cwd,
  };
}
