/**
 * Types shared by the fake Anthropic Messages API and the scripts that drive it.
 *
 * A test decides what "the model" answers by passing a {@link Script}: a function from a
 * digest of the request ({@link ScriptRequest}) to a {@link Reply}. The server turns the reply
 * into the exact SSE stream (or JSON message) the real API would send.
 */

/** One `tool_result` block of the last `role:"user"` message, flattened for scripts. */
export interface ScriptToolResult {
  tool_use_id: string;
  /** The result text; array contents are joined (text blocks only). */
  content: string;
  is_error: boolean;
  /** Name of the `tool_use` this result answers (looked up in earlier assistant turns), if found. */
  toolName: string | undefined;
  /** Input of that `tool_use`, if found. */
  toolInput: Record<string, unknown> | undefined;
}

/**
 * What a script sees of one `POST /v1/messages`.
 * `lastUserText` is the text of the LAST `role:"user"` message (the CLI appends a
 * `role:"system"` message after it, which is skipped), without `<system-reminder>` blocks the
 * CLI injects; empty when that message carries only tool results.
 */
export interface ScriptRequest {
  lastUserText: string;
  lastUserToolResults: ScriptToolResult[];
  messages: unknown[];
  model: string;
  system: unknown;
  tools: Array<{ name: string }>;
}

/** An API error answered instead of a message (HTTP status + Anthropic error body). */
export interface ReplyError {
  status: number;
  /** Anthropic error type, e.g. `invalid_request_error`, `overloaded_error`. */
  type: string;
  message: string;
}

/**
 * What "the model" answers. Blocks are emitted in the order thinking → text → tool_use.
 * `stopReason` defaults to `tool_use` when `toolUse` is set, else `end_turn`.
 * Streaming pacing: `delayMs` before any byte is sent; text/thinking/JSON split into
 * `chunkSize`-character deltas (default 16) with `chunkDelayMs` between them (default 0).
 */
export interface Reply {
  text?: string;
  thinking?: string;
  toolUse?: { name: string; input: object };
  delayMs?: number;
  chunkDelayMs?: number;
  chunkSize?: number;
  stopReason?: string;
  error?: ReplyError;
}

/** Decides the reply to one request; may be async (e.g. to wait for a test signal). */
export type Script = (req: ScriptRequest) => Reply | Promise<Reply>;

/** One HTTP request the fake received, kept for assertions. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Raw query string without `?` (e.g. `beta=true`), empty when absent. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or undefined when the body was empty or not JSON. */
  body: unknown;
  /** For `POST /v1/messages`: what the script saw and answered. */
  scriptRequest?: ScriptRequest;
  reply?: Reply;
}
