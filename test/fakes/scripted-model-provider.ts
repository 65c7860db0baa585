import type { ChatMessage, ModelProvider, ProviderEvent, ToolSpec } from '../../src/ccexec/providers/canonical.js';
import { ProviderError } from '../../src/ccexec/providers/provider-error.js';

/**
 * A hand-written `ModelProvider` for the tool loop's unit tests: each request is answered with the
 * next scripted turn, every request is recorded (messages and tools, copied), and a turn can wait for
 * the abort signal — the way a real provider's HTTP stream ends on cancel.
 */
export type ScriptedTurn = ProviderEvent[] | { hangUntilAbort: true } | { throws: Error };

/** One recorded request. */
export type ScriptedRequest = { messages: ChatMessage[]; tools: ToolSpec[] };

export type ScriptedProvider = ModelProvider & { readonly requests: ScriptedRequest[]; pending(): number };

/** A tool call turn: optional prefix text, one or more calls, finish `tool_calls`. */
export function callTurn(calls: Array<{ id: string; args: unknown; name?: string }>, prefix?: string): ProviderEvent[] {
  return [
    ...(prefix !== undefined ? [{ type: 'text' as const, delta: prefix }] : []),
    ...calls.map((c) => ({
      type: 'tool_call' as const,
      call: {
        id: c.id,
        name: c.name ?? 'cc_exec',
        arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args),
      },
    })),
    { type: 'usage' as const, inputTokens: 120, outputTokens: 10 },
    { type: 'finish' as const, reason: 'tool_calls' as const },
  ];
}

/** A plain answer streamed in pieces. */
export function textTurn(...pieces: string[]): ProviderEvent[] {
  return [
    ...pieces.map((delta) => ({ type: 'text' as const, delta })),
    { type: 'finish' as const, reason: 'stop' as const },
  ];
}

/** Creates the scripted provider. */
export function scriptedProvider(
  turns: ScriptedTurn[],
  options: { supportsTools?: boolean; toolsAuto?: boolean; contextLimit?: number; id?: string } = {},
): ScriptedProvider {
  const queue = [...turns];
  const requests: ScriptedRequest[] = [];
  const id = options.id ?? 'scripted';
  return {
    id,
    kind: 'openai',
    model: 'scripted-model',
    supportsTools: options.supportsTools ?? true,
    ...(options.toolsAuto !== undefined ? { toolsAuto: options.toolsAuto } : {}),
    contextLimit: options.contextLimit ?? 128_000,
    requests,
    pending: () => queue.length,
    async *stream(messages, tools, signal) {
      requests.push({ messages: structuredClone(messages), tools: [...tools] });
      const turn = queue.shift();
      if (turn === undefined)
        throw new ProviderError('server', { providerId: id, detail: 'scripted provider: no turn left' });
      if ('throws' in turn) throw turn.throws;
      if ('hangUntilAbort' in turn) {
        await new Promise<void>((resolve) => {
          if (signal?.aborted) resolve();
          signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        throw new ProviderError('aborted', { providerId: id });
      }
      for (const ev of turn) {
        if (signal?.aborted) throw new ProviderError('aborted', { providerId: id });
        yield ev;
      }
    },
  };
}
