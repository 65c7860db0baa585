import type { EngineResult } from '../../engine/engine-types.js';
import type { ChatCommand } from '../commands/command-parser.js';
import type { InboundMessage } from '../inbound-message.js';
import type { Reply } from '../reply-model.js';

/**
 * Where a message goes (its "target snapshot"), fixed once when the dispatcher routes the message
 * — one user's messages in arrival order — and written into the record before anything runs.
 * Processing never reads the live user mapping, so a `/switch` only affects the messages that
 * arrived after it.
 */
export type TargetSnapshot =
  /** Continue an existing session of `agent` (absent = Claude Code). */
  | { kind: 'session'; sessionId: string; cwd: string; model?: string; agent?: string }
  /** Create a new session of `agent` in `cwd`; this message holds the claim on the user's pending slot. */
  | { kind: 'new'; cwd: string; model?: string; agent?: string }
  /** The answer is already known once routed (commands, "新会话正在创建…", guidance). */
  | { kind: 'reply'; reply: Reply }
  /** Ask the cc_exec gateway (`/cc <question>`). */
  | { kind: 'ccexec'; question: string };

/** The durable record of one message, as stored in exactly one spool state directory. */
export interface SpoolRecord {
  schema: 1;
  message: InboundMessage;
  /** The chat command the text is, parsed once by `accept()`; absent for plain text. */
  command?: ChatCommand;
  /** Absent until the dispatcher routed the message (see `TargetSnapshot`). */
  target?: TargetSnapshot;
  /** The prompt to run (plain text, or the part after `--` of `/new`). */
  prompt?: string;
  acceptedAt: string;
  /**
   * Arrival order: counted up by `accept()`, continued across restarts from the highest `seq` in
   * `pending/` (what a start re-queues), so it orders every record still to be routed or run.
   */
  seq: number;
  attempts: number;
  /** A new session's id as soon as Claude reports it, so a re-run resumes instead of creating another. */
  sessionId?: string;
  /**
   * The id a new session is created with, chosen and saved before Claude starts: a re-run after a
   * crash passes the same id, and the engine resumes the session if the first attempt created it.
   */
  plannedSessionId?: string;
  /**
   * Saved just before the engine starts (and kept by every later attempt): the run may have
   * reached the agent, so a re-run first asks the session's transcript what happened.
   */
  run?: RunStart;
  /** Persisted once the run finished and before any chunk is sent: a restart never re-runs Claude. */
  outcome?: RunOutcome;
  /**
   * Notifications already sent for this message (`turn-notifier.ts`): saved before each is sent, so
   * a re-run or a restart never sends one twice. `turn` = when the end-of-turn one went out;
   * `prompts` = the ids of the prompts whose waiting was notified.
   */
  notified?: { turn?: string; prompts?: string[] };
  /** Why the message ended in `failed/`. */
  failure?: { code: string; message: string; at: string };
  /**
   * Binds the Stop / Cancel buttons of this message's card to it (chosen by `accept()`, saved with
   * the message, so a click still counts after a restart; a forged click without it changes nothing).
   */
  nonce?: string;
  /**
   * The owner stopped this message (saved before its run is aborted). A record with no outcome
   * yet is never run again: it ends in `cancelled/` with its card "Stopped" or "Cancelled".
   */
  stop?: { at: string; queued: boolean };
}

/** Where a message's run began: which session it writes to and where its transcript stood. */
export interface RunStart {
  /** When the first attempt started the engine (ISO). */
  startedAt: string;
  /** The session the run writes to (resumed, or the new session's planned id). */
  sessionId: string;
  /** That session's transcript, when the engine keeps one (`AgentEngine.transcriptOf`). */
  transcript?: string;
  /** The transcript's size in bytes then: the prompt's line, if written, starts at or after it. */
  offset?: number;
  /** How often the turn was resumed with the continue instruction after an interruption. */
  continued?: number;
  /**
   * How many starts of cc-linker re-queued this run (set by `recoverSpool`): its card then says it
   * was resumed after a restart, and its timer keeps counting from `startedAt`.
   */
  restarts?: number;
}

/** A record the dispatcher has routed: what the run phase works on. */
export type RoutedRecord = SpoolRecord & { target: TargetSnapshot };

/** Whether a record has been routed (its target is fixed and persisted). */
export function isRouted(record: SpoolRecord): record is RoutedRecord {
  return record.target !== undefined;
}

/** The finished result of processing, ready for delivery. */
export type RunOutcome =
  | {
      kind: 'engine';
      result: Omit<EngineResult, 'permissionDenials'> & { permissionDenials: number };
      reply: Reply & { kind: 'card' };
      fullText: string;
      /** The answer was read from the session's transcript after a crash: no run, figures unknown. */
      fromTranscript?: boolean;
      /** The turn was resumed with the continue instruction after an interruption. */
      continued?: boolean;
    }
  | { kind: 'reply'; reply: Reply }
  | { kind: 'error'; code: string; reply: Reply };

/** The spool's state directories, in lifecycle order; `done/`, `failed/` and `cancelled/` are final. */
export const SPOOL_STATES = ['pending', 'processing', 'replied', 'done', 'failed', 'cancelled'] as const;
export type SpoolState = (typeof SPOOL_STATES)[number];

/** The error code of the outcome of a message the owner stopped or cancelled. */
export const CANCELLED_CODE = 'CANCELLED';

/** The final state of a record whose reply was delivered: stopped → `cancelled/`, error → `failed/`, else `done/`. */
export function finalStateOf(record: SpoolRecord): 'done' | 'failed' | 'cancelled' {
  const outcome = record.outcome;
  if (outcome?.kind === 'error') return outcome.code === CANCELLED_CODE && record.stop ? 'cancelled' : 'failed';
  return 'done';
}
