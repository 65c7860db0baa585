import { describe, expect, it, vi } from 'vitest';
import { callTurn, scriptedProvider, textTurn, type ScriptedTurn } from '../../test/fakes/scripted-model-provider.js';
import { createChatSession, type ChatSessionDeps } from './chat-session.js';
import { GateError } from './gate-error.js';
import { buildCcExecTool } from './tool-descriptor.js';
import type { ExecFn } from './exec-service.js';

function session(turns: ScriptedTurn[], overrides: Partial<ChatSessionDeps> = {}) {
  const provider = scriptedProvider(turns);
  const exec = vi.fn<ExecFn>(async () => ({
    exitCode: 0,
    durationMs: 3,
    stdout: 'ok\n',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
  }));
  const chat = createChatSession({
    provider,
    exec,
    tool: buildCcExecTool(),
    cli: async () => ({ available: true }),
    lang: 'en',
    timeoutMs: 30_000,
    ...overrides,
  });
  return { chat, provider, exec };
}

describe('createChatSession', () => {
  it('keeps the conversation across questions', async () => {
    const { chat, provider } = session([textTurn('first answer'), textTurn('second answer')]);
    expect((await chat.run('q1')).answer).toBe('first answer');
    expect((await chat.run('q2')).answer).toBe('second answer');
    expect(chat.history().map((m) => m.content)).toEqual(['q1', 'first answer', 'q2', 'second answer']);
    const second = provider.requests[1]?.messages.filter((m) => m.role !== 'system').map((m) => m.content);
    expect(second).toEqual(['q1', 'first answer', 'q2']);
    expect(chat.provider).toEqual({ id: 'scripted', model: 'scripted-model', supportsTools: true });
  });

  it('rejects a second concurrent question with CCEXEC_BUSY and still finishes the first', async () => {
    const { chat } = session([{ hangUntilAbort: true }]);
    const first = chat.run('slow');
    expect(chat.running).toBe(true);
    await expect(chat.run('again')).rejects.toMatchObject({ code: 'CCEXEC_BUSY' });
    await expect(chat.run('again')).rejects.toBeInstanceOf(GateError);
    chat.cancel();
    expect((await first).state).toBe('CANCELLED');
    expect(chat.running).toBe(false);
    expect(chat.history()).toEqual([]);
  });

  it('follows an outer abort signal and is usable again afterwards', async () => {
    const { chat, provider } = session([{ hangUntilAbort: true }, textTurn('back')]);
    const ac = new AbortController();
    const first = chat.run('slow', { signal: ac.signal });
    await vi.waitFor(() => expect(provider.requests).toHaveLength(1));
    ac.abort();
    expect((await first).state).toBe('CANCELLED');
    expect((await chat.run('hello')).answer).toBe('back');
  });

  it('reports each tool call with the session, and streams events to the listener', async () => {
    const records: string[] = [];
    const events: string[] = [];
    const { chat } = session([callTurn([{ id: 'c1', args: { command: 'status', subargs: [] } }]), textTurn('fine')], {
      onToolCall: (record, s) => void records.push(`${s.id}:${record.callId}:${record.decision}`),
    });
    const result = await chat.run('status?', { onEvent: (e) => events.push(e.type) });
    expect(records).toEqual([`${chat.id}:c1:allowed`]);
    expect(events).toEqual(result.events.map((e) => e.type));
    expect(result).not.toHaveProperty('messages');
  });

  it('asks for the CLI state before each question', async () => {
    const cli = vi.fn(async () => ({ available: false as const, reason: 'not installed' }));
    const { chat, provider } = session([textTurn('a'), textTurn('b')], { cli });
    await chat.run('1');
    await chat.run('2');
    expect(cli).toHaveBeenCalledTimes(2);
    expect(provider.requests.every((r) => r.tools.length === 0)).toBe(true);
  });
});
