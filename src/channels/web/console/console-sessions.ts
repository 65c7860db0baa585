import type { Language } from '../../../core/i18n.js';
import type { Paths } from '../../../core/paths.js';
import { tildify } from '../../../core/tildify.js';
import { agentLabel, projectOf, titleOf } from '../../../sessions/present/format-session.js';
import { readStoredTranscript, type StorageDirs } from '../../../sessions/present/read-stored-transcript.js';
import { statusOf, type SessionEntry } from '../../../sessions/registry/registry-schema.js';
import { readRegistry } from '../../../sessions/registry/registry.js';
import { isSparseSession } from '../../../sessions/registry/sparse-session.js';
import { searchSessions } from '../../../sessions/present/search-sessions.js';
import { TranscriptCache } from '../../../sessions/present/transcript-cache.js';
import { transcriptImage, transcriptView, type TranscriptImage, type TranscriptView } from './console-transcript.js';

/** Filters of the sessions page (all optional; `q` searches title, previews, project and cwd). */
export interface SessionFilter {
  q?: string;
  /** The agent's name (`claude`, `codex`, …): only that agent's sessions. */
  agent?: string;
  origin?: string;
  status?: string;
  project?: string;
  limit?: number;
}

/** One registry session as the page lists it (paths under home shown as `~/…`). */
export interface ConsoleSessionSummary {
  id: string;
  /** Whose session (`claude`, `codex`, `gemini`, `qwen`, `opencode`): the page and the lead's bridge decide from it. */
  agent: string;
  /** The agent as people call it (`Codex`); the console's agent catalog may name it better. */
  agentLabel: string;
  title: string;
  project: string;
  cwd: string;
  origin: string;
  status: string;
  createdAt: string;
  lastActive: string;
  messageCount: number;
  preview: string;
  /** Corrupted, empty or untitled (`isSparseSession`): listed after the others. */
  sparse: boolean;
}

/** One page of the list: `nextOffset` is where the next page starts, null after the last. */
export interface ConsoleSessionPage {
  sessions: ConsoleSessionSummary[];
  total: number;
  /** How many of the `total` are sparse (listed last): the page marks where they start. */
  sparse: number;
  nextOffset: number | null;
}

/** One project of the grouped list: how many sessions match in it, and its latest activity. */
export interface ConsoleProject {
  project: string;
  count: number;
  lastActive: string;
}

/** One turn of a session's transcript, cut for the page. */
export interface ConsoleTurn {
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  tools: Array<{ name: string; input: string; isError: boolean }>;
}

/**
 * The read-only view of the session registry the sessions pages need. Narrow so the server is
 * tested with an in-memory list; `createConsoleSessions` implements it over `src/sessions`.
 */
export interface ConsoleSessions {
  /**
   * Sessions matching the filter: the others most recently active first, then the sparse ones
   * (corrupted, empty, untitled; `isSparseSession`) most recently active first.
   */
  list(filter: SessionFilter): Promise<ConsoleSessionSummary[]>;
  /** The same order, `limit` (at most 500) rows from `offset`, with the number of matches. */
  page(filter: SessionFilter, offset: number): Promise<ConsoleSessionPage>;
  /** The projects of the matching sessions, most recently active first. */
  projects(filter: SessionFilter): Promise<ConsoleProject[]>;
  get(id: string): Promise<ConsoleSessionSummary | null>;
  /**
   * The last `n` turns of the session's transcript, read by its agent's reader (empty when its file
   * is missing, unreadable or outside the agent's storage directory).
   */
  recentTurns(id: string, n: number): Promise<ConsoleTurn[]>;
  /**
   * A page of the session's whole transcript (`transcriptView`): null when the session or its file
   * is not there or may not be read, `bad-cursor` for a cursor out of range. Absent: no transcript view.
   */
  transcript?(id: string, before: string | null, limit: number): Promise<TranscriptView | 'bad-cursor' | null>;
  /** Image `n` pasted into the session (`transcriptImage`); null when there is none. */
  transcriptImage?(id: string, n: number): Promise<TranscriptImage | null>;
  /** Rescans the session folders into the registry (the daemon's sync); absent: the list is read as it is. */
  rescan?(): Promise<void>;
}

/** Longest turn text sent to the page. */
export const TURN_TEXT_CHARS = 4000;
const MAX_LIST = 500;

/**
 * `ConsoleSessions` over the registry (`readRegistry`, re-read on every call so the page sees what
 * `sync` and the bridge wrote), its metadata search (`searchSessions`) and the transcript reader
 * (`readStoredTranscript`: Claude Code's or another agent's, and only from inside that agent's
 * own storage directory, symlinks resolved; a file over `maxFileSize` is not read).
 */
export function createConsoleSessions(
  paths: Pick<Paths, 'registryFile' | 'registryBackupDir' | 'locksDir' | 'userHome'> & StorageDirs,
  lang: Language,
  opts: { maxLineBytes?: number; maxFileSize?: number } = {},
): ConsoleSessions {
  const summary = (id: string, e: SessionEntry): ConsoleSessionSummary => ({
    id,
    agent: e.agent,
    agentLabel: agentLabel(e.agent),
    title: titleOf(e, lang),
    project: projectOf(e),
    cwd: tildify(e.cwd, paths.userHome),
    origin: e.origin,
    status: statusOf(e),
    createdAt: e.created_at,
    lastActive: e.last_active,
    messageCount: e.message_count,
    preview: e.last_message_preview,
    sparse: isSparseSession(e),
  });
  const load = async () => (await readRegistry(paths)).registry;
  const cache = new TranscriptCache(8);
  const readOpts = {
    ...(opts.maxLineBytes ? { maxLineBytes: opts.maxLineBytes } : {}),
    ...(opts.maxFileSize ? { maxFileSize: opts.maxFileSize } : {}),
  };
  const reading = async (id: string) => {
    const entry = (await load()).sessions[id];
    return entry ? { cache, id, entry, dirs: paths, opts: readOpts } : null;
  };
  /** The sessions matching `filter` in the page's order: the others newest first, then the sparse ones. */
  const matching = async (filter: SessionFilter): Promise<Array<[string, SessionEntry]>> => {
    const registry = await load();
    const q = filter.q?.trim() ?? '';
    let rows: Array<[string, SessionEntry]> = q
      ? searchSessions(registry, q).map((h) => [h.id, h.entry])
      : Object.entries(registry.sessions);
    if (filter.agent) rows = rows.filter(([, e]) => e.agent === filter.agent);
    if (filter.origin) rows = rows.filter(([, e]) => e.origin === filter.origin);
    if (filter.status) rows = rows.filter(([, e]) => statusOf(e) === filter.status);
    if (filter.project) {
      const p = filter.project.toLowerCase();
      rows = rows.filter(([, e]) => projectOf(e).toLowerCase() === p);
    }
    const keyed = rows.map(([id, e]) => ({ id, e, sparse: isSparseSession(e), t: Date.parse(e.last_active) || 0 }));
    keyed.sort((x, y) => Number(x.sparse) - Number(y.sparse) || y.t - x.t || (x.id < y.id ? -1 : 1));
    return keyed.map(({ id, e }) => [id, e]);
  };
  const pageOf = async (filter: SessionFilter, offset: number): Promise<ConsoleSessionPage> => {
    const rows = await matching(filter);
    const limit = Math.min(Math.max(1, filter.limit ?? 100), MAX_LIST);
    const from = Math.max(0, Math.floor(offset));
    const end = from + limit;
    return {
      sessions: rows.slice(from, end).map(([id, e]) => summary(id, e)),
      total: rows.length,
      sparse: rows.filter(([, e]) => isSparseSession(e)).length,
      nextOffset: end < rows.length ? end : null,
    };
  };
  return {
    async list(filter) {
      return (await pageOf(filter, 0)).sessions;
    },
    page: pageOf,
    async projects(filter) {
      const groups = new Map<string, ConsoleProject>();
      for (const [, e] of await matching(filter)) {
        const project = projectOf(e);
        const g = groups.get(project);
        if (!g) groups.set(project, { project, count: 1, lastActive: e.last_active });
        else {
          g.count += 1;
          if ((Date.parse(e.last_active) || 0) > (Date.parse(g.lastActive) || 0)) g.lastActive = e.last_active;
        }
      }
      return [...groups.values()].sort(
        (x, y) => (Date.parse(y.lastActive) || 0) - (Date.parse(x.lastActive) || 0) || (x.project < y.project ? -1 : 1),
      );
    },
    async get(id) {
      const e = (await load()).sessions[id];
      return e ? summary(id, e) : null;
    },
    async recentTurns(id, n) {
      const e = (await load()).sessions[id];
      if (!e) return [];
      const messages = await readStoredTranscript(id, e, paths, {
        thinking: false,
        ...(opts.maxLineBytes ? { maxLineBytes: opts.maxLineBytes } : {}),
        ...(opts.maxFileSize ? { maxFileSize: opts.maxFileSize } : {}),
      });
      if (!messages) return [];
      return messages.slice(-Math.max(1, Math.min(n, 200))).map((m) => ({
        role: m.role,
        timestamp: m.timestamp,
        text: m.text.length > TURN_TEXT_CHARS ? `${m.text.slice(0, TURN_TEXT_CHARS)}…` : m.text,
        tools: (m.tools ?? []).map((t) => ({ name: t.name, input: t.input, isError: t.isError })),
      }));
    },
    async transcript(id, before, limit) {
      const r = await reading(id);
      return r ? transcriptView(r, before, limit) : null;
    },
    async transcriptImage(id, n) {
      const r = await reading(id);
      return r ? transcriptImage(r, n) : null;
    },
  };
}
