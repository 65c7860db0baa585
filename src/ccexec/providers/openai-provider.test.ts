import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  doubaoSingleChunkToolCallTurn,
  openaiHttpError,
  openaiTextTurn,
  openaiToolCallTurn,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from '../../../test/fakes/fake-llm/fake-openai-server.js';
import type { ChatMessage, ModelProvider, ProviderEvent, ToolSpec } from './canonical.js';
import { createOpenAIProvider, type OpenAIProviderConfig } from './openai-provider.js';
import { collectEvents, streamFailure } from '../../../test/helpers/provider-stream.js';
import { ProviderError } from './provider-error.js';

const KEY = 'sk-fake-openai-test-key-0123456789abcdef';
const tool: ToolSpec = {
  name: 'cc_exec',
  description: 'Run a read-only ChainlessChain command',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' }, subargs: { type: 'array', items: { type: 'string' } } },
    required: ['command'],
  },
};
const ask: ChatMessage[] = [
  { role: 'system', content: 'You answer from the user’s ChainlessChain data.' },
  { role: 'user', content: '列一下我最近的笔记' },
];

let fake: FakeOpenAIServer;
beforeAll(async () => {
  fake = await startFakeOpenAIServer();
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  fake.requests.length = 0;
});

function provider(over: Partial<OpenAIProviderConfig> = {}): ModelProvider {
  return createOpenAIProvider({
    id: 'test',
    kind: 'openai-compatible',
    baseURL: fake.baseURL,
    apiKey: KEY,
    model: 'gpt-fake',
    contextLimit: 64_000,
    tools: true,
    ...over,
  });
}

const lastBody = (): Record<string, unknown> => fake.requests.at(-1)?.body as Record<string, unknown>;

describe('createOpenAIProvider against a fake chat.completions server', () => {
  it('streams text deltas, usage and stop; sends the key as a Bearer token and the request as OpenAI expects', async () => {
    fake.enqueue(openaiTextTurn('你有', '三条', '笔记'));
    const events = await collectEvents(provider().stream(ask, [tool]));
    expect(events).toEqual([
      { type: 'text', delta: '你有' },
      { type: 'text', delta: '三条' },
      { type: 'text', delta: '笔记' },
      { type: 'usage', inputTokens: 11, outputTokens: 3 },
      { type: 'finish', reason: 'stop' },
    ]);
    const req = fake.requests[0];
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(lastBody()).toMatchObject({
      model: 'gpt-fake',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: ask[0]?.content },
        { role: 'user', content: '列一下我最近的笔记' },
      ],
      tools: [
        { type: 'function', function: { name: 'cc_exec', description: tool.description, parameters: tool.parameters } },
      ],
    });
  });

  it('rebuilds a tool call streamed in 3 fragments, after the prefix text', async () => {
    fake.enqueue(
      openaiToolCallTurn({
        id: 'call_abc',
        name: 'cc_exec',
        prefix: '我帮你查一下',
        argPieces: ['{"command":"no', 'te","subargs":["li', 'st"]}'],
      }),
    );
    const events = await collectEvents(provider().stream(ask, [tool]));
    expect(events).toEqual([
      { type: 'text', delta: '我帮你查一下' },
      {
        type: 'tool_call',
        call: { id: 'call_abc', name: 'cc_exec', arguments: '{"command":"note","subargs":["list"]}' },
      },
      { type: 'usage', inputTokens: 20, outputTokens: 7 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('takes the Doubao single-chunk call (content "\\n", full arguments, finish_reason in the same chunk)', async () => {
    fake.enqueue(
      doubaoSingleChunkToolCallTurn({
        id: 'call_doubao',
        name: 'cc_exec',
        arguments: '{"command":"skill","subargs":["list","--json"]}',
      }),
    );
    const events = await collectEvents(provider({ kind: 'doubao', id: 'doubao' }).stream(ask, [tool]));
    expect(events).toEqual([
      {
        type: 'tool_call',
        call: { id: 'call_doubao', name: 'cc_exec', arguments: '{"command":"skill","subargs":["list","--json"]}' },
      },
      { type: 'usage', inputTokens: 30, outputTokens: 9 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('turns reasoning_content deltas into reasoning events before the answer', async () => {
    fake.enqueue({
      events: [
        { kind: 'reasoning', text: '用户想看笔记，' },
        { kind: 'reasoning', text: '先调用工具。' },
        { kind: 'text', text: '好的' },
        { kind: 'finish', reason: 'stop' },
      ],
    });
    const events = await collectEvents(provider({ kind: 'doubao' }).stream(ask, []));
    expect(events).toEqual([
      { type: 'reasoning', delta: '用户想看笔记，' },
      { type: 'reasoning', delta: '先调用工具。' },
      { type: 'text', delta: '好的' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('survives the tolerance cases over the wire: no index, late name, object arguments, empty arguments', async () => {
    fake.enqueue({
      events: [
        { kind: 'tool', fragment: { id: 'call_late', type: 'function', function: { arguments: '' } } },
        { kind: 'tool', fragment: { function: { name: 'cc_exec', arguments: '{"command":' } } },
        { kind: 'tool', fragment: { function: { arguments: '"status"}' } } },
        {
          kind: 'tool',
          fragment: {
            index: 1,
            id: 'call_obj',
            function: { name: 'cc_exec', arguments: { command: 'note', subargs: ['list'] } },
          },
        },
        { kind: 'tool', fragment: { index: 2, id: 'call_empty', function: { name: 'ping_tool', arguments: '' } } },
        { kind: 'finish', reason: 'tool_calls' },
      ],
    });
    const calls = (await collectEvents(provider().stream(ask, [tool]))).filter((e) => e.type === 'tool_call');
    expect(calls).toEqual([
      { type: 'tool_call', call: { id: 'call_late', name: 'cc_exec', arguments: '{"command":"status"}' } },
      {
        type: 'tool_call',
        call: { id: 'call_obj', name: 'cc_exec', arguments: '{"command":"note","subargs":["list"]}' },
      },
      { type: 'tool_call', call: { id: 'call_empty', name: 'ping_tool', arguments: '{}' } },
    ]);
  });

  it('sends the assistant tool_calls and the tool reply back on the next request', async () => {
    fake.enqueue(
      openaiToolCallTurn({ id: 'call_rt', name: 'cc_exec', argPieces: ['{"command":"status"}'] }),
      openaiTextTurn('运行正常'),
    );
    const p = provider();
    const first = await collectEvents(p.stream(ask, [tool]));
    const call = first.find((e) => e.type === 'tool_call');
    if (call?.type !== 'tool_call') throw new Error('no tool call');
    const history: ChatMessage[] = [
      ...ask,
      { role: 'assistant', content: '', toolCalls: [call.call] },
      {
        role: 'tool',
        toolCallId: call.call.id,
        name: call.call.name,
        content: 'exitCode=0\nduration=12ms\nstdout:\nok',
      },
    ];
    const second = await collectEvents(p.stream(history, [tool]));
    expect(second.filter((e) => e.type === 'text')).toEqual([{ type: 'text', delta: '运行正常' }]);
    expect((lastBody().messages as unknown[]).slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_rt', type: 'function', function: { name: 'cc_exec', arguments: '{"command":"status"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_rt', content: 'exitCode=0\nduration=12ms\nstdout:\nok' },
    ]);
  });

  it('does not offer tools when the provider is plain chat', async () => {
    fake.enqueue(openaiTextTurn('请切换模型'));
    const p = provider({ tools: false });
    expect(p.supportsTools).toBe(false);
    await collectEvents(p.stream(ask, [tool]));
    expect('tools' in lastBody()).toBe(false);
  });

  it('ends promptly with PROVIDER_ABORTED when the signal aborts mid-stream, and closes the connection', async () => {
    fake.enqueue({ events: [{ kind: 'text', text: '部分' }, { kind: 'hang' }] });
    const disconnectsBefore = fake.disconnects();
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    const run = (async () => {
      for await (const ev of provider().stream(ask, [tool], controller.signal)) {
        seen.push(ev);
        controller.abort();
      }
    })();
    const err = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('PROVIDER_ABORTED');
    expect(seen).toEqual([{ type: 'text', delta: '部分' }]);
    await fake.waitForDisconnects(disconnectsBefore + 1);
  });

  it('fails with PROVIDER_ABORTED before any request when the signal is already aborted', async () => {
    const err = await streamFailure(provider().stream(ask, [tool], AbortSignal.abort()));
    expect(err.kind).toBe('aborted');
    expect(fake.requests).toHaveLength(0);
  });

  it('closes the connection when the consumer stops reading early', async () => {
    fake.enqueue({ events: [{ kind: 'text', text: 'a' }, { kind: 'hang' }] });
    const before = fake.requests.length;
    const disconnectsBefore = fake.disconnects();
    for await (const ev of provider().stream(ask, [tool])) {
      expect(ev).toEqual({ type: 'text', delta: 'a' });
      break;
    }
    expect(fake.requests.length).toBe(before + 1);
    await fake.waitForDisconnects(disconnectsBefore + 1);
  });

  it('maps 401 to PROVIDER_AUTH without the key, even when the server echoes it', async () => {
    fake.enqueue(
      openaiHttpError(
        401,
        `Incorrect API key provided: ${KEY}. You can find your API key at …`,
        'invalid_request_error',
      ),
    );
    const err = await streamFailure(provider({ apiKeyEnv: 'OPENAI_API_KEY' }).stream(ask, [tool]));
    expect(err.code).toBe('PROVIDER_AUTH');
    expect(err.status).toBe(401);
    expect(err.userMessage).toContain('OPENAI_API_KEY');
    const everything = [
      err.message,
      err.userMessage,
      String(err.cause),
      JSON.stringify(err),
      err.stack ?? '',
      (err.cause as Error).stack ?? '',
    ].join('\n');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(KEY.slice(3, 20));
  });

  it('maps 429 to PROVIDER_RATE_LIMIT (retryable)', async () => {
    fake.enqueue(openaiHttpError(429, 'Rate limit reached for requests', 'rate_limit_exceeded'));
    const err = await streamFailure(provider().stream(ask, [tool]));
    expect(err.code).toBe('PROVIDER_RATE_LIMIT');
    expect(err.retryable).toBe(true);
  });

  it('retries a 500 once (maxRetries: 1) and then succeeds', async () => {
    fake.enqueue(openaiHttpError(500, 'boom', 'server_error', true), openaiTextTurn('ok'));
    const events = await collectEvents(provider().stream(ask, []));
    expect(events[0]).toEqual({ type: 'text', delta: 'ok' });
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up after one retry: two 500s become PROVIDER_SERVER', async () => {
    fake.enqueue(
      openaiHttpError(500, 'boom', 'server_error', true),
      openaiHttpError(503, 'still down', 'server_error', true),
    );
    const err = await streamFailure(provider().stream(ask, []));
    expect(err.code).toBe('PROVIDER_SERVER');
    expect(fake.requests).toHaveLength(2);
  });

  it('maps 404 (a wrong Doubao endpoint id) to PROVIDER_MODEL_NOT_FOUND naming the model', async () => {
    fake.enqueue(openaiHttpError(404, 'The model or endpoint ep-x does not exist', 'NotFound'));
    const err = await streamFailure(provider({ model: 'ep-x', language: 'en' }).stream(ask, []));
    expect(err.code).toBe('PROVIDER_MODEL_NOT_FOUND');
    expect(err.userMessage).toContain('ep-x');
  });

  it('maps the Doubao 400 for tools on a model without tool support to PROVIDER_BAD_REQUEST with the tools hint', async () => {
    fake.enqueue(openaiHttpError(400, 'One or more parameters specified in the request are not valid', 'BadRequest'));
    const err = await streamFailure(provider({ language: 'en' }).stream(ask, [tool]));
    expect(err.code).toBe('PROVIDER_BAD_REQUEST');
    expect(err.userMessage).toContain('tools = false');
  });

  it('maps a 400 that says the model has no tools to PROVIDER_TOOLS_REJECTED, and reports toolsAuto', async () => {
    const noTools = 'registry.ollama.ai/library/gemma:2b does not support tools';
    fake.enqueue(openaiHttpError(400, noTools, 'invalid_request_error'));
    const auto = provider({ toolsAuto: true });
    expect(auto.toolsAuto).toBe(true);
    expect((await streamFailure(auto.stream(ask, [tool]))).code).toBe('PROVIDER_TOOLS_REJECTED');
    // The same answer to a request without tools is an ordinary bad request.
    fake.enqueue(openaiHttpError(400, noTools, 'invalid_request_error'));
    expect((await streamFailure(provider().stream(ask, []))).code).toBe('PROVIDER_BAD_REQUEST');
    expect(provider().toolsAuto).toBe(false);
  });

  it('turns an error event inside the stream into a ProviderError', async () => {
    fake.enqueue({
      events: [
        { kind: 'text', text: 'x' },
        { kind: 'error', message: 'upstream overloaded', type: 'server_error' },
      ],
    });
    const err = await streamFailure(provider().stream(ask, []));
    expect(err.code).toBe('PROVIDER_SERVER');
    expect(err.userMessage).toContain('upstream overloaded');
  });

  it('maps a refused connection to PROVIDER_NETWORK', async () => {
    const err = await streamFailure(provider({ baseURL: 'http://127.0.0.1:1/v1' }).stream(ask, []));
    expect(err.code).toBe('PROVIDER_NETWORK');
    expect(err.userMessage).toContain('http://127.0.0.1:1/v1');
  });

  it('refuses an openai-compatible provider without a base URL', () => {
    expect(() => provider({ baseURL: '' })).toThrow(ProviderError);
  });
});
