/**
 * The `AgentEngine` seam: one interface for every coding agent. Claude Code has three native
 * implementations (`sdk`, `stream-json`, `json`, chosen by config); every other agent is reached
 * over the Agent Client Protocol (`acp`). The bridge only ever sees these types, so a chat message
 * is handled the same way whichever agent and mode runs it, and tests can swap in a fake engine.
 */

/** The agent a request goes to when it names none: Claude Code, on its native engine. */
export const DEFAULT_AGENT = 'claude';

/** Which implementation runs an agent. */
export type EngineMode = 'sdk' | 'stream-json' | 'json' | 'acp';

/** One run of an agent: a prompt to a new session (no `sessionId`) or to an existing one. */
export interface EngineRequest {
  /** The agent that runs it (`claude`, `codex`, …); absent = `DEFAULT_AGENT`. */
  agent?: string;
  prompt: string;
  /** Absolute or `~`-prefixed working directory; the engine expands `~` and checks it exists. */
  cwd: string;
  /** Resume this session; absent = start a new session. */
  sessionId?: string;
  /**
   * For a new session: the id it gets (`--session-id`), chosen and saved by the caller before the
   * run, so a crash at any moment cannot lose which session the run created. If a session file
   * with this id already exists (an earlier attempt got that far), the engine resumes it instead.
   * Agents that choose their own ids (ACP) ignore it; their id is announced by the `session` event.
   */
  newSessionId?: string;
  /** Model id or alias resolved by the caller (`--model`). */
  model?: string;
  /** Local image files referenced by the prompt. */
  imagePaths?: string[];
  /**
   * Local files (not images) the prompt names, each in a folder of its message only. Engines
   * that can make folders readable without a permission prompt do so for these folders, and for
   * nothing else (Claude Code: `--add-dir` / `additionalDirectories`).
   */
  filePaths?: string[];
  /** Who the run is for (owner open_id / web user) — used to scope permission prompts. */
  userId?: string;
}

/** A tool use the agent wants to make that needs the user's decision. */
export interface PermissionRequest {
  /** Stable id of this prompt (the tool use id when known). */
  id: string;
  toolName: string;
  /** What kind of tool it is, when the agent says (ACP: `execute`, `edit`, `read`, `fetch`, …). */
  kind?: string;
  /** One line for humans: `Bash: npm test`, `Edit: src/a.ts`. */
  summary: string;
  input: Record<string, unknown>;
  /** Rules the user may accept as "always allow", e.g. `Bash(npm test:*)`. */
  suggestions: string[];
  /** Why the agent asks (its decision reason), when it says. */
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

/** One step of the agent's plan for the turn. */
export interface PlanEntry {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** Events emitted while a run is in progress; the same set for every agent and mode. */
export type EngineEvent =
  | { type: 'session'; sessionId: string; model?: string }
  | { type: 'text'; delta: string }
  | { type: 'thinking'; delta: string }
  | { type: 'tool_use'; id: string; name: string; summary: string }
  | { type: 'tool_result'; id: string; ok: boolean; summary?: string }
  | { type: 'permission_request'; request: PermissionRequest }
  | { type: 'question'; request: QuestionRequest }
  | { type: 'plan'; entries: PlanEntry[] }
  | { type: 'status'; status: string };

export interface PermissionDenial {
  toolName: string;
  toolUseId?: string;
  input?: Record<string, unknown>;
}

/** The result of a finished run; identical shape for every agent and mode. */
export interface EngineResult {
  /** The agent that ran it (set by the guard). */
  agent?: string;
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
  /** Tokens the turn used, when the agent reports them. */
  usage?: { inputTokens?: number; outputTokens?: number };
}

/**
 * Decides permission prompts and questions for one run. The bridge implements it by asking the
 * user through the channel (buttons) and waiting; the engine applies its configured and persisted
 * "always allow" rules before asking.
 */
export interface PermissionHandler {
  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision>;
  askQuestion(
    request: QuestionRequest,
    signal: AbortSignal,
  ): Promise<{ answers: Record<string, string> } | { cancelled: true }>;
}

/** What the agent asked to send into the chat (`mcp__cc-linker__send_file`). */
export interface SendFileRequest {
  path: string;
  caption?: string;
}

/**
 * Sends files into the chat of one run (docs/design.md#files-out): the bridge checks the path and
 * hands the file to the channel. `text` is what the agent reads as the tool's answer — what was
 * sent, or why not (in the user's language); `ok` false marks a refusal or a failure.
 */
export interface FileSender {
  sendFile(request: SendFileRequest): Promise<{ ok: boolean; text: string }>;
}

export interface EngineSendOptions {
  signal?: AbortSignal;
  onEvent?: (event: EngineEvent) => void;
  permissions?: PermissionHandler;
  /** The run's file sender; absent = the agent is offered no send_file tool answer but a refusal. */
  files?: FileSender;
}

/** A model an agent offers, for `/model`. */
export interface AgentModel {
  id: string;
  name?: string;
}

/** Runs an agent. Throws an `EngineError` on failure; never leaves a process behind. */
export interface AgentEngine {
  /** The agent it runs (`claude`, `codex`, …); a router answers for several. */
  readonly agent: string;
  readonly mode: EngineMode;
  send(request: EngineRequest, options?: EngineSendOptions): Promise<EngineResult>;
  /**
   * Where the transcript of session `sessionId` run in `cwd` is (or will be), in a format the
   * bridge's recovery reads (a Claude Code session file): the ground truth of what a run did. Null
   * when it cannot be named (a directory that does not exist, an id that is not a file name, an
   * agent whose transcript the bridge cannot read): a message it was running when the bridge
   * crashed is then run again from its prompt (see docs/design.md#recovery). `agent` picks the
   * engine when several answer behind one router.
   */
  transcriptOf?(sessionId: string, cwd: string, agent?: string): string | null;
  /** The models the agent offers in `cwd`, where it can say (`/model`). */
  listModels?(agent?: string): Promise<AgentModel[]>;
  /** Ends what the engine keeps running between turns (warm processes); later turns start cold. */
  close?(): Promise<void>;
}
