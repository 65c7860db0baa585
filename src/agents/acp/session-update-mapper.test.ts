import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine/engine-types.js';
import { SessionUpdateMapper } from './session-update-mapper.js';

function mapper() {
  const events: EngineEvent[] = [];
  const skipped: string[] = [];
  const m = new SessionUpdateMapper(
    's1',
    (e) => events.push(e),
    (what) => skipped.push(what),
  );
  const send = (update: unknown, sessionId = 's1') => m.accept({ sessionId, update });
  return { m, events, skipped, send };
}
const chunk = (kind: string, text: unknown) => ({ sessionUpdate: kind, content: { type: 'text', text } });

describe('SessionUpdateMapper', () => {
  it('collects the answer from message chunks and keeps thoughts out of it', () => {
    const { m, events, send } = mapper();
    expect(send(chunk('agent_message_chunk', 'Hel'))).toBe('mapped');
    send(chunk('agent_thought_chunk', 'hmm'));
    send(chunk('agent_message_chunk', 'lo'));
    send({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'x', mimeType: 'image/png' } });
    expect(m.text()).toBe('Hello');
    expect(events).toEqual([
      { type: 'text', delta: 'Hel' },
      { type: 'thinking', delta: 'hmm' },
      { type: 'text', delta: 'lo' },
    ]);
  });

  it('drops updates of another session and ignores kinds a turn has no use for', () => {
    const { m, events, skipped, send } = mapper();
    expect(send(chunk('agent_message_chunk', 'x'), 'other')).toBe('other-session');
    expect(send(chunk('user_message_chunk', 'old question'))).toBe('ignored');
    expect(send({ sessionUpdate: 'available_commands_update', availableCommands: [] })).toBe('ignored');
    expect(m.text()).toBe('');
    expect(events).toEqual([]);
    expect(skipped).toEqual([]);
  });

  it('one tool_use per call (also when only updates come), one tool_result when it ends', () => {
    const { events, send, m } = mapper();
    send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls -la', kind: 'execute', status: 'pending' });
    send({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls -la', kind: 'execute', status: 'in_progress' });
    send({
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      status: 'completed',
      rawOutput: { output: 'a\nb', metadata: { exit: 0 } },
    });
    send({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
    m.noteToolCall({ toolCallId: 't2', title: 'rm x', kind: 'delete', rawInput: { path: 'x' } });
    send({
      sessionUpdate: 'tool_call_update',
      toolCallId: 't2',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'denied' } }],
    });
    expect(events).toEqual([
      { type: 'tool_use', id: 't1', name: 'Shell', summary: 'ls -la' },
      { type: 'tool_result', id: 't1', ok: true, summary: 'a b' },
      { type: 'tool_use', id: 't2', name: 'Delete', summary: 'x' },
      { type: 'tool_result', id: 't2', ok: false, summary: 'denied' },
    ]);
    expect(m.toolOf('t2')).toEqual({ name: 'Delete', input: { path: 'x' } });
  });

  it('finds the output where Codex puts it', () => {
    const { events, send } = mapper();
    send({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'x',
      status: 'completed',
      rawOutput: { command: ['/bin/bash', '-lc', 'echo hi'], stdout: 'hi\n', formatted_output: 'hi\n', exit_code: 0 },
    });
    expect(events.at(-1)).toEqual({ type: 'tool_result', id: 'x', ok: true, summary: 'hi' });
  });

  it('names a tool by the agent’s own name and summarizes an argv command by its script', () => {
    const { events, send } = mapper();
    send({
      sessionUpdate: 'tool_call',
      toolCallId: 'c',
      title: 'Terminal',
      kind: 'execute',
      rawInput: { command: ['/bin/bash', '-lc', 'npm test'] },
      _meta: { claudeCode: { toolName: 'Bash' } },
    });
    expect(events).toEqual([{ type: 'tool_use', id: 'c', name: 'Bash', summary: 'npm test' }]);
  });

  it('maps a plan, keeping only well-formed entries', () => {
    const { events, send } = mapper();
    send({
      sessionUpdate: 'plan',
      entries: [
        { content: 'a', priority: 'high', status: 'pending' },
        { content: 'b', status: 'weird' },
        'junk',
        { content: 'c', priority: 'low', status: 'completed' },
      ],
    });
    expect(events).toEqual([
      {
        type: 'plan',
        entries: [
          { content: 'a', status: 'pending' },
          { content: 'c', status: 'completed' },
        ],
      },
    ]);
  });

  it('usage: the prompt response wins over usage_update', () => {
    const { m, send } = mapper();
    expect(m.usage()).toBeUndefined();
    send({ sessionUpdate: 'usage_update', used: 500, size: 1000 });
    expect(m.usage()).toEqual({ inputTokens: 500 });
    m.setResponseUsage({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
    expect(m.usage()).toEqual({ inputTokens: 3, outputTokens: 4 });
    m.setResponseUsage('junk');
    expect(m.usage()).toEqual({ inputTokens: 3, outputTokens: 4 });
  });

  it('reports malformed updates and unknown kinds once each, and never throws', () => {
    const { m, skipped, send } = mapper();
    const bad: unknown[] = [
      null,
      'x',
      {},
      { sessionUpdate: 42 },
      chunk('agent_message_chunk', 42),
      { sessionUpdate: 'agent_message_chunk' },
      { sessionUpdate: 'tool_call', title: 'no id' },
      { sessionUpdate: 'plan', entries: {} },
      { sessionUpdate: 'usage_update', used: 'many' },
      { sessionUpdate: 'brand_new_kind' },
      { sessionUpdate: 'brand_new_kind' },
    ];
    for (const u of bad) expect(['malformed', 'unknown']).toContain(send(u));
    expect(m.accept(null)).toBe('malformed');
    expect(m.accept([1, 2])).toBe('malformed');
    expect(skipped.filter((s) => s.includes('brand_new_kind'))).toHaveLength(1);
    expect(new Set(skipped).size).toBe(skipped.length);
    expect(m.text()).toBe('');
  });
});
