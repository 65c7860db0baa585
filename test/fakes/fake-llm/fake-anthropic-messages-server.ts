import { startScriptedSseServer, type HttpErrorSpec, type ScriptedServer } from './scripted-sse-server.js';

/**
 * A scripted Anthropic Messages server for the gateway's provider tests (distinct from
 * `test/fakes/fake-anthropic/`, which serves the Claude Code binary): POST `/v1/messages` answers
 * with the next queued turn as the real event sequence — `message_start`, content blocks with their
 * deltas, `message_delta` with the stop reason and usage, `message_stop`. Point the real
 * `@anthropic-ai/sdk` client at `baseURL`.
 */

/** One scripted step; `text`, `thinking` and `toolUse` each produce a whole content block. */
export type AnthropicFakeEvent =
  | { kind: 'text'; pieces: string[] }
  | { kind: 'thinking'; pieces: string[] }
  /** A `tool_use` block: start with `input` (default `{}`), one `input_json_delta` per piece, stop. */
  | { kind: 'toolUse'; id: string; name: string; jsonPieces: string[]; input?: Record<string, unknown> }
  | { kind: 'stop'; reason: string; outputTokens?: number }
  | { kind: 'ping' }
  /** Any raw event, for shapes the helpers do not cover. */
  | { kind: 'raw'; event: string; data: Record<string, unknown> }
  /** An `event: error` inside the stream (e.g. `overloaded_error`). */
  | { kind: 'error'; type: string; message: string }
  /** Stop writing and keep the connection open until the client leaves. */
  | { kind: 'hang' };

/** One answer: a stream of events (`inputTokens` goes in `message_start`), or an HTTP error. */
export type AnthropicFakeTurn = { events: AnthropicFakeEvent[]; inputTokens?: number } | { httpError: HttpErrorSpec };

/** The running fake; `baseURL` is what the Anthropic client takes. */
export type FakeAnthropicMessagesServer = ScriptedServer<AnthropicFakeTurn> & { readonly baseURL: string };

/** Starts the fake on 127.0.0.1; `baseURL` is the origin (the SDK appends `/v1/messages`). */
export async function startFakeAnthropicMessagesServer(): Promise<FakeAnthropicMessagesServer> {
  const server = await startScriptedSseServer<AnthropicFakeTurn>({
    route: (method, path) => method === 'POST' && path === '/v1/messages',
    httpError: (turn) => ('httpError' in turn ? turn.httpError : undefined),
    exhaustedBody: {
      type: 'error',
      error: { type: 'api_error', message: 'fake-anthropic-messages: no scripted turn left' },
    },
    async play(turn, out, request) {
      if (!('events' in turn)) return;
      const model = (request as { model?: unknown } | undefined)?.model;
      const send = (event: string, data: Record<string, unknown>): Promise<void> =>
        out.send({ type: event, ...data }, event);
      await send('message_start', {
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          model: typeof model === 'string' ? model : 'fake-model',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: turn.inputTokens ?? 25, output_tokens: 1 },
        },
      });
      let index = 0;
      for (const ev of turn.events) {
        switch (ev.kind) {
          case 'text':
            await send('content_block_start', { index, content_block: { type: 'text', text: '' } });
            for (const text of ev.pieces)
              await send('content_block_delta', { index, delta: { type: 'text_delta', text } });
            await send('content_block_stop', { index });
            index += 1;
            break;
          case 'thinking':
            await send('content_block_start', {
              index,
              content_block: { type: 'thinking', thinking: '', signature: '' },
            });
            for (const thinking of ev.pieces)
              await send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } });
            await send('content_block_stop', { index });
            index += 1;
            break;
          case 'toolUse':
            await send('content_block_start', {
              index,
              content_block: { type: 'tool_use', id: ev.id, name: ev.name, input: ev.input ?? {} },
            });
            for (const partial_json of ev.jsonPieces)
              await send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
            await send('content_block_stop', { index });
            index += 1;
            break;
          case 'stop':
            await send('message_delta', {
              delta: { stop_reason: ev.reason, stop_sequence: null },
              usage: { output_tokens: ev.outputTokens ?? 12 },
            });
            await send('message_stop', {});
            break;
          case 'ping':
            await send('ping', {});
            break;
          case 'raw':
            await out.send({ type: ev.event, ...ev.data }, ev.event);
            break;
          case 'error':
            await out.send({ type: 'error', error: { type: ev.type, message: ev.message } }, 'error');
            return;
          case 'hang':
            await out.hang();
            return;
        }
      }
    },
  });
  return Object.assign(server, { baseURL: server.origin });
}

/** A plain answer streamed in `pieces`, ending `end_turn`. */
export function anthropicTextTurn(...pieces: string[]): AnthropicFakeTurn {
  return {
    events: [
      { kind: 'text', pieces },
      { kind: 'stop', reason: 'end_turn' },
    ],
  };
}

/** Optional prefix text, one `tool_use` block streamed as `jsonPieces`, ending `tool_use`. */
export function anthropicToolUseTurn(call: {
  id: string;
  name: string;
  jsonPieces: string[];
  prefix?: string;
}): AnthropicFakeTurn {
  const events: AnthropicFakeEvent[] = [];
  if (call.prefix !== undefined) events.push({ kind: 'text', pieces: [call.prefix] });
  events.push(
    { kind: 'toolUse', id: call.id, name: call.name, jsonPieces: call.jsonPieces },
    { kind: 'stop', reason: 'tool_use' },
  );
  return { events };
}

/** An Anthropic-shaped error answer: `{"type":"error","error":{"type","message"}}` with `status`. */
export function anthropicHttpError(status: number, type: string, message: string, retry = false): AnthropicFakeTurn {
  return { httpError: { status, retry, body: { type: 'error', error: { type, message } } } };
}
