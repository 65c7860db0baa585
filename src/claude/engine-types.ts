/**
 * The `ClaudeEngine` seam: one interface, three implementations (`sdk`, `stream-json`, `json`),
 * chosen by config. The bridge only ever sees these types, so a chat message is handled the same
 * way whichever mode runs it, and tests can swap in a fake engine.
 */

/** Which implementation runs Claude Code. */
export type EngineMode = 'sdk' | 'stream-json' | 'json';

/** One run of Claude Code: a prompt to a new session (no `sessionId`) or to an existing one. */
export interface EngineRequest {
  prompt: string;
  /** Absolute or `~`-prefixed working directory; the engine expands `~` and checks it exists. */
  cwd: string;
  /** Resume this session; absent = start a new session. */
  sessionId?: string;
  /**
   * For a new session: the id it gets (`--session-id`), chosen and saved by the caller before the
   * run, so a crash at any moment cannot lose which session the run created. If a session file
   * with this id already exists (an earlier attempt got that far), the engine resumes it instead.
   */
  newSessionId?: string;
  /** Model id or alias resolved by the caller (`--model`). */
  model?: string;
  /** Local image files referenced by the prompt. */
  imagePaths?: string[];
  /** Who the run is for (owner open_id / web user) — used to scope permission prompts. */
  userId?: string;
}

/** A tool use Claude wants to make that needs the user's decision. */
export interface PermissionRequest {
  /** Stable id of this prompt (the tool use id when known). */
  id: string;
  toolName: string;
  /** One line for humans: `Bash: npm test`, `Edit: src/a.ts`. */
  summary: string;
  input: Record<string, unknown>;
  /** Rules the user may accept as "always allow", e.g. `Bash(npm test:*)`. */
  suggestions: string[];
  /** Why Claude Code asks (its decision reason), when it says. */
  reason?: string;
}

/** AskUserQuestion surfaced as a question with options. */
export interface QuestionRequest {
  id: string;
  questions: Array<{
    question: string;
    header?: string;
    multiSelect?: boolean;
    options: Array<{ label: string; description?: string }>;
  }>;
}

export type PermissionDecision =
  { behavior: 'allow'; always?: boolean; rule?: string } | { behavior: 'deny'; message?: string };

/** Events emitted while a run is in progress; the same set in all three modes. */
export type EngineEvent =
  | { type: 'session'; sessionId: string; model?: string }
  | { type: 'text'; delta: string }
  | { type: 'thinking'; delta: string }
  | { type: 'tool_use'; id: string; name: string; summary: string }
  | { type: 'tool_result'; id: string; ok: boolean; summary?: string }
  | { type: 'permission_request'; request: PermissionRequest }
  | { type: 'question'; request: QuestionRequest }
  | { type: 'status'; status: string };

export interface PermissionDenial {
  toolName: string;
  toolUseId?: string;
  input?: Record<string, unknown>;
}

/** The result of a finished run; identical shape in all modes. */
export interface EngineResult {
  text: string;
  sessionId: string;
  costUsd: number | null;
  durationMs: number;
  numTurns: number;
  stopReason: string | null;
  permissionDenials: PermissionDenial[];
  model?: string;
  /** True when the engine is sure this run created a new session. */
  isNewSession: boolean;
}

/**
 * Decides permission prompts and questions for one run. The bridge implements it by asking the
 * user through the channel (buttons) and waiting; the engine applies `claude.allowed_tools`,
 * `claude.disallowed_tools` and persisted "always allow" rules before asking.
 */
export interface PermissionHandler {
  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
  askQuestion(
    request: QuestionRequest,
    signal: AbortSignal,
  ): Promise<{ answers: Record<string, string> } | { cancelled: true }>;
}

export interface EngineSendOptions {
  signal?: AbortSignal;
  onEvent?: (event: EngineEvent) => void;
  permissions?: PermissionHandler;
}

/** Runs Claude Code. Throws an `EngineError` subclass on failure; never leaves a process behind. */
export interface ClaudeEngine {
  readonly mode: EngineMode;
  send(request: EngineRequest, options?: EngineSendOptions): Promise<EngineResult>;
  /**
   * Where the transcript of session `sessionId` run in `cwd` is (or will be): a Claude Code session
   * file (JSONL), the ground truth of what a run did. Null when it cannot be named (a directory
   * that does not exist, an id that is not a file name). An engine without a transcript the bridge
   * can read leaves this out: a message it was running when the bridge crashed is then run again
   * from its prompt (see docs/design.md#recovery).
   */
  transcriptOf?(sessionId: string, cwd: string): string | null;
}
