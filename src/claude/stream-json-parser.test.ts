// Lines are trimmed copies of what CLI 2.1.332 printed against the fake API
// (test/fakes/fake-anthropic/README.md "Verified CLI shapes").
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../engine/engine-types.js';
import { StreamJsonParser } from './stream-json-parser.js';

const SID = 'f121575e-e3d9-4031-b43e-909fdff79852';
const j = (o: unknown): string => JSON.stringify(o);
const init = j({
  type: 'system',
  subtype: 'init',
  cwd: '/w',
  session_id: SID,
  tools: ['Bash'],
  model: 'claude-opus-5-5',
  permissionMode: 'default',
});
const result = j({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'thought: hmm',
  session_id: SID,
  num_turns: 1,
  total_cost_usd: 0.01,
  permission_denials: [],
});
const se = (event: unknown): string => j({ type: 'stream_event', event, session_id: SID, parent_tool_use_id: null });
const assistant = (id: string, block: unknown): string =>
  j({
    type: 'assistant',
    message: { id, model: 'claude-opus-5-5', role: 'assistant', content: [block] },
    parent_tool_use_id: null,
    session_id: SID,
  });

function parse(lines: string[]): { events: EngineEvent[]; parser: StreamJsonParser } {
  const events: EngineEvent[] = [];
  const parser = new StreamJsonParser((e) => events.push(e));
  for (const l of lines) parser.pushLine(l);
  return { events, parser };
}

describe('StreamJsonParser', () => {
  it('think: (no partial messages) — session, thinking, text; keeps the result', () => {
    const { events, parser } = parse([
      init,
      j({ type: 'system', subtype: 'thinking_tokens', estimated_tokens: 1 }),
      assistant('msg_a', { type: 'thinking', thinking: 'hmm', signature: 's' }),
      assistant('msg_a', { type: 'text', text: 'thought: hmm' }),
      result,
    ]);
    expect(events).toEqual([
      { type: 'session', sessionId: SID, model: 'claude-opus-5-5' },
      { type: 'thinking', delta: 'hmm' },
      { type: 'text', delta: 'thought: hmm' },
    ]);
    expect(parser.result?.result).toBe('thought: hmm');
    expect(parser.sessionId).toBe(SID);
  });

  it('partial messages: deltas stream, the complete assistant lines are not emitted twice', () => {
    const { events } = parse([
      init,
      j({ type: 'system', subtype: 'status', status: 'requesting', session_id: SID }),
      se({ type: 'message_start', message: { id: 'msg_p', content: [] } }),
      se({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      se({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } }),
      se({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'x' } }),
      assistant('msg_p', { type: 'thinking', thinking: 'hm', signature: 'x' }),
      se({ type: 'content_block_stop', index: 0 }),
      se({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      se({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'tool-result: ok ' } }),
      se({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: '你好' } }),
      assistant('msg_p', { type: 'text', text: 'tool-result: ok 你好' }),
      se({ type: 'message_stop' }),
      result,
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'status', status: 'requesting' },
      { type: 'thinking', delta: 'hm' },
      { type: 'text', delta: 'tool-result: ok ' },
      { type: 'text', delta: '你好' },
    ]);
  });

  it('tool turns: tool_use with a summary, tool_result ok / error, blank line between text blocks', () => {
    const { events } = parse([
      init,
      assistant('msg_1', { type: 'text', text: 'Let me look.' }),
      assistant('msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'node -e 1' } }),
      j({
        type: 'system',
        subtype: 'permission_denied',
        tool_name: 'Bash',
        tool_use_id: 'toolu_1',
        message: 'This command requires approval',
      }),
      j({
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', content: 'This command requires approval', is_error: true, tool_use_id: 'toolu_1' },
          ],
        },
        parent_tool_use_id: null,
      }),
      assistant('msg_2', { type: 'text', text: 'Denied.' }),
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'text', delta: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', summary: 'node -e 1' },
      { type: 'tool_result', id: 'toolu_1', ok: false, summary: 'This command requires approval' },
      { type: 'text', delta: '\n\nDenied.' },
    ]);
  });

  it('is tolerant: invalid JSON, non-objects, unknown types, hooks and sub-agents are skipped', () => {
    const { events, parser } = parse([
      '',
      'not json at all',
      '[1,2,3]',
      '{"type":"system","subtype":"hook_started","output":"…"}',
      init,
      '{"type":"brand_new_type"}',
      j({
        type: 'assistant',
        parent_tool_use_id: 'toolu_sub',
        message: { id: 'm', content: [{ type: 'text', text: 'SUB' }] },
      }),
      j({ type: 'assistant', message: null }),
      j({ type: 'user', message: { content: 'plain string' } }),
      '{"type":"result"', // truncated last line
    ]);
    expect(events).toEqual([{ type: 'session', sessionId: SID, model: 'claude-opus-5-5' }]);
    expect(parser.invalidLines).toBe(3);
    expect(parser.result).toBeUndefined();
  });

  it('accepts SDK message objects directly and takes the session id from the result when there was no init', () => {
    const events: EngineEvent[] = [];
    const parser = new StreamJsonParser((e) => events.push(e));
    parser.push({ type: 'result', subtype: 'success', result: 'x', session_id: SID });
    expect(parser.sessionId).toBe(SID);
    expect(events).toEqual([]);
  });
});
