import path from 'node:path';
import { isInside } from '../../core/path-inside.js';
import {
  ARCHIVE_AFTER_MS,
  isWebUserId,
  REGISTRY_SCHEMA,
  type Registry,
  type SessionEntry,
  type SessionStatus,
} from './registry-schema.js';
import { encodeProjectDir } from '../scan/project-dir.js';
import type { ScannedSession } from '../scan/scanned-session.js';
import type { AgentName } from '../scan/agent-files/agent-name.js';
import type { AgentsScan } from '../scan/agent-files/scan-agents.js';
import type { DiscoveryEvent } from '../hook/session-events.js';
import type { MappedSession } from './mapped-session.js';

/** What a scan contributes to a merge (a subset of `ProjectsScan`). */
export interface MergeScan {
  sessions: ScannedSession[];
  /** Ids whose files exist but were not read (too large): their entries are kept as they are. */
  unscannedIds: string[];
  /** Directories that could not be listed: entries with files under them are kept as they are. */
  unlistedDirs: string[];
}

/** What the other agents' scan contributes to a merge (a subset of `AgentsScan`). */
export type MergeAgentsScan = Pick<AgentsScan, 'sessions' | 'agents' | 'kept'>;

/** Counts for the `init` / `sync` summary. */
export interface MergeStats {
  /** Claude Code sessions found in JSONL files. */
  scanned: number;
  /** Sessions of the other agents found, per agent (only agents with at least one). */
  others?: Partial<Record<AgentName, number>>;
  /** Entries with origin=feishu in the result (carried over from the registry or the mapping). */
  feishu: number;
  added: number;
  /** Entries whose file disappeared since the last scan (now corrupted). */
  missing: number;
  total: number;
}

/** `last_error` of an entry whose file went away. */
export const MISSING_FILE_ERROR = 'JSONL file missing';

/**
 * Builds the next registry from the previous one, a scan, hook discovery events and the user
 * mapping. Pure and deterministic (sessions sorted by id), so scan → merge → rescan → merge is a
 * fixed point and the property test can prove it.
 *
 * Rules:
 * - The scan is the truth about files: cwd, title, counts, previews, times, health. A session in
 *   the scan is `corrupted` when its file is unreadable/garbage, else `archived` after 30 days
 *   idle, else `active` — except a `degraded` entry whose problem was not the missing file, which
 *   stays degraded (the bridge owns that problem).
 * - Enrichments survive every rescan: `origin` `feishu` or `web`, `feishu_user_id`, `feishu_session_id`,
 *   `lastKnownProvider`, `last_error` (cleared only when the scan fixes what it was about), and any
 *   field this version does not know.
 * - An entry not in the scan is kept unchanged when its file was not judged (too large, directory
 *   unreadable) or does not exist yet (`jsonl_path` null: provisioning/degraded); it becomes
 *   `corrupted` ("JSONL file missing") when its file is gone.
 * - A discovery event for an unknown session adds a `provisioning` entry (the file comes later);
 *   for a known one it only moves `last_active` forward.
 * - A mapping entry with `origin: 'feishu'` marks its session chat-origin with the user's
 *   id: `web` when the user is the web console's (`web:…`), else `feishu`; an unknown mapped session with a cwd is added as `provisioning`.
 * - Every entry names its `agent`. The Claude scan judges Claude Code's entries, the agents'
 *   scan (`agents`) the others' by the same rules: an entry of an agent that was not scanned, or
 *   whose file or directory could not be judged (`kept`), stays as it is. An id one agent's
 *   session already holds is never taken over by another agent's.
 */
export function mergeRegistry(
  existing: Registry | null,
  scan: MergeScan,
  events: readonly DiscoveryEvent[],
  mapping: readonly MappedSession[],
  now: Date,
  agents: MergeAgentsScan = { sessions: [], agents: [], kept: [] },
): { registry: Registry; stats: MergeStats } {
  const prev = existing?.sessions ?? {};
  const next: Record<string, SessionEntry> = {};
  const nowMs = now.getTime();
  const stats: MergeStats = { scanned: scan.sessions.length, feishu: 0, added: 0, missing: 0, total: 0 };
  const others: Partial<Record<AgentName, number>> = {};
  for (const { agent } of agents.sessions) others[agent] = (others[agent] ?? 0) + 1;
  if (agents.sessions.length > 0) stats.others = others;

  const same = (id: string, agent: AgentName) => {
    const before = prev[id];
    return before && before.agent === agent ? before : undefined;
  };
  for (const s of scan.sessions) next[s.sessionId] = fromScan(s, same(s.sessionId, 'claude'), nowMs, 'claude');
  for (const { agent, session: s } of agents.sessions) {
    if (next[s.sessionId] || (prev[s.sessionId] && prev[s.sessionId]?.agent !== agent)) continue;
    next[s.sessionId] = fromScan(s, same(s.sessionId, agent), nowMs, agent);
  }

  const unscanned = new Set(scan.unscannedIds);
  const scannedAgents = new Set<AgentName>(agents.agents);
  for (const [id, entry] of Object.entries(prev)) {
    if (next[id]) continue;
    const claude = entry.agent === 'claude';
    const keep =
      entry.jsonl_path === null ||
      (claude
        ? unscanned.has(id) || scan.unlistedDirs.some((d) => isInside(entry.jsonl_path as string, d))
        : !scannedAgents.has(entry.agent) || agents.kept.some((d) => isInside(entry.jsonl_path as string, d)));
    if (keep) {
      next[id] = { ...entry };
      continue;
    }
    stats.missing += entry.status === 'corrupted' && entry.last_error === MISSING_FILE_ERROR ? 0 : 1;
    next[id] = { ...entry, status: 'corrupted', last_error: MISSING_FILE_ERROR };
  }

  // First every entry that events or the mapping announce, then the updates, so the result does
  // not depend on which source mentioned a session first (needed for the fixed point).
  for (const e of events) {
    if (!next[e.session_id] && e.cwd) next[e.session_id] = pendingEntry(e.cwd, e.time, 'cli');
  }
  for (const m of mapping) {
    if (!next[m.sessionId] && m.cwd) next[m.sessionId] = pendingEntry(m.cwd, m.createdAt ?? now.toISOString(), 'cli');
  }
  for (const e of events) {
    const entry = next[e.session_id];
    if (entry && entry.jsonl_path === null) entry.last_active = maxIso(entry.last_active, e.time) ?? entry.last_active;
  }
  for (const m of mapping) {
    const entry = next[m.sessionId];
    if (!entry) continue;
    if (m.origin === 'feishu') {
      if (entry.origin === 'cli') entry.origin = isWebUserId(m.openId) ? 'web' : 'feishu';
      entry.feishu_user_id ??= m.openId;
    }
    if (m.provider && !entry.lastKnownProvider) entry.lastKnownProvider = m.provider;
  }

  const sessions: Record<string, SessionEntry> = {};
  for (const id of Object.keys(next).sort()) {
    const entry = withIdleStatus(next[id] as SessionEntry, nowMs);
    sessions[id] = entry;
    if (!prev[id]) stats.added += 1;
    if (entry.origin === 'feishu') stats.feishu += 1;
  }
  stats.total = Object.keys(sessions).length;
  return {
    registry: { ...(existing ?? {}), version: REGISTRY_SCHEMA, updated_at: now.toISOString(), sessions },
    stats,
  };
}

/** The entry for a scanned session, carrying the previous entry's enrichments. */
function fromScan(s: ScannedSession, before: SessionEntry | undefined, nowMs: number, agent: AgentName): SessionEntry {
  const cwd = s.cwd ?? before?.cwd ?? '';
  // Never backwards: the bridge may have recorded activity the file does not show yet.
  const lastActive = maxIso(s.lastActive, before?.last_active ?? null) ?? new Date(nowMs).toISOString();
  const entry: SessionEntry = {
    ...before,
    agent,
    origin: before?.origin ?? 'cli',
    cwd,
    project_name: cwd ? path.basename(cwd) || null : (before?.project_name ?? null),
    jsonl_path: s.jsonlPath,
    project_dir: s.projectDir || null,
    created_at: s.createdAt ?? before?.created_at ?? lastActive,
    last_active: lastActive,
    title: s.title ?? s.firstPrompt ?? before?.title ?? null,
    message_count: s.messageCount,
    last_message_preview: s.lastMessagePreview,
    last_user_preview: s.lastUserPreview,
    last_assistant_preview: s.lastAssistantPreview,
    lastKnownProvider: before?.lastKnownProvider ?? s.model ?? null,
  };
  if (entry.pending_jsonl_resolve !== undefined) delete entry.pending_jsonl_resolve; // a delete makes V8 turn the object into a slow dictionary
  if (s.health === 'corrupted') {
    entry.status = 'corrupted';
    entry.last_error = s.problem;
    return entry;
  }
  const wasWaitingForFile =
    before !== undefined &&
    (before.jsonl_path === null || before.pending_jsonl_resolve === true || before.last_error === MISSING_FILE_ERROR);
  const wasBrokenFile = before?.status === 'corrupted';
  if (before?.status === 'degraded' && !wasWaitingForFile) {
    entry.status = 'degraded';
    return entry;
  }
  if (wasWaitingForFile || wasBrokenFile) entry.last_error = null;
  entry.status = 'active'; // or archived: mergeRegistry's withIdleStatus judges every entry's age once
  return entry;
}

/** A session known only by id and cwd: its file does not exist (yet). */
function pendingEntry(cwd: string, time: string, origin: SessionEntry['origin']): SessionEntry {
  return {
    agent: 'claude', // events and the mapping are Claude Code's
    origin,
    cwd,
    project_name: path.basename(cwd) || null,
    jsonl_path: null,
    project_dir: encodeProjectDir(cwd),
    pending_jsonl_resolve: true,
    last_error: null,
    created_at: time,
    last_active: time,
    title: null,
    message_count: 0,
    last_message_preview: '',
    status: 'provisioning',
  };
}

/** active ↔ archived by idle time; other statuses are left alone. */
function withIdleStatus(entry: SessionEntry, nowMs: number): SessionEntry {
  if (entry.status === undefined || entry.status === 'active' || entry.status === 'archived')
    entry.status = idleStatus(entry.last_active, nowMs);
  return entry;
}

/** `archived` when idle for more than 30 days, else `active`. */
export function idleStatus(lastActive: string, nowMs: number): SessionStatus {
  const t = Date.parse(lastActive);
  return !Number.isNaN(t) && nowMs - t > ARCHIVE_AFTER_MS ? 'archived' : 'active';
}

function maxIso(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}
