import {
  startScriptedSseServer,
  type HttpErrorSpec,
  type ScriptedServer,
  type ScriptedServerOptions,
} from './scripted-sse-server.js';

/**
 * A scripted OpenAI Chat Completions server (also Doubao / any OpenAI-compatible endpoint) for the
 * gateway's provider tests: POST `/v1/chat/completions` answers with the next queued turn as SSE
 * `chat.completion.chunk`s followed by `[DONE]`. Point the real `openai` client at `baseURL`.
 * A request with `stream` not `true` gets the turn folded into one `chat.completion` JSON body.
 * With `options.script`, requests the queue does not answer get the turn the script picks.
 *
 * @example
 *   const fake = await startFakeOpenAIServer();
 *   fake.enqueue(openaiTextTurn('Hel', 'lo'));
 *   new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL });
 */

/** One scripted step; each step but `usage`/`hang` is one chunk of choice 0. */
export type OpenAIFakeEvent =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  /** One raw `delta.tool_calls[]` entry, sent exactly as given (omit `index`, send objects …). */
  | { kind: 'tool'; fragment: Record<string, unknown> }
  /** A raw delta, optionally with its finish reason in the same chunk (older Doubao). */
  | { kind: 'delta'; delta: Record<string, unknown>; finish?: string }
  | { kind: 'finish'; reason: string }
  /** The `include_usage` chunk (empty `choices`). */
  | { kind: 'usage'; prompt: number; completion: number }
  /** Wait this long before the next step (cut short when the client leaves). */
  | { kind: 'pause'; ms: number }
  /** An `{"error": …}` data line inside the stream. */
  | { kind: 'error'; message: string; type?: string }
  /** Stop writing and keep the connection open until the client leaves. */
  | { kind: 'hang' };

/** One answer: a stream of events, or an HTTP error (see `openaiHttpError`). */
export type OpenAIFakeTurn = { events: OpenAIFakeEvent[] } | { httpError: HttpErrorSpec };

/** The running fake; `baseURL` is what the OpenAI client takes. */
export type FakeOpenAIServer = ScriptedServer<OpenAIFakeTurn> & { readonly baseURL: string };

function chunk(model: unknown, delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: typeof model === 'string' ? model : 'fake-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** A turn's events folded into one non-streamed `chat.completion` body. */
function completionOf(model: unknown, events: OpenAIFakeEvent[]): Record<string, unknown> {
  let content = '';
  let finish: string | null = null;
  let usage: Record<string, number> | undefined;
  const calls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> = [];
  for (const ev of events) {
    if (ev.kind === 'text') content += ev.text;
    else if (ev.kind === 'finish') finish = ev.reason;
    else if (ev.kind === 'usage')
      usage = { prompt_tokens: ev.prompt, completion_tokens: ev.completion, total_tokens: ev.prompt + ev.completion };
    else if (ev.kind === 'tool') {
      const f = (ev.fragment.function ?? {}) as { name?: string; arguments?: string };
      if (typeof ev.fragment.id === 'string')
        calls.push({ id: ev.fragment.id, type: 'function', function: { name: f.name ?? '', arguments: '' } });
      const last = calls.at(-1);
      if (last && typeof f.arguments === 'string') last.function.arguments += f.arguments;
    }
  }
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: typeof model === 'string' ? model : 'fake-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        finish_reason: finish ?? 'stop',
      },
    ],
    usage: usage ?? { prompt_tokens: 11, completion_tokens: 1, total_tokens: 12 },
  };
}

/** Starts the fake on 127.0.0.1; `baseURL` ends in `/v1` as the OpenAI client expects. */
export async function startFakeOpenAIServer(
  options: ScriptedServerOptions<OpenAIFakeTurn> = {},
): Promise<FakeOpenAIServer> {
  const server = await startScriptedSseServer<OpenAIFakeTurn>(
    {
      route: (method, path) => method === 'POST' && path === '/v1/chat/completions',
      httpError: (turn) => ('httpError' in turn ? turn.httpError : undefined),
      exhaustedBody: { error: { message: 'fake-openai: no scripted turn left', type: 'fake_exhausted' } },
      async play(turn, out, request) {
        if (!('events' in turn)) return;
        const model = (request as { model?: unknown } | undefined)?.model;
        if ((request as { stream?: unknown } | undefined)?.stream !== true)
          return out.json(completionOf(model, turn.events));
        for (const ev of turn.events) {
          if (out.gone()) return;
          switch (ev.kind) {
            case 'text':
              await out.send(chunk(model, { content: ev.text }));
              break;
            case 'reasoning':
              await out.send(chunk(model, { reasoning_content: ev.text }));
              break;
            case 'tool':
              await out.send(chunk(model, { tool_calls: [ev.fragment] }));
              break;
            case 'delta':
              await out.send(chunk(model, ev.delta, ev.finish ?? null));
              break;
            case 'finish':
              await out.send(chunk(model, {}, ev.reason));
              break;
            case 'usage':
              await out.send({
                ...chunk(model, {}),
                choices: [],
                usage: {
                  prompt_tokens: ev.prompt,
                  completion_tokens: ev.completion,
                  total_tokens: ev.prompt + ev.completion,
                },
              });
              break;
            case 'error':
              await out.send({ error: { message: ev.message, type: ev.type ?? 'server_error' } });
              return;
            case 'pause':
              await out.pause(ev.ms);
              break;
            case 'hang':
              await out.hang();
              return;
          }
        }
        await out.send('[DONE]');
      },
    },
    options,
  );
  return Object.assign(server, { baseURL: `${server.origin}/v1` });
}

/** A plain answer streamed in `pieces`, then `stop` and usage. */
export function openaiTextTurn(...pieces: string[]): OpenAIFakeTurn {
  return {
    events: [
      ...pieces.map((text): OpenAIFakeEvent => ({ kind: 'text', text })),
      { kind: 'finish', reason: 'stop' },
      { kind: 'usage', prompt: 11, completion: pieces.length },
    ],
  };
}

/**
 * A tool call streamed the OpenAI way: optional prefix text, a first fragment with id and name, then
 * one fragment per `argPieces` entry, `finish_reason: tool_calls`, usage.
 */
export function openaiToolCallTurn(call: {
  id: string;
  name: string;
  argPieces: string[];
  prefix?: string;
}): OpenAIFakeTurn {
  const events: OpenAIFakeEvent[] = [];
  if (call.prefix !== undefined) events.push({ kind: 'text', text: call.prefix });
  events.push({
    kind: 'tool',
    fragment: { index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
  });
  for (const piece of call.argPieces)
    events.push({ kind: 'tool', fragment: { index: 0, function: { arguments: piece } } });
  events.push({ kind: 'finish', reason: 'tool_calls' }, { kind: 'usage', prompt: 20, completion: 7 });
  return { events };
}

/** Older Doubao: the whole call in one chunk with `content: "\n"` and `finish_reason: tool_calls`. */
export function doubaoSingleChunkToolCallTurn(call: { id: string; name: string; arguments: string }): OpenAIFakeTurn {
  return {
    events: [
      {
        kind: 'delta',
        delta: {
          role: 'assistant',
          content: '\n',
          tool_calls: [
            { index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } },
          ],
        },
        finish: 'tool_calls',
      },
      { kind: 'usage', prompt: 30, completion: 9 },
    ],
  };
}

/** An OpenAI-shaped error answer: `{"error":{"message","type","code"}}` with `status`. */
export function openaiHttpError(status: number, message: string, type: string, retry = false): OpenAIFakeTurn {
  return { httpError: { status, retry, body: { error: { message, type, code: type } } } };
}

/**
 * A server without tool calling, as Ollama answers for a model that has none: every request that
 * offers `tools` gets HTTP 400 `<model> does not support tools`; any other gets `answer` as text.
 * Pass it as `startFakeOpenAIServer({ script: rejectingToolsScript('…') })`.
 */
export function rejectingToolsScript(answer: string): (request: { body: unknown }) => OpenAIFakeTurn {
  return (request) => {
    const body = request.body as { tools?: unknown[]; model?: unknown };
    if (Array.isArray(body.tools) && body.tools.length > 0)
      return openaiHttpError(
        400,
        `registry.ollama.ai/library/${String(body.model)} does not support tools`,
        'api_error',
      );
    return openaiTextTurn(answer);
  };
}
