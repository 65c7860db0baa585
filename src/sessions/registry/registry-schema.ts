import { isAgentName, type AgentName } from '../scan/agent-files/agent-name.js';

/**
 * `~/.cc-linker/registry.json`, schema v6: one entry per session of any agent (Claude Code,
 * Codex, Gemini CLI, Qwen Code, OpenCode), keyed by the agent's own session id
 * (see docs/design.md#the-session-registry):
 *
 * ```json
 * { "version": 6, "updated_at": "…", "sessions": { "<id>": SessionEntry } }
 * ```
 *
 * 5: every entry names its `agent`; a v1–v4 file is read as Claude Code's sessions only.
 * 6: `origin` may be `web` (started in the web console). A v5 file is read with its console
 * sessions (recorded as `feishu` with a `web:` user) relabelled `web`; a v5 cc-linker refuses a v6
 * file (it would turn `web` into `cli` on its next write).
 *
 * Validation is hand-written (no schema library) because `cc-linker list` reads this file on
 * every cold start. Unknown fields are kept, so a field added by a later minor version survives a
 * rewrite by this one.
 */
export const REGISTRY_SCHEMA = 6;

export const SESSION_STATUSES = ['provisioning', 'active', 'archived', 'degraded', 'corrupted'] as const;
/**
 * provisioning: created (we have the id) but `jsonl_path` not found yet · active: complete and
 * resumable · archived: idle for more than 30 days, still resumable · degraded: usable but with a
 * pending problem (see `last_error`) · corrupted: cannot be resumed (file unreadable, garbage, gone).
 */
export type SessionStatus = (typeof SESSION_STATUSES)[number];
/** Where a session was started: a terminal, Feishu, or the local web console. */
export const SESSION_ORIGINS = ['cli', 'feishu', 'web'] as const;
export type SessionOrigin = (typeof SESSION_ORIGINS)[number];

/** True for the origins of chat sessions (started through the bridge: Feishu or the web console). */
export function isChatOrigin(origin: SessionOrigin): boolean {
  return origin !== 'cli';
}

/**
 * The chat user id the web console runs as starts with `web` (`web:owner`); Feishu's open_ids
 * start with `ou_`. The same rule as the engine's `defaultOriginOf`.
 */
export function isWebUserId(userId: string | null | undefined): boolean {
  return typeof userId === 'string' && userId.startsWith('web');
}
export type { AgentName };

/** Idle time after which an active session is shown as archived. */
export const ARCHIVE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

/** One session, keyed by its uuid in `Registry.sessions`. Field names are the file's. */
export interface SessionEntry {
  /** Whose session: `claude` (Claude Code), `codex`, `gemini`, `qwen`, `opencode`. */
  agent: AgentName;
  origin: SessionOrigin;
  cwd: string;
  project_name: string | null;
  /**
   * The file the session is stored in (a JSONL file; OpenCode's: its database, shared by all its
   * sessions). Null while a new session's file has not been found yet.
   */
  jsonl_path: string | null;
  /** Claude Code: the encoded directory under `projects/`; Gemini, Qwen: their project directory name. */
  project_dir: string | null;
  pending_jsonl_resolve?: boolean;
  last_error?: string | null;
  feishu_session_id?: string | null;
  /** The chat user: open_id of the Feishu user (origin=feishu), `web:owner` (origin=web). */
  feishu_user_id?: string | null;
  created_at: string;
  last_active: string;
  title: string | null;
  message_count: number;
  /** ≤ 100 characters. */
  last_message_preview: string;
  /** ≤ 80 characters. */
  last_user_preview?: string;
  /** ≤ 80 characters. */
  last_assistant_preview?: string;
  status?: SessionStatus;
  /** Display only: the model the session used. */
  lastKnownProvider?: string | null;
}

export interface Registry {
  version: typeof REGISTRY_SCHEMA;
  updated_at: string;
  sessions: Record<string, SessionEntry>;
}

/** A registry with no sessions. */
export function emptyRegistry(now: Date = new Date()): Registry {
  return { version: REGISTRY_SCHEMA, updated_at: now.toISOString(), sessions: {} };
}

/** The outcome of `checkRegistry`. */
export type RegistryCheck =
  | { ok: true; registry: Registry; dropped: string[] }
  | { ok: false; reason: 'newer'; found: number }
  | { ok: false; reason: 'invalid'; detail: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const optStr = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';

/**
 * Checks a parsed registry. A newer `version` is reported (never rewritten by this code); a wrong
 * top-level shape is `invalid` (treat like a half-written file); a single malformed entry is
 * dropped and named in `dropped` (the next scan re-adds what is still on disk). Older versions
 * (1–5) are read with missing fields filled in (1–4: their entries are Claude Code's: `agent:
 * 'claude'`; 1–5: a `feishu` entry whose user is the web console's is `web`).
 */
export function checkRegistry(value: unknown): RegistryCheck {
  if (!isObj(value)) return { ok: false, reason: 'invalid', detail: 'not an object' };
  const version = value.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return { ok: false, reason: 'invalid', detail: 'missing version' };
  if (version > REGISTRY_SCHEMA) return { ok: false, reason: 'newer', found: version };
  if (!isObj(value.sessions)) return { ok: false, reason: 'invalid', detail: 'missing sessions' };
  const sessions: Record<string, SessionEntry> = {};
  const dropped: string[] = [];
  for (const [id, raw] of Object.entries(value.sessions)) {
    const entry = normalizeEntry(raw, version);
    if (entry) sessions[id] = entry;
    else dropped.push(id);
  }
  const updated = typeof value.updated_at === 'string' ? value.updated_at : new Date(0).toISOString();
  return { ok: true, registry: { ...value, version: REGISTRY_SCHEMA, updated_at: updated, sessions }, dropped };
}

/** True when `value` is a usable registry of this or an older schema (for backup recovery). */
export function isUsableRegistry(value: unknown): boolean {
  return checkRegistry(value).ok;
}

/**
 * A well-typed entry (missing optional fields filled), or null when it cannot be one. Fills the
 * parsed object in place instead of copying it: the registry is read on every cold start and the
 * copies (and the garbage collections they cause) were a measurable part of `cc-linker list`.
 */
function normalizeEntry(raw: unknown, version: number): SessionEntry | null {
  if (!isObj(raw)) return null;
  // Before v5 every entry was Claude Code's; from v5 on, an agent this version does not know makes
  // the entry unusable here (like an unknown status): dropped and reported.
  if (version < 5 || raw.agent === undefined) raw.agent = 'claude';
  else if (!isAgentName(raw.agent)) return null;
  if (typeof raw.cwd !== 'string' || typeof raw.created_at !== 'string' || typeof raw.last_active !== 'string')
    return null;
  if (!optStr(raw.jsonl_path) || !optStr(raw.title) || !optStr(raw.project_name) || !optStr(raw.project_dir))
    return null;
  if (raw.status !== undefined && !SESSION_STATUSES.includes(raw.status as SessionStatus)) return null;
  if (raw.origin !== 'feishu' && raw.origin !== 'web') raw.origin = 'cli';
  // Before v6 the console's sessions were recorded as `feishu`; their user tells them apart.
  if (version < 6 && raw.origin === 'feishu' && isWebUserId(raw.feishu_user_id as string | undefined))
    raw.origin = 'web';
  raw.project_name ??= null;
  raw.jsonl_path ??= null;
  raw.project_dir ??= null;
  raw.title ??= null;
  const count = raw.message_count;
  raw.message_count = typeof count === 'number' && Number.isFinite(count) && count >= 0 ? Math.floor(count) : 0;
  if (typeof raw.last_message_preview !== 'string') raw.last_message_preview = '';
  return raw as unknown as SessionEntry;
}

/** The status an entry is shown with (entries written without one are active). */
export function statusOf(entry: Pick<SessionEntry, 'status'>): SessionStatus {
  return entry.status ?? 'active';
}
