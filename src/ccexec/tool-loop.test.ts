import { describe, expect, it, vi } from 'vitest';
import { callTurn, scriptedProvider, textTurn } from '../../test/fakes/scripted-model-provider.js';
import type { ChatMessage } from './providers/canonical.js';
import { ProviderError } from './providers/provider-error.js';
import { createTokenWatchdog } from './token-watchdog.js';
import type { ExecFn, ExecOutcome } from './exec-service.js';
import { harness, noteList, ok, tool, types, zh } from '../../test/fakes/tool-loop-harness.js';
import { MAX_TOOL_ROUNDS } from './tool-loop.js';

describe('runToolLoop: answers and tool rounds', () => {
  it('answers without tools: THINKING → text → COMPLETE, history = user + answer', async () => {
    const h = harness([textTurn('你好', '！')]);
    const r = await h.run();
    expect(r.state).toBe('COMPLETE');
    expect(r.answer).toBe('你好！');
    expect(types(r.events)).toEqual(['THINKING', 'COMPLETE']);
    expect(r.events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual([
      '你好',
      '！',
    ]);
    expect(r.messages).toEqual([
      { role: 'user', content: '列一下最近的 10 个 note' },
      { role: 'assistant', content: '你好！' },
    ]);
    expect(h.seen).toEqual(r.events);
    expect(h.provider.requests[0]?.tools).toEqual([tool]);
    expect(h.provider.requests[0]?.messages[0]).toEqual({ role: 'system', content: zh('systemPrompt', { max: 3 }) });
  });

  it('runs one call and feeds its plain-text result back, with the chat states in order', async () => {
    const h = harness([
      callTurn([{ id: 'c1', args: noteList }], '我帮你查一下…'),
      textTurn('你最近有 1 条笔记：网关设计。'),
    ]);
    const r = await h.run();
    expect(r.state).toBe('COMPLETE');
    expect(types(r.events)).toEqual(['THINKING', 'TOOL_CALLED', 'TOOL_RUNNING', 'TOOL_DONE', 'FINALIZING', 'COMPLETE']);
    expect(h.exec).toHaveBeenCalledTimes(1);
    expect(h.exec.mock.calls[0]?.[0]).toEqual(['note', 'list', '--limit', '10']);
    const done = r.events.find((e) => e.type === 'TOOL_DONE');
    expect(done).toMatchObject({
      callId: 'c1',
      commandLine: 'cc note list --limit 10',
      decision: 'allowed',
      exitCode: 0,
      durationMs: 42,
      preview: 'Notes (1):\n\n  d4f00559  网关设计  2026-11-30 09:21:49',
      round: 1,
    });
    const running = r.events.find((e) => e.type === 'TOOL_RUNNING');
    expect(running).toMatchObject({ timeoutMs: 30_000 });
    const second = h.provider.requests[1]?.messages ?? [];
    expect(second.at(-2)).toEqual({
      role: 'assistant',
      content: '我帮你查一下…',
      toolCalls: [{ id: 'c1', name: 'cc_exec', arguments: JSON.stringify(noteList) }],
    });
    expect(second.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', name: 'cc_exec' });
    expect((second.at(-1) as { content: string }).content).toMatch(
      /^exitCode=0\nduration=42ms\nstdout \(truncated to 4KB if needed\):\nNotes \(1\)/,
    );
    expect(r.messages).toHaveLength(4);
    expect(h.records).toEqual([
      expect.objectContaining({
        callId: 'c1',
        decision: 'allowed',
        argv: ['note', 'list', '--limit', '10'],
        exitCode: 0,
      }),
    ]);
  });

  it('runs only the first call of a turn and answers the others with a note', async () => {
    const h = harness([
      callTurn([
        { id: 'a', args: noteList },
        { id: 'b', args: { command: 'skill', subargs: ['list'] } },
        { id: 'c', args: { command: 'status', subargs: [] } },
      ]),
      textTurn('done'),
    ]);
    const r = await h.run();
    expect(h.exec).toHaveBeenCalledTimes(1);
    const tools = (h.provider.requests[1]?.messages ?? []).filter(
      (m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool',
    );
    expect(tools.map((m) => m.toolCallId)).toEqual(['a', 'b', 'c']);
    expect(tools[1]).toMatchObject({ content: zh('oneCallPerTurn'), isError: true });
    expect(r.events.filter((e) => e.type === 'TOOL_DONE').map((e) => (e as { decision: string }).decision)).toEqual([
      'allowed',
      'skipped',
      'skipped',
    ]);
    expect(r.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'extra-calls-skipped' });
    expect(h.records.map((x) => x.decision)).toEqual(['allowed', 'skipped', 'skipped']);
    expect(r.events.filter((e) => e.type === 'TOOL_DONE')[1]).toMatchObject({
      exitCode: 126,
      commandLine: 'cc skill list',
    });
    expect(r.toolCalls).toBe(3);
  });

  it('returns the earlier result for an identical call (keys in any order) without running again', async () => {
    const h = harness([
      callTurn([{ id: 'c1', args: { command: 'search', subargs: ['RAG'] } }]),
      callTurn([{ id: 'c2', args: '{"subargs":["RAG"],"command":"search"}' }]),
      textTurn('找到 1 条'),
    ]);
    const r = await h.run();
    expect(h.exec).toHaveBeenCalledTimes(1);
    const last = h.provider.requests[2]?.messages.at(-1) as { role: string; content: string };
    expect(last.role).toBe('tool');
    expect(last.content.startsWith(`${zh('duplicateCall')}\nexitCode=0`)).toBe(true);
    expect(r.events.filter((e) => e.type === 'TOOL_DONE').map((e) => (e as { decision: string }).decision)).toEqual([
      'allowed',
      'duplicate',
    ]);
    expect(types(r.events).filter((x) => x === 'TOOL_RUNNING')).toHaveLength(1);
  });

  it('stops offering tools after 3 rounds, adds the limit note, and ignores a 4th call', async () => {
    const h = harness([
      callTurn([{ id: 'c1', args: { command: 'note', subargs: ['list'] } }]),
      callTurn([{ id: 'c2', args: { command: 'skill', subargs: ['list'] } }]),
      callTurn([{ id: 'c3', args: { command: 'status', subargs: [] } }]),
      callTurn([{ id: 'c4', args: { command: 'session', subargs: ['list'] } }], '根据已有信息：'),
    ]);
    const r = await h.run();
    expect(MAX_TOOL_ROUNDS).toBe(3);
    expect(h.exec).toHaveBeenCalledTimes(3);
    expect(h.provider.requests.map((q) => q.tools.length)).toEqual([1, 1, 1, 0]);
    const fourth = h.provider.requests[3]?.messages ?? [];
    expect(fourth.at(-1)).toEqual({ role: 'system', content: zh('limitReached', { max: 3 }) });
    expect(r).toMatchObject({ state: 'COMPLETE', answer: '根据已有信息：' });
    expect(r.events.some((e) => e.type === 'notice' && e.code === 'tool-limit-reached')).toBe(true);
    expect(r.messages.some((m) => m.role === 'system')).toBe(false);
  });

  it('the same search three times runs the CLI once and then answers in text', async () => {
    const search = { command: 'search', subargs: ['RAG'] };
    const h = harness([
      callTurn([{ id: 'c1', args: search }]),
      callTurn([{ id: 'c2', args: search }]),
      callTurn([{ id: 'c3', args: search }]),
      textTurn('只找到 1 条。'),
    ]);
    const r = await h.run();
    expect(h.exec).toHaveBeenCalledTimes(1);
    expect(r.events.filter((e) => e.type === 'TOOL_DONE').map((e) => (e as { decision: string }).decision)).toEqual([
      'allowed',
      'duplicate',
      'duplicate',
    ]);
    expect(h.provider.requests[3]?.tools).toEqual([]);
    expect(r.answer).toBe('只找到 1 条。');
  });

  it('never runs a denied call; the model gets exit 126 and the reason as an error result', async () => {
    const h = harness([
      callTurn([{ id: 'd', args: { command: 'note', subargs: ['delete', '--all'] } }]),
      textTurn('v1 暂不支持删除。'),
    ]);
    const r = await h.run();
    expect(h.exec).not.toHaveBeenCalled();
    expect(r.events.find((e) => e.type === 'TOOL_DONE')).toMatchObject({
      decision: 'denied',
      exitCode: 126,
      commandLine: 'cc note delete --all',
    });
    expect(h.provider.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', isError: true });
    expect(h.records[0]).toMatchObject({ decision: 'denied', exitCode: 126 });
  });

  it('shows unreadable arguments as the raw call and answers with exit 64', async () => {
    const h = harness([callTurn([{ id: 'm', args: '{"command":"note",' }]), textTurn('抱歉')]);
    const r = await h.run();
    expect(r.events.find((e) => e.type === 'TOOL_DONE')).toMatchObject({
      decision: 'invalid',
      exitCode: 64,
      argv: null,
      commandLine: 'cc_exec {"command":"note",',
    });
  });
});

describe('runToolLoop: history watchdog', () => {
  it('keeps system + the last 4 messages + the current turn once the estimate passes 70%', async () => {
    const history: ChatMessage[] = [];
    for (let i = 0; i < 6; i++)
      history.push(
        { role: 'user', content: `问题 ${i} ${'填充 '.repeat(60)}` },
        { role: 'assistant', content: `回答 ${i} ${'内容 '.repeat(60)}` },
      );
    // Pick a context window between what the whole history and the trimmed window need.
    const probe = createTokenWatchdog(1e9);
    const system: ChatMessage = { role: 'system', content: zh('systemPrompt', { max: 3 }) };
    const user: ChatMessage = { role: 'user', content: '列一下最近的 10 个 note' };
    const full = probe.estimate([system, ...history, user], [tool]);
    const trimmed = probe.estimate([system, ...history.slice(-4), user], [tool]);
    expect(trimmed).toBeLessThan(full * 0.8);
    const provider = scriptedProvider([textTurn('ok')], { contextLimit: Math.round((full + trimmed) / 2 / 0.7) });
    const h = harness([], { provider, history });
    const r = await h.run();
    const sent = provider.requests[0]?.messages ?? [];
    expect(sent[0]?.role).toBe('system');
    expect(sent.slice(1).map((m) => m.content.slice(0, 4))).toEqual([
      '问题 4',
      '回答 4',
      '问题 5',
      '回答 5',
      '列一下最',
    ]);
    expect(r.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'history-trimmed' });
    expect(r.messages).toHaveLength(6); // 4 kept + question + answer
  });

  it('leaves a short conversation alone', async () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ];
    const h = harness([textTurn('ok')], { history });
    await h.run();
    expect(h.provider.requests[0]?.messages).toHaveLength(4);
  });
});

describe('runToolLoop: cancel and failure', () => {
  it('is CANCELLED when aborted while the model streams; history is unchanged', async () => {
    const ac = new AbortController();
    const history: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ];
    const h = harness([{ hangUntilAbort: true }], { signal: ac.signal, history });
    const running = h.run();
    await vi.waitFor(() => expect(h.provider.requests).toHaveLength(1));
    ac.abort();
    const r = await running;
    expect(r.state).toBe('CANCELLED');
    expect(types(r.events)).toEqual(['THINKING', 'CANCELLED']);
    expect(r.messages).toEqual(history);
  });

  it('is CANCELLED when aborted while the CLI runs, after the card shows the killed run', async () => {
    const ac = new AbortController();
    const exec = vi.fn<ExecFn>(
      (_argv, signal) =>
        new Promise<ExecOutcome>((resolve) => {
          signal?.addEventListener(
            'abort',
            () => resolve({ ...ok(''), exitCode: null, cancelled: true, durationMs: 5 }),
            { once: true },
          );
        }),
    );
    const h = harness([callTurn([{ id: 'c1', args: noteList }]), textTurn('never')], { signal: ac.signal, exec });
    const running = h.run();
    await vi.waitFor(() => expect(exec).toHaveBeenCalled());
    ac.abort();
    const r = await running;
    expect(r.state).toBe('CANCELLED');
    expect(types(r.events)).toEqual(['THINKING', 'TOOL_CALLED', 'TOOL_RUNNING', 'TOOL_DONE', 'CANCELLED']);
    expect(r.events.find((e) => e.type === 'TOOL_DONE')).toMatchObject({
      exitCode: -1,
      reason: 'cancelled',
      stopped: 'cancelled',
    });
    expect(h.provider.requests).toHaveLength(1);
    expect(h.provider.pending()).toBe(1);
  });

  it('is CANCELLED at once when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const h = harness([textTurn('never')], { signal: ac.signal });
    const r = await h.run();
    expect(r.state).toBe('CANCELLED');
    expect(h.provider.requests).toHaveLength(0);
  });

  it('is FAILED with the provider error and keeps history unchanged', async () => {
    const h = harness([
      { throws: new ProviderError('auth', { providerId: 'openai', status: 401, envVar: 'OPENAI_API_KEY' }) },
    ]);
    const r = await h.run();
    expect(r.state).toBe('FAILED');
    expect(r.error?.code).toBe('PROVIDER_AUTH');
    expect(r.error?.message).toContain('OPENAI_API_KEY');
    expect(r.events.at(-1)).toMatchObject({ type: 'FAILED', code: 'PROVIDER_AUTH' });
    expect(r.messages).toEqual([]);
  });

  it('is FAILED (redacted) on an unexpected error, and survives a throwing listener', async () => {
    const h = harness([{ throws: new Error('boom sk-abcdefghijklmnopqrstuvwxyz') }], {
      onEvent: () => {
        throw new Error('ui bug');
      },
    });
    const r = await h.run();
    expect(r.state).toBe('FAILED');
    expect(r.error?.code).toBe('CCEXEC_INTERNAL');
    expect(r.error?.message).not.toContain('sk-abcdefghijklmnop');
  });
});
