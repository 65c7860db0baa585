/**
 * Provider-neutral chat types of the cc_exec gateway.
 *
 * The tool loop speaks only these types; each provider converts them to its wire format in pure
 * functions (`openai-wire.ts`, `anthropic-wire.ts`) and turns its stream back into `ProviderEvent`s.
 * Nothing here imports an SDK, so the loop, the UI and the tests never depend on one.
 */

/** A JSON Schema object describing a tool's arguments (the `parameters` of a function tool). */
export type JSONSchema = {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
};

/**
 * One tool call the model asked for. `arguments` is the JSON text exactly as the provider sent it
 * (`"{}"` for a call without arguments); parsing it safely is the dispatcher's job, so a malformed
 * argument string reaches the dispatcher intact and earns its exit 64.
 *
 * @example { id: 'call_1', name: 'cc_exec', arguments: '{"command":"note","subargs":["list"]}' }
 */
export type ToolCall = { id: string; name: string; arguments: string };

/** A tool the model may call: `{ name: 'cc_exec', description, parameters: { type: 'object', … } }`. */
export type ToolSpec = { name: string; description: string; parameters: JSONSchema };

/**
 * One message of the conversation. An assistant turn that asked for tools carries its `toolCalls`,
 * and each answer is a `tool` message naming the call it answers (`toolCallId`) — both are sent
 * back on the next request, as every provider requires.
 */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

/** Why a model turn ended, mapped from `finish_reason` / `stop_reason`. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'error' | 'other';

/**
 * What a provider stream yields, in order: any number of `text` / `reasoning` deltas and complete
 * `tool_call`s (a call is yielded once its arguments are whole — OpenAI-style providers at the end
 * of the turn, Anthropic when its block closes), at most one `usage`, then exactly one `finish` as the
 * last event. Decide whether to run tools from the `tool_call` events, not from the finish reason:
 * some OpenAI-compatible servers end a tool turn with `stop` or with no reason at all.
 */
export type ProviderEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; inputTokens?: number; outputTokens?: number }
  | { type: 'finish'; reason: FinishReason };

/**
 * The ModelProvider seam: one configured model behind one wire protocol.
 *
 * `stream` sends the whole conversation and yields the answer as `ProviderEvent`s. `tools` are sent
 * only when `supportsTools` is true (a plain-chat provider ignores them; the loop then prepends
 * `plainChatGuardMessage`). Failures throw `ProviderError` (never containing the API key); an abort
 * through `signal` — or the consumer leaving the loop early — closes the HTTP request at once, and an
 * aborted stream throws `ProviderError` with code `PROVIDER_ABORTED`.
 */
export interface ModelProvider {
  /** The `[ccexec.providers.<id>]` name. */
  readonly id: string;
  /** The wire family: `openai`, `doubao`, `openai-compatible` or `anthropic`. */
  readonly kind: string;
  readonly model: string;
  readonly supportsTools: boolean;
  /**
   * Tools are tried, not required (an `openai-compatible` provider whose config leaves `tools` unset):
   * when the server refuses them (`ProviderError` `tools_rejected`) the loop asks again as plain chat
   * with the anti-hallucination guard. False or absent: a refusal is the user's error to see.
   */
  readonly toolsAuto?: boolean;
  /** Context window in tokens, for the loop's history watchdog. */
  readonly contextLimit: number;
  stream(messages: ChatMessage[], tools: ToolSpec[], signal?: AbortSignal): AsyncIterable<ProviderEvent>;
  /**
   * Starts loading what the first `stream` needs (the SDK, loaded lazily), so a caller can overlap it
   * with its own start-up work; `stream` works without it. May reject; `stream` then reports the failure.
   */
  prepare?(): Promise<void>;
}
