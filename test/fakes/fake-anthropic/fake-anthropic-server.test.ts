// The fake's wire format, checked with the official @anthropic-ai/sdk client (a real SSE parser),
// plus the request digest scripts decide on. No Claude Code binary here: see real-claude.test.ts.
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from './fake-anthropic-server.js';
import type { FakeAnthropic, ScriptRequest } from './fake-anthropic-server.js';
import { SLOW_TICKS } from './default-script.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const client = (f: FakeAnthropic): Anthropic =>
  new Anthropic({ baseURL: f.url, apiKey: 'sk-ant-test-key', maxRetries: 0 });
const user = (content: unknown) => ({ role: 'user', content });

describe('fake Anthropic Messages API', () => {
  it('streams text, thinking and tool_use events the official SDK assembles into a message', async () => {
    fake = await startFakeAnthropic({
      script: () => ({
        thinking: '先想一想',
        text: '你好，世界 🌏 and more',
        toolUse: { name: 'Bash', input: { command: 'echo hi' } },
        chunkSize: 3,
      }),
    });
    const events: string[] = [];
    const stream = client(fake).messages.stream({
      model: 'claude-test',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    stream.on('streamEvent', (e) => events.push(e.type === 'content_block_delta' ? `delta:${e.delta.type}` : e.type));
    const msg = await stream.finalMessage();

    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.model).toBe('claude-test');
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(msg.content[0]).toMatchObject({ type: 'thinking', thinking: '先想一想', signature: 'fake-signature' });
    expect(msg.content[1]).toMatchObject({ type: 'text', text: '你好，世界 🌏 and more' });
    expect(msg.content[2]).toMatchObject({ type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } });
    expect(events[0]).toBe('message_start');
    expect(events).toContain('delta:thinking_delta');
    expect(events).toContain('delta:signature_delta');
    expect(events).toContain('delta:input_json_delta');
    expect(events.filter((e) => e === 'delta:text_delta').length).toBeGreaterThan(1);
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
  });

  it('answers a non-stream request with one JSON message', async () => {
    fake = await startFakeAnthropic();
    const msg = await client(fake).messages.create({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'echo: plain' }],
    });
    expect(msg.content).toEqual([{ type: 'text', text: 'plain' }]);
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
  });

  it('turns a reply error into the HTTP status and error body of the real API', async () => {
    fake = await startFakeAnthropic();
    const err = await client(fake)
      .messages.create({
        model: 'm',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'fail: 400 invalid_request_error bad thing' }],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
    expect(String((err as Error).message)).toContain('bad thing');
  });

  it('decides from the last user message: skips the trailing system message and system reminders, joins tool results to tool uses', async () => {
    const seen: ScriptRequest[] = [];
    fake = await startFakeAnthropic({ script: (req) => (seen.push(req), { text: 'x' }) });
    const body = {
      model: 'claude-x',
      max_tokens: 10,
      stream: true,
      system: [{ type: 'text', text: 'sys' }],
      tools: [{ name: 'Bash', input_schema: {} }],
      messages: [
        user([
          { type: 'text', text: '<system-reminder>\nignore me\n</system-reminder>\n' },
          { type: 'text', text: 'tool: Bash ls' },
        ]),
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] },
        user([
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a.txt' }], is_error: true },
        ]),
        { role: 'system', content: [{ type: 'text', text: '# Environment' }] },
      ],
    };
    const res = await fetch(`${fake.url}/v1/messages?beta=true`, { method: 'POST', body: JSON.stringify(body) });
    expect(await res.text()).toContain('event: message_stop');
    await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ ...body, messages: body.messages.slice(0, 1) }),
    });

    expect(seen[0]).toMatchObject({
      lastUserText: '',
      lastUserToolResults: [
        { tool_use_id: 'toolu_1', content: 'a.txt', is_error: true, toolName: 'Bash', toolInput: { command: 'ls' } },
      ],
      model: 'claude-x',
      system: [{ type: 'text', text: 'sys' }],
      tools: [{ name: 'Bash' }],
    });
    expect(seen[1]?.lastUserText).toBe('tool: Bash ls');
    expect(fake.messageRequests().map((r) => r.query)).toEqual(['beta=true', '']);
  });

  it('answers the side routes harmlessly and records them', async () => {
    fake = await startFakeAnthropic();
    expect((await fetch(`${fake.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    const count = await fetch(`${fake.url}/v1/messages/count_tokens`, {
      method: 'POST',
      body: JSON.stringify({ messages: [user('hello')] }),
    });
    expect(await count.json()).toMatchObject({ input_tokens: expect.any(Number) as number });
    const missing = await fetch(`${fake.url}/v1/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'HEAD /api/hello',
      'POST /v1/messages/count_tokens',
      'GET /v1/nothing',
    ]);
    expect(fake.messageRequests()).toHaveLength(0);
  });

  it('survives a client that leaves mid-stream and still closes', async () => {
    fake = await startFakeAnthropic();
    const ac = new AbortController();
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [user('slow: 50')] }),
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    let seen = '';
    const decoder = new TextDecoder();
    while (!seen.includes('tick01')) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).toContain('tick01');
    ac.abort();
    expect(seen).not.toContain(`tick${SLOW_TICKS - 1}`);
    // the server keeps serving after the abandoned stream
    const next = await client(fake).messages.create({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'after' }],
    });
    expect(next.content).toEqual([{ type: 'text', text: 'ok: after' }]);
  });

  it('answers a throwing script with HTTP 400 and records the error', async () => {
    fake = await startFakeAnthropic({
      script: () => {
        throw new Error('boom');
      },
    });
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ messages: [user('x')] }),
    });
    expect(res.status).toBe(400);
    expect(fake.scriptErrors).toHaveLength(1);
  });
});
