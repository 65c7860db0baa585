import { randomUUID } from 'node:crypto';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, FinishReason, ProviderEvent, ToolCall, ToolSpec } from './canonical.js';

/**
 * Pure conversions between the canonical chat types and the Anthropic Messages API: tools go out as
 * `{name, description, input_schema}`, a tool result goes back inside a **user** message as a
 * `tool_result` block, and streamed `input_json_delta` pieces are joined into one call. No I/O here:
 * the provider feeds SDK events into `AnthropicStreamDecoder`.
 */

/** `max_tokens` is mandatory in the Messages API; a chat answer over cc output fits well within it. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** Canonical tools → `[{name, description, input_schema}]`. */
export function toAnthropicTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
}

/**
 * A tool call's JSON text → the `input` object a `tool_use` block must carry. Text that is not a
 * JSON object (the model produced garbage, which the dispatcher already answered with exit 64) is
 * echoed as `{}`: the API rejects anything else, and the tool result explains what happened.
 */
export function toolInputObject(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

type Turn = { role: 'user' | 'assistant'; blocks: ContentBlockParam[] };

function blocksOf(m: Exclude<ChatMessage, { role: 'system' }>): ContentBlockParam[] {
  // The API rejects empty and whitespace-only text blocks.
  const text: ContentBlockParam[] = m.content.trim() !== '' ? [{ type: 'text', text: m.content }] : [];
  if (m.role === 'user') return text;
  if (m.role === 'tool') {
    return [
      { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, ...(m.isError ? { is_error: true } : {}) },
    ];
  }
  const uses = (m.toolCalls ?? []).map((c): ContentBlockParam => ({
    type: 'tool_use',
    id: c.id,
    name: c.name,
    input: toolInputObject(c.arguments),
  }));
  return [...text, ...uses];
}

/**
 * Canonical messages → `{ system, messages }`. System messages are joined into the `system`
 * parameter; an assistant turn keeps its `tool_use` blocks (the API requires the asking turn to be
 * sent back); `tool` messages become `tool_result` blocks of a **user** message. Consecutive
 * messages of one role are merged into one turn, with `tool_result` blocks first as the API demands,
 * and a turn with a single text block is sent as a plain string.
 *
 * @example
 *   toAnthropicMessages([{role:'system',content:'S'},{role:'user',content:'hi'}])
 *   // { system: 'S', messages: [{ role: 'user', content: 'hi' }] }
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): {
  system: string | undefined;
  messages: MessageParam[];
} {
  const system: string[] = [];
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      if (m.content.trim() !== '') system.push(m.content);
      continue;
    }
    const blocks = blocksOf(m);
    if (blocks.length === 0) continue;
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const last = turns.at(-1);
    if (last && last.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  }
  return {
    system: system.length > 0 ? system.join('\n\n') : undefined,
    messages: turns.map((t): MessageParam => {
      const ordered = [
        ...t.blocks.filter((b) => b.type === 'tool_result'),
        ...t.blocks.filter((b) => b.type !== 'tool_result'),
      ];
      const only = ordered.length === 1 ? ordered[0] : undefined;
      return { role: t.role, content: only?.type === 'text' ? only.text : ordered };
    }),
  };
}

/** The whole streamed request body; `tools` and `system` are left out when empty. */
export function buildAnthropicRequest(
  model: string,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  maxTokens: number = ANTHROPIC_DEFAULT_MAX_TOKENS,
): MessageCreateParamsStreaming {
  const converted = toAnthropicMessages(messages);
  return {
    model,
    max_tokens: maxTokens,
    messages: converted.messages,
    stream: true,
    ...(converted.system !== undefined ? { system: converted.system } : {}),
    ...(tools.length > 0 ? { tools: toAnthropicTools(tools) } : {}),
  };
}

/** `stop_reason` → canonical; a turn that produced tool calls finishes as `tool_calls` unless cut short. */
export function mapAnthropicStopReason(reason: string | undefined, hadCalls: boolean): FinishReason {
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  if (hadCalls || reason === 'tool_use') return 'tool_calls';
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  return 'other';
}

type Usage = { input_tokens?: unknown; output_tokens?: unknown } | null;

/** The parts of a raw Messages stream event the decoder reads, typed loosely (proxies differ). */
export type AnthropicEventLike = {
  type: string;
  index?: number;
  message?: { usage?: Usage };
  content_block?: { type: string; text?: unknown; thinking?: unknown; id?: unknown; name?: unknown; input?: unknown };
  delta?: { type?: unknown; text?: unknown; thinking?: unknown; partial_json?: unknown; stop_reason?: unknown };
  usage?: Usage;
};

type OpenToolBlock = { id: string; name: string; json: string; startInput: unknown };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Turns raw stream events into canonical events: `text_delta` → `text`, `thinking_delta` →
 * `reasoning`, a `tool_use` block plus its `input_json_delta` pieces → one `tool_call` when the block
 * stops (its input taken from the start event when no delta came, `"{}"` when empty; an id made up
 * when a proxy dropped it), the usage
 * of `message_start` / `message_delta` → `usage`, and one `finish` at the end.
 */
export class AnthropicStreamDecoder {
  private readonly open = new Map<number, OpenToolBlock>();
  private stopReason: string | undefined;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;
  private calls = 0;

  /** Events carried by one stream event. */
  push(event: AnthropicEventLike): ProviderEvent[] {
    switch (event.type) {
      case 'message_start':
        this.recordUsage(event.message?.usage ?? null);
        return [];
      case 'content_block_start':
        return this.startBlock(event.index ?? 0, event.content_block);
      case 'content_block_delta':
        return this.delta(event.index ?? 0, event.delta);
      case 'content_block_stop':
        return this.closeBlock(event.index ?? 0);
      case 'message_delta':
        if (typeof event.delta?.stop_reason === 'string') this.stopReason = event.delta.stop_reason;
        this.recordUsage(event.usage ?? null);
        return [];
      default:
        return [];
    }
  }

  /** Tool blocks the stream never closed, usage and finish, once the stream has ended. */
  end(): ProviderEvent[] {
    const out: ProviderEvent[] = [...this.open.keys()].flatMap((index) => this.closeBlock(index));
    if (this.inputTokens !== undefined || this.outputTokens !== undefined) {
      out.push({ type: 'usage', inputTokens: this.inputTokens, outputTokens: this.outputTokens });
    }
    out.push({ type: 'finish', reason: mapAnthropicStopReason(this.stopReason, this.calls > 0) });
    return out;
  }

  private startBlock(index: number, block: AnthropicEventLike['content_block']): ProviderEvent[] {
    if (!block) return [];
    if (block.type === 'tool_use') {
      this.open.set(index, { id: str(block.id), name: str(block.name), json: '', startInput: block.input });
      return [];
    }
    if (block.type === 'text' && str(block.text) !== '') return [{ type: 'text', delta: str(block.text) }];
    if (block.type === 'thinking' && str(block.thinking) !== '')
      return [{ type: 'reasoning', delta: str(block.thinking) }];
    return [];
  }

  private delta(index: number, delta: AnthropicEventLike['delta']): ProviderEvent[] {
    if (!delta) return [];
    if (delta.type === 'text_delta' && str(delta.text) !== '') return [{ type: 'text', delta: str(delta.text) }];
    if (delta.type === 'thinking_delta' && str(delta.thinking) !== '')
      return [{ type: 'reasoning', delta: str(delta.thinking) }];
    if (delta.type === 'input_json_delta') {
      const block = this.open.get(index);
      if (block) block.json += str(delta.partial_json);
    }
    return [];
  }

  private closeBlock(index: number): ProviderEvent[] {
    const block = this.open.get(index);
    if (!block) return [];
    this.open.delete(index);
    if (block.name === '') return [];
    const start = block.startInput;
    const startJson =
      typeof start === 'object' && start !== null && Object.keys(start).length > 0 ? JSON.stringify(start) : '{}';
    const id = block.id !== '' ? block.id : `toolu_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const call: ToolCall = { id, name: block.name, arguments: block.json.trim() !== '' ? block.json : startJson };
    this.calls += 1;
    return [{ type: 'tool_call', call }];
  }

  private recordUsage(usage: Usage): void {
    if (!usage) return;
    if (typeof usage.input_tokens === 'number') this.inputTokens = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') this.outputTokens = usage.output_tokens;
  }
}
