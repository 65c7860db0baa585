import { randomUUID } from 'node:crypto';
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, FinishReason, ProviderEvent, ToolCall, ToolSpec } from './canonical.js';

/**
 * Pure conversions between the canonical chat types and OpenAI Chat Completions, shared by OpenAI,
 * Doubao (Volcengine Ark) and every OpenAI-compatible endpoint: tools go out as `{type:'function',
 * function:{…}}`, a tool result goes back as a `tool` message, and streamed `tool_calls` fragments are
 * joined by index into whole calls. No I/O here: the provider feeds SDK chunks into
 * `OpenAIStreamDecoder`.
 */

/**
 * Canonical messages → `messages` of a chat.completions request. An assistant turn that called tools
 * becomes `{role:'assistant', content: text|null, tool_calls:[{id, type:'function', function:{name,
 * arguments}}]}` and each answer `{role:'tool', tool_call_id, content}` — the pair every
 * OpenAI-compatible server requires before the model may continue.
 */
export function toOpenAIMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content };
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: m.content.length > 0 ? m.content : null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.arguments.trim().length > 0 ? c.arguments : '{}' },
          })),
        };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

/** Canonical tools → `[{type:'function', function:{name, description, parameters}}]`. */
export function toOpenAITools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/**
 * The whole streamed request body. `tools` is left out when empty: some servers answer 400 to
 * `tools: []`, and a plain-chat provider must not be offered any.
 */
export function buildOpenAIRequest(
  model: string,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
): ChatCompletionCreateParamsStreaming {
  return {
    model,
    messages: toOpenAIMessages(messages),
    stream: true,
    stream_options: { include_usage: true },
    ...(tools.length > 0 ? { tools: toOpenAITools(tools) } : {}),
  };
}

/** One `delta.tool_calls[]` fragment as servers really send it (every field may be missing). */
export type ToolCallFragment = {
  index?: unknown;
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
};

type Slot = { index: number | undefined; id: string; name: string; args: string };

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * Rebuilds whole tool calls from streamed `delta.tool_calls` fragments, tolerant of everything real
 * OpenAI-compatible servers are known to send:
 * - fragments keyed by `index`, arguments arriving piecewise (OpenAI, doubao-1.5+);
 * - the whole call in one fragment (older Doubao);
 * - a fragment without `index`: it continues the call with its `id`, else the latest call;
 * - an `index` reused with a different `id`: a new call (servers that number every call 0);
 * - the name arriving in a later fragment than the id;
 * - `arguments` already an object (serialized once) and empty arguments for a no-arg call (`"{}"`);
 * - a missing id (a fresh `call_…` id is made, so the reply can name it).
 * Calls that never received a name are dropped: nothing could run them or echo them back.
 *
 * @example
 *   const acc = new ToolCallAccumulator();
 *   acc.push({ index: 0, id: 'call_1', function: { name: 'cc_exec', arguments: '{"comm' } });
 *   acc.push({ index: 0, function: { arguments: 'and":"status"}' } });
 *   acc.finish(); // [{ id: 'call_1', name: 'cc_exec', arguments: '{"command":"status"}' }]
 */
export class ToolCallAccumulator {
  private readonly slots: Slot[] = [];
  private readonly newId: () => string;

  constructor(options: { newId?: () => string } = {}) {
    this.newId = options.newId ?? (() => `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`);
  }

  /** Adds one fragment; non-object input is ignored. */
  push(fragment: unknown): void {
    if (typeof fragment !== 'object' || fragment === null) return;
    const f = fragment as ToolCallFragment;
    const slot = this.slotFor(typeof f.index === 'number' ? f.index : undefined, nonEmpty(f.id) ? f.id : undefined);
    const fn = typeof f.function === 'object' && f.function !== null ? f.function : {};
    if (nonEmpty(fn.name) && slot.name === '') slot.name = fn.name;
    const args = fn.arguments;
    if (typeof args === 'string') slot.args += args;
    else if (typeof args === 'object' && args !== null) slot.args = JSON.stringify(args);
  }

  /** The calls received so far, in arrival order; `"{}"` for empty arguments. */
  finish(): ToolCall[] {
    return this.slots
      .filter((s) => s.name !== '')
      .map((s) => ({
        id: s.id !== '' ? s.id : this.newId(),
        name: s.name,
        arguments: s.args.trim() === '' ? '{}' : s.args,
      }));
  }

  private slotFor(index: number | undefined, id: string | undefined): Slot {
    let slot: Slot | undefined;
    if (id !== undefined) slot = this.slots.find((s) => s.id === id);
    if (!slot && index !== undefined) {
      const atIndex = this.slots.findLast((s) => s.index === index);
      if (atIndex && !(id !== undefined && atIndex.id !== '' && atIndex.id !== id)) slot = atIndex;
    }
    if (!slot && index === undefined && id === undefined) slot = this.slots.at(-1);
    if (!slot) {
      slot = { index, id: '', name: '', args: '' };
      this.slots.push(slot);
    }
    if (id !== undefined && slot.id === '') slot.id = id;
    return slot;
  }
}

/** The parts of a `ChatCompletionChunk` the decoder reads, typed loosely: servers differ. */
export type OpenAIChunkLike = {
  choices?: Array<{
    index?: number;
    delta?: {
      content?: string | null;
      reasoning_content?: unknown;
      reasoning?: unknown;
      tool_calls?: unknown;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
};

/** `finish_reason` → canonical; `hadCalls` turns a missing or `stop` reason into `tool_calls`. */
export function mapOpenAIFinishReason(reason: string | undefined, hadCalls: boolean): FinishReason {
  if (reason === 'length') return 'length';
  if (hadCalls || reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  if (reason === 'stop') return 'stop';
  if (reason === 'error' || reason === 'insufficient_system_resource') return 'error';
  return 'other';
}

/**
 * Turns streamed chunks into canonical events: `content` → `text`, `reasoning_content` (Doubao,
 * DeepSeek) or `reasoning` (some local servers) → `reasoning`, `tool_calls` fragments → whole calls
 * yielded at the end of the turn, the `include_usage` chunk → `usage`, and one `finish`.
 * Whitespace-only `content` that rides in the same chunk as a tool call (older Doubao sends `"\n"`)
 * is dropped so it does not become a stray line in the answer.
 *
 * @example
 *   const d = new OpenAIStreamDecoder();
 *   for await (const chunk of sdkStream) yield* d.push(chunk);
 *   yield* d.end();
 */
export class OpenAIStreamDecoder {
  private readonly calls: ToolCallAccumulator;
  private finishReason: string | undefined;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;

  constructor(options: { newId?: () => string } = {}) {
    this.calls = new ToolCallAccumulator(options);
  }

  /** Events carried by one chunk (text and reasoning now; tool calls wait for `end`). */
  push(chunk: OpenAIChunkLike): ProviderEvent[] {
    const out: ProviderEvent[] = [];
    if (chunk.usage) {
      if (typeof chunk.usage.prompt_tokens === 'number') this.inputTokens = chunk.usage.prompt_tokens;
      if (typeof chunk.usage.completion_tokens === 'number') this.outputTokens = chunk.usage.completion_tokens;
    }
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      const reasoning = nonEmpty(delta.reasoning_content)
        ? delta.reasoning_content
        : nonEmpty(delta.reasoning)
          ? delta.reasoning
          : undefined;
      if (reasoning !== undefined) out.push({ type: 'reasoning', delta: reasoning });
      const fragments = Array.isArray(delta.tool_calls) ? delta.tool_calls : delta.tool_calls ? [delta.tool_calls] : [];
      for (const fragment of fragments) this.calls.push(fragment);
      if (nonEmpty(delta.content) && !(fragments.length > 0 && delta.content.trim() === ''))
        out.push({ type: 'text', delta: delta.content });
      if (nonEmpty(choice.finish_reason)) this.finishReason = choice.finish_reason;
    }
    return out;
  }

  /** The turn's tool calls, usage and finish, once the stream has ended. */
  end(): ProviderEvent[] {
    const calls = this.calls.finish();
    const out: ProviderEvent[] = calls.map((call) => ({ type: 'tool_call', call }));
    if (this.inputTokens !== undefined || this.outputTokens !== undefined) {
      out.push({ type: 'usage', inputTokens: this.inputTokens, outputTokens: this.outputTokens });
    }
    out.push({ type: 'finish', reason: mapOpenAIFinishReason(this.finishReason, calls.length > 0) });
    return out;
  }
}
