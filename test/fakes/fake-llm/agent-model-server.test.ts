import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentModelServer, type AgentModelServer } from './agent-model-server.js';

// The fakes checked with the official `openai` client: if its parsers accept the streams, so do
// agents written against the same wire formats.

const execCommand = {
  type: 'function' as const,
  name: 'exec_command',
  strict: false,
  parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
};
const runShell = {
  type: 'function' as const,
  function: {
    name: 'run_shell_command',
    parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } } },
  },
};

let fake: AgentModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The assistant text of a streamed response (the stream helper leaves `output_text` unset). */
const textOf = (res: OpenAI.Responses.Response): string =>
  res.output
    .flatMap((o) => (o.type === 'message' ? o.content : []))
    .map((c) => (c.type === 'output_text' ? c.text : ''))
    .join('');

const clientFor = (f: AgentModelServer): OpenAI =>
  new OpenAI({ apiKey: 'sk-test', baseURL: f.baseUrl, maxRetries: 0, timeout: 10_000 });

describe('startAgentModelServer("responses")', () => {
  it('streams a text answer the Responses parser assembles, and records the call', async () => {
    fake = await startAgentModelServer('responses');
    const stream = clientFor(fake).responses.stream({ model: 'gpt-5.4', input: 'hello' });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const final = await stream.finalResponse();
    expect(textOf(final)).toBe('ok: hello');
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.delta');
    expect(types.at(-1)).toBe('response.completed');
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.request).toMatchObject({ api: 'responses', lastUserText: 'hello', stream: true });
    expect(fake.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('answers RUN: with a function call of the offered shell tool, then quotes its output', async () => {
    fake = await startAgentModelServer('responses');
    const client = clientFor(fake);
    const first = await client.responses.stream({ model: 'm', input: 'RUN: ls', tools: [execCommand] }).finalResponse();
    const call = first.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}' });
    const callId = (call as { call_id: string }).call_id;
    const second = await client.responses
      .stream({
        model: 'm',
        tools: [execCommand],
        input: [
          { role: 'user', content: 'RUN: ls' },
          { type: 'function_call', call_id: callId, name: 'exec_command', arguments: '{"cmd":"ls"}' },
          { type: 'function_call_output', call_id: callId, output: 'a.txt' },
        ],
      })
      .finalResponse();
    expect(textOf(second)).toBe('ran: a.txt');
  });

  it('answers a non-streamed request with one JSON response', async () => {
    fake = await startAgentModelServer('responses');
    const res = await clientFor(fake).responses.create({ model: 'm', input: 'title please' });
    expect(res.output_text).toBe('ok');
    expect(fake.calls[0]!.request.stream).toBe(false);
  });

  it('answers a script error with HTTP 400 naming the cause, and records it', async () => {
    fake = await startAgentModelServer('responses');
    await expect(clientFor(fake).responses.stream({ model: 'm', input: 'RUN: ls' }).finalResponse()).rejects.toThrow(
      /400.*no shell tool offered/,
    );
    expect(fake.scriptErrors).toHaveLength(1);
    expect(fake.calls).toHaveLength(0);
  });

  it('paces a SLOW answer and stops writing when the client leaves mid-stream', async () => {
    fake = await startAgentModelServer('responses');
    const abort = new AbortController();
    const deltas: string[] = [];
    const stream = clientFor(fake).responses.stream({ model: 'm', input: 'SLOW: 100' }, { signal: abort.signal });
    stream.on('response.output_text.delta', (e) => {
      deltas.push(e.delta);
      if (deltas.length === 2) abort.abort();
    });
    await expect(stream.finalResponse()).rejects.toThrow();
    await fake.waitForDisconnects(1);
    expect(deltas).toEqual(['tick00 ', 'tick01 ']);
  });

  it('answers 404 outside /v1/responses and records the request', async () => {
    fake = await startAgentModelServer('responses');
    const res = await fetch(`${fake.origin}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });
});

describe('startAgentModelServer("chat")', () => {
  it('streams text, and answers a non-streamed background call with plain JSON', async () => {
    fake = await startAgentModelServer('chat');
    const client = clientFor(fake);
    const streamed = await client.chat.completions
      .stream({ model: 'q', messages: [{ role: 'user', content: 'hello' }] })
      .finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe('ok: hello');
    const background = await client.chat.completions.create({ model: 'q', messages: [{ role: 'user', content: 'x' }] });
    expect(background.choices[0]?.message.content).toBe('ok');
    expect(fake.calls.map((c) => c.request.stream)).toEqual([true, false]);
  });

  it('answers RUN: with a run_shell_command call the client assembles', async () => {
    fake = await startAgentModelServer('chat');
    const done = await clientFor(fake)
      .chat.completions.stream({ model: 'q', messages: [{ role: 'user', content: 'RUN: ls' }], tools: [runShell] })
      .finalChatCompletion();
    const choice = done.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0] as { function: { name: string; arguments: string } } | undefined;
    expect(call?.function.name).toBe('run_shell_command');
    expect(JSON.parse(call!.function.arguments)).toEqual({ command: 'ls', description: 'run ls' });
  });

  it('uses a replaced script for later requests', async () => {
    fake = await startAgentModelServer('chat');
    fake.setScript(() => ({ text: 'scripted' }));
    const done = await clientFor(fake)
      .chat.completions.stream({ model: 'q', messages: [{ role: 'user', content: 'hi' }] })
      .finalChatCompletion();
    expect(done.choices[0]?.message.content).toBe('scripted');
  });
});

/** The `data:` payloads of an SSE body. */
async function sseData(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

type GeminiChunk = { candidates: Array<{ content: { parts: Array<Record<string, unknown>> }; finishReason?: string }> };
const partsOf = (chunks: Array<Record<string, unknown>>): Array<Record<string, unknown>> =>
  chunks.flatMap((c) => (c as GeminiChunk).candidates[0]!.content.parts);

describe('startAgentModelServer("gemini")', () => {
  const shell = {
    functionDeclarations: [
      {
        name: 'run_shell_command',
        parametersJsonSchema: { type: 'object', properties: { command: { type: 'string' }, description: {} } },
      },
    ],
  };
  const post = (f: AgentModelServer, path: string, body: unknown): Promise<Response> =>
    fetch(`${f.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
      body: JSON.stringify(body),
    });

  it('answers the routing call with JSON that follows its schema', async () => {
    fake = await startAgentModelServer('gemini');
    expect(fake.baseUrl).toBe(fake.origin);
    const res = await post(fake, '/v1beta/models/gemini-3.5-flash-lite:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'hello' }] }],
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'object',
          properties: { complexity_reasoning: { type: 'string' }, complexity_score: { type: 'integer' } },
        },
      },
    });
    const body = (await res.json()) as GeminiChunk;
    expect(body.candidates[0]!.finishReason).toBe('STOP');
    expect(JSON.parse(String(body.candidates[0]!.content.parts[0]!.text))).toEqual({
      complexity_reasoning: 'fake',
      complexity_score: 1,
    });
    expect(fake.calls[0]!.request).toMatchObject({ api: 'gemini', model: 'gemini-3.5-flash-lite', stream: false });
  });

  it('streams text, a run_shell_command call, then quotes the functionResponse', async () => {
    fake = await startAgentModelServer('gemini');
    const path = '/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse';
    const hello = await sseData(await post(fake, path, { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }));
    expect(
      partsOf(hello)
        .map((p) => p.text ?? '')
        .join(''),
    ).toBe('ok: hello');
    expect((hello.at(-1) as GeminiChunk).candidates[0]!.finishReason).toBe('STOP');
    const run = await sseData(
      await post(fake, path, { contents: [{ role: 'user', parts: [{ text: 'RUN: ls' }] }], tools: [shell] }),
    );
    expect(partsOf(run).find((p) => p.functionCall)).toEqual({
      functionCall: { name: 'run_shell_command', args: { command: 'ls', description: 'run ls' } },
    });
    const after = await sseData(
      await post(fake, path, {
        tools: [shell],
        contents: [
          { role: 'user', parts: [{ text: 'RUN: ls' }] },
          { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'a.txt' } } }] },
        ],
      }),
    );
    expect(
      partsOf(after)
        .map((p) => p.text ?? '')
        .join(''),
    ).toBe('ran: a.txt');
  });

  it('answers 404 on another path and 400 with the cause when the script throws', async () => {
    fake = await startAgentModelServer('gemini');
    expect((await post(fake, '/v1/models/x:generateContent', {})).status).toBe(404);
    const res = await post(fake, '/v1beta/models/m:streamGenerateContent?alt=sse', {
      contents: [{ role: 'user', parts: [{ text: 'RUN: ls' }] }],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/no shell tool offered/);
  });
});
