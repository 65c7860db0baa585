import {
  startScriptedSseServer,
  type HttpErrorSpec,
  type ScriptedServer,
  type ScriptedServerOptions,
} from './scripted-sse-server.js';

/**
 * A scripted OpenAI Responses server (what Codex speaks): POST `/v1/responses` answers with the
 * next queued turn, or what `options.script` picks, as the Responses SSE events, each written as
 * `event: <type>` + `data: {"type": <type>, …}`: `response.created`, then per text
 * `response.output_item.added` → `response.content_part.added` → `response.output_text.delta`s →
 * `response.output_text.done` → `response.content_part.done` → `response.output_item.done`, per
 * tool call `response.output_item.added` + `.done` with a `function_call` item, then
 * `response.completed` with the output and usage. A request with `stream` not `true` gets the response object as JSON.
 */

/** One scripted step. */
export type ResponsesFakeEvent =
  /** One assistant message whose text streams as these deltas. */
  | { kind: 'text'; pieces: string[]; pauseMs?: number }
  /** One function call; `arguments` is the JSON string the model "wrote". */
  | { kind: 'functionCall'; callId: string; name: string; arguments: string; namespace?: string }
  /** An `event: error` inside the stream, then the stream ends. */
  | { kind: 'error'; code: string; message: string }
  /** Stop writing and keep the connection open until the client leaves. */
  | { kind: 'hang' };

/** One answer: a stream of events, or an HTTP error. */
export type ResponsesFakeTurn = { events: ResponsesFakeEvent[] } | { httpError: HttpErrorSpec };

/** The running fake; `baseURL` ends in `/v1` (what a Codex provider's `base_url` takes). */
export type FakeOpenAIResponsesServer = ScriptedServer<ResponsesFakeTurn> & { readonly baseURL: string };

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_fake${(counter += 1).toString(36)}`;

function usageOf(outputChars: number): Record<string, unknown> {
  const output = Math.max(1, Math.ceil(outputChars / 4));
  return {
    input_tokens: 25,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 25 + output,
  };
}

/** The finished output items of a turn, as `response.output` and the `.done` events carry them. */
function outputItems(events: ResponsesFakeEvent[]): Array<Record<string, unknown>> {
  return events.flatMap((ev): Array<Record<string, unknown>> => {
    if (ev.kind === 'text')
      return [
        {
          type: 'message',
          id: nextId('msg'),
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: ev.pieces.join(''), annotations: [] }],
        },
      ];
    if (ev.kind === 'functionCall')
      return [
        {
          type: 'function_call',
          id: nextId('fc'),
          call_id: ev.callId,
          name: ev.name,
          ...(ev.namespace ? { namespace: ev.namespace } : {}),
          arguments: ev.arguments,
          status: 'completed',
        },
      ];
    return [];
  });
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeOpenAIResponsesServer(
  options: ScriptedServerOptions<ResponsesFakeTurn> = {},
): Promise<FakeOpenAIResponsesServer> {
  const server = await startScriptedSseServer<ResponsesFakeTurn>(
    {
      route: (method, path) => method === 'POST' && path === '/v1/responses',
      httpError: (turn) => ('httpError' in turn ? turn.httpError : undefined),
      exhaustedBody: { error: { message: 'fake-openai-responses: no scripted turn left', type: 'fake_exhausted' } },
      async play(turn, out, request) {
        if (!('events' in turn)) return;
        const m = (request as { model?: unknown } | undefined)?.model;
        const model = typeof m === 'string' ? m : 'fake-model';
        const id = nextId('resp');
        const items = outputItems(turn.events);
        const chars = items.reduce((n, item) => n + JSON.stringify(item).length, 0);
        const response = (status: string, output: unknown[]): Record<string, unknown> => ({
          id,
          object: 'response',
          created_at: 1_700_000_000,
          status,
          model,
          output,
          ...(status === 'completed' ? { usage: usageOf(chars) } : {}),
        });
        if ((request as { stream?: unknown } | undefined)?.stream !== true)
          return out.json(response('completed', items));
        const send = (type: string, data: Record<string, unknown>): Promise<void> => out.send({ type, ...data }, type);
        await send('response.created', { response: response('in_progress', []) });
        let index = 0;
        for (const ev of turn.events) {
          if (out.gone()) return;
          const item = ev.kind === 'text' || ev.kind === 'functionCall' ? items[index] : undefined;
          switch (ev.kind) {
            case 'text': {
              const itemId = item?.id;
              await send('response.output_item.added', {
                output_index: index,
                item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] },
              });
              const part = { item_id: itemId, output_index: index, content_index: 0 };
              await send('response.content_part.added', {
                ...part,
                part: { type: 'output_text', text: '', annotations: [] },
              });
              for (const delta of ev.pieces) {
                if (ev.pauseMs) await out.pause(ev.pauseMs);
                if (out.gone()) return;
                await send('response.output_text.delta', { ...part, delta });
              }
              const text = ev.pieces.join('');
              await send('response.output_text.done', { ...part, text });
              await send('response.content_part.done', {
                ...part,
                part: { type: 'output_text', text, annotations: [] },
              });
              await send('response.output_item.done', { output_index: index, item });
              index += 1;
              break;
            }
            case 'functionCall':
              await send('response.output_item.added', {
                output_index: index,
                item: { ...item, arguments: '', status: 'in_progress' },
              });
              await send('response.output_item.done', { output_index: index, item });
              index += 1;
              break;
            case 'error':
              await send('error', { code: ev.code, message: ev.message, param: null });
              return;
            case 'hang':
              await out.hang();
              return;
          }
        }
        await send('response.completed', { response: response('completed', items) });
      },
      scriptErrorBody: (message) => ({ error: { message, type: 'invalid_request_error', code: 'fake_script' } }),
    },
    options,
  );
  return Object.assign(server, { baseURL: `${server.origin}/v1` });
}

/** A plain answer whose text streams as `pieces`. */
export function responsesTextTurn(...pieces: string[]): ResponsesFakeTurn {
  return { events: [{ kind: 'text', pieces }] };
}

/** One function call with `args` (serialized to the `arguments` string). */
export function responsesFunctionCallTurn(call: {
  callId: string;
  name: string;
  args: Record<string, unknown>;
}): ResponsesFakeTurn {
  return {
    events: [{ kind: 'functionCall', callId: call.callId, name: call.name, arguments: JSON.stringify(call.args) }],
  };
}
