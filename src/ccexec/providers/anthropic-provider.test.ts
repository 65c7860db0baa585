import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicHttpError,
  anthropicTextTurn,
  anthropicToolUseTurn,
  startFakeAnthropicMessagesServer,
  type FakeAnthropicMessagesServer,
} from '../../../test/fakes/fake-llm/fake-anthropic-messages-server.js';
import { createAnthropicProvider, type AnthropicProviderConfig } from './anthropic-provider.js';
import type { ChatMessage, ModelProvider, ProviderEvent, ToolSpec } from './canonical.js';
import { collectEvents, streamFailure } from '../../../test/helpers/provider-stream.js';
import { ProviderError } from './provider-error.js';

// Not key-shaped on purpose: only the provider's own scrubbing can keep it out of errors.
const KEY = 'anthropic-fake-key-7f3c9a1e55d04b2c';
const tool: ToolSpec = {
  name: 'cc_exec',
  description: 'Run a read-only ChainlessChain command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};
const ask: ChatMessage[] = [
  { role: 'system', content: 'You answer from the user’s ChainlessChain data.' },
  { role: 'user', content: '找出我那篇关于 RAG 的笔记内容' },
];

let fake: FakeAnthropicMessagesServer;
beforeAll(async () => {
  fake = await startFakeAnthropicMessagesServer();
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  expect(fake.pending()).toBe(0);
  fake.requests.length = 0;
});

function provider(over: Partial<AnthropicProviderConfig> = {}): ModelProvider {
  return createAnthropicProvider({
    id: 'claude',
    baseURL: fake.baseURL,
    apiKey: KEY,
    model: 'claude-fake',
    contextLimit: 200_000,
    tools: true,
    ...over,
  });
}

const lastBody = (): Record<string, unknown> => fake.requests.at(-1)?.body as Record<string, unknown>;

describe('createAnthropicProvider against a fake Messages server', () => {
  it('streams text with usage; sends the key, system, max_tokens 4096 and tools', async () => {
    fake.enqueue(anthropicTextTurn('找到', '一篇'));
    const events = await collectEvents(provider().stream(ask, [tool]));
    expect(events).toEqual([
      { type: 'text', delta: '找到' },
      { type: 'text', delta: '一篇' },
      { type: 'usage', inputTokens: 25, outputTokens: 12 },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(fake.requests[0]?.path).toBe('/v1/messages');
    // SDK 1.x sends the key as a Bearer token; older ones used x-api-key. Either way, this key.
    const headers = fake.requests[0]?.headers ?? {};
    expect(headers.authorization === `Bearer ${KEY}` || headers['x-api-key'] === KEY).toBe(true);
    expect(lastBody()).toMatchObject({
      model: 'claude-fake',
      max_tokens: 4096,
      stream: true,
      system: ask[0]?.content,
      messages: [{ role: 'user', content: '找出我那篇关于 RAG 的笔记内容' }],
      tools: [{ name: 'cc_exec', description: tool.description, input_schema: tool.parameters }],
    });
  });

  it('accumulates a tool_use streamed as 3 input_json_delta pieces, after the prefix text', async () => {
    fake.enqueue(
      anthropicToolUseTurn({
        id: 'toolu_01',
        name: 'cc_exec',
        prefix: 'I’ll check…',
        jsonPieces: ['{"command":"sea', 'rch","subargs":["R', 'AG"]}'],
      }),
    );
    const events = await collectEvents(provider().stream(ask, [tool]));
    expect(events).toEqual([
      { type: 'text', delta: 'I’ll check…' },
      {
        type: 'tool_call',
        call: { id: 'toolu_01', name: 'cc_exec', arguments: '{"command":"search","subargs":["RAG"]}' },
      },
      { type: 'usage', inputTokens: 25, outputTokens: 12 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('maps thinking deltas to reasoning events and ignores pings', async () => {
    fake.enqueue({
      events: [
        { kind: 'ping' },
        { kind: 'thinking', pieces: ['先搜索'] },
        { kind: 'text', pieces: ['好'] },
        { kind: 'stop', reason: 'end_turn' },
      ],
    });
    const events = await collectEvents(provider().stream(ask, []));
    expect(events.slice(0, 2)).toEqual([
      { type: 'reasoning', delta: '先搜索' },
      { type: 'text', delta: '好' },
    ]);
  });

  it('sends the assistant tool_use and the tool_result (in a user turn) back on the next request', async () => {
    fake.enqueue(
      anthropicToolUseTurn({ id: 'toolu_rt', name: 'cc_exec', jsonPieces: ['{"command":"note","subargs":["list"]}'] }),
      anthropicTextTurn('你有 3 条笔记'),
    );
    const p = provider();
    const first = await collectEvents(p.stream(ask, [tool]));
    const call = first.find((e) => e.type === 'tool_call');
    if (call?.type !== 'tool_call') throw new Error('no tool call');
    const history: ChatMessage[] = [
      ...ask,
      { role: 'assistant', content: '', toolCalls: [call.call] },
      { role: 'tool', toolCallId: call.call.id, name: call.call.name, content: 'exitCode=0\nstdout:\n3 notes' },
    ];
    await collectEvents(p.stream(history, [tool]));
    expect(lastBody().messages).toEqual([
      { role: 'user', content: '找出我那篇关于 RAG 的笔记内容' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_rt', name: 'cc_exec', input: { command: 'note', subargs: ['list'] } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_rt', content: 'exitCode=0\nstdout:\n3 notes' }],
      },
    ]);
  });

  it('does not offer tools when the provider is plain chat', async () => {
    fake.enqueue(anthropicTextTurn('x'));
    await collectEvents(provider({ tools: false }).stream(ask, [tool]));
    expect('tools' in lastBody()).toBe(false);
  });

  it('passes a custom max_tokens', async () => {
    fake.enqueue(anthropicTextTurn('x'));
    await collectEvents(provider({ maxTokens: 1024 }).stream(ask, []));
    expect(lastBody().max_tokens).toBe(1024);
  });

  it('ends promptly with PROVIDER_ABORTED when the signal aborts mid-stream, and closes the connection', async () => {
    fake.enqueue({ events: [{ kind: 'text', pieces: ['部分'] }, { kind: 'hang' }] });
    const disconnectsBefore = fake.disconnects();
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    const err = await (async () => {
      for await (const ev of provider().stream(ask, [tool], controller.signal)) {
        seen.push(ev);
        controller.abort();
      }
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('PROVIDER_ABORTED');
    expect(seen).toEqual([{ type: 'text', delta: '部分' }]);
    await fake.waitForDisconnects(disconnectsBefore + 1);
  });

  it('maps 401 to PROVIDER_AUTH and keeps the key out of every field, even when the server echoes it', async () => {
    fake.enqueue(anthropicHttpError(401, 'authentication_error', `invalid x-api-key ${KEY}`));
    const err = await streamFailure(provider({ apiKeyEnv: 'ANTHROPIC_API_KEY', language: 'en' }).stream(ask, [tool]));
    expect(err.code).toBe('PROVIDER_AUTH');
    expect(err.userMessage).toContain('ANTHROPIC_API_KEY');
    const everything = [err.message, err.userMessage, String(err.cause), JSON.stringify(err), err.stack ?? ''].join(
      '\n',
    );
    expect(everything).not.toContain(KEY);
  });

  it('keeps the key out of a 400 detail, which is otherwise quoted', async () => {
    fake.enqueue(anthropicHttpError(400, 'invalid_request_error', `bad header value ${KEY} in request`));
    const err = await streamFailure(provider().stream(ask, [tool]));
    expect(err.code).toBe('PROVIDER_BAD_REQUEST');
    expect(err.userMessage).toContain('bad header value *** in request');
    expect(String(err.cause)).not.toContain(KEY);
  });

  it('maps 429 to PROVIDER_RATE_LIMIT', async () => {
    fake.enqueue(anthropicHttpError(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit'));
    const err = await streamFailure(provider().stream(ask, [tool]));
    expect(err.code).toBe('PROVIDER_RATE_LIMIT');
    expect(err.retryable).toBe(true);
  });

  it('maps an overloaded_error event inside the stream to PROVIDER_SERVER', async () => {
    fake.enqueue({
      events: [
        { kind: 'text', pieces: ['a'] },
        { kind: 'error', type: 'overloaded_error', message: 'Overloaded' },
      ],
    });
    const err = await streamFailure(provider().stream(ask, []));
    expect(err.code).toBe('PROVIDER_SERVER');
    expect(err.userMessage).toContain('Overloaded');
  });

  it('maps a rate_limit_error event inside the stream to PROVIDER_RATE_LIMIT', async () => {
    fake.enqueue({ events: [{ kind: 'error', type: 'rate_limit_error', message: 'slow down' }] });
    const err = await streamFailure(provider().stream(ask, []));
    expect(err.code).toBe('PROVIDER_RATE_LIMIT');
  });
});
