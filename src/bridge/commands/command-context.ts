import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Paths } from '../../core/paths.js';
import type { SessionEntry } from '../../sessions/registry/registry-schema.js';
import type { PendingPrompts } from '../prompts/pending-prompts.js';
import type { ListSnapshots } from './list-snapshot.js';
import type { Reply } from '../reply-model.js';
import type { UserMapping } from '../mapping/user-mapping.js';
import type { AgentCatalog } from './agent-catalog.js';

/** A registry session together with its uuid (the registry's key) — what the commands show. */
export type SessionView = SessionEntry & { uuid: string };

/**
 * The read-only view of the session registry the chat commands need. Narrow on purpose so the
 * commands can be tested with an in-memory list; the runtime implements it over the registry,
 * its prefix resolution and its search (`sessions/`).
 */
export interface SessionDirectory {
  /** Every registered session, in any order (commands sort by `last_active`). */
  list(): Promise<SessionView[]>;
  /** One session by full uuid, or null. */
  get(uuid: string): Promise<SessionView | null>;
  /** Every session whose uuid starts with `prefix` (already lower-case); empty when none. */
  resolvePrefix(prefix: string): Promise<SessionView[]>;
  /** Sessions matching `keyword` in title, previews or project name, best match first. */
  search(keyword: string): Promise<SessionView[]>;
}

/** What `/status` shows about the running bridge (built by the bridge from the spool and dispatcher). */
export interface BridgeStatus {
  /** Messages waiting in `spool/pending`. */
  pending: number;
  /** Messages in `spool/processing`. */
  processing: number;
  /** Messages kept in `spool/failed` for diagnosis. */
  failed: number;
  /** Messages being handled right now (Claude runs included). */
  running: number;
  channels: Array<{ id: string; connected: boolean; detail?: string }>;
  /** Permission prompts / questions waiting for the user. */
  pendingPrompts: number;
  /** cc-linker is stopping: no new message is taken, running ones have the graceful stop's time left. */
  stopping?: boolean;
  /** When the graceful stop ends (ISO): what still runs then is resumed after the next start. */
  stopDeadline?: string;
}

/**
 * Everything a chat command may use. Commands are channel-neutral: they read and change the
 * mapping, the list snapshots and the registry, and return a reply model; they never talk to a
 * platform or start Claude themselves (a `/new … -- prompt` returns `run` for the dispatcher).
 */
export interface CommandContext {
  userId: string;
  /** The chat app the command came from (`feishu`, `telegram`, …); absent = Feishu. */
  channel?: string;
  /** The message carrying the command (claims are recorded under this id). */
  messageId: string;
  lang: Language;
  now: Date;
  config: Config;
  paths: Paths;
  mapping: UserMapping;
  listSnapshots: ListSnapshots;
  sessions: SessionDirectory;
  status: () => Promise<BridgeStatus>;
  /** The permission prompts waiting for the user, for the typed answers (`/allow 2`). */
  prompts: Pick<PendingPrompts, 'resolveByIndex'>;
  /** Discovered model aliases (config `claude.models` is merged in by the commands). */
  models: () => Promise<Array<{ alias: string; model: string }>>;
  /** The user's running and waiting turns, for `/stop` and `/queue` (absent: nothing runs here). */
  turns?: TurnCommands;
  /** The coding agents this daemon runs (absent: Claude Code alone). */
  agents?: AgentCatalog;
  /**
   * The Claude Code program a printed resume command names (`/resume`): `claude`, or the absolute
   * path of the binary this daemon runs when `claude` is not on PATH. Absent: `claude`.
   */
  claudeProgram?: string;
}

/** What `/stop` and `/queue` may do with the user's turns (the pipeline implements it). */
export interface TurnCommands {
  /**
   * Stops the user's running Claude turns: the one of the current target, or (`all`) every one.
   * `elsewhere` = running turns of the user that were left alone.
   */
  stop(userId: string, all: boolean): Promise<{ stopped: number; elsewhere: number }>;
  /** The user's running and waiting Claude messages, per session. */
  queue(userId: string): QueueView[];
}

/** One session's line of `/queue`: a short label, the running message and the waiting ones, in order. */
export interface QueueView {
  session: string;
  running?: string;
  waiting: string[];
}

/** A command's answer, plus the Claude run it starts (`/new <cwd> -- prompt`). */
export interface CommandOutcome {
  reply: Reply;
  /** When the command starts a run: the dispatcher creates the session with this (`agent` absent = Claude Code). */
  run?: { prompt: string; cwd: string; model?: string; agent?: string };
}
