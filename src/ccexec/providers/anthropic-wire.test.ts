import { describe, expect, it } from 'vitest';
import {
  AnthropicStreamDecoder,
  buildAnthropicRequest,
  mapAnthropicStopReason,
  toAnthropicMessages,
  toAnthropicTools,
  toolInputObject,
  type AnthropicEventLike,
} from './anthropic-wire.js';
import type { ChatMessage, ToolSpec } from './canonical.js';

const tool: ToolSpec = {
  name: 'cc_exec',
  description: 'd',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
};

describe('toAnthropicMessages', () => {
  it('moves system messages to `system`, echoes tool_use and answers with tool_result in a user turn', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'S1' },
      { role: 'user', content: '找 RAG 笔记' },
      {
        role: 'assistant',
        content: '我搜一下',
        toolCalls: [{ id: 'toolu_1', name: 'cc_exec', arguments: '{"command":"search","subargs":["RAG"]}' }],
      },
      { role: 'tool', toolCallId: 'toolu_1', name: 'cc_exec', content: 'exitCode=0', isError: false },
      { role: 'system', content: 'S2' },
    ];
    expect(toAnthropicMessages(messages)).toEqual({
      system: 'S1\n\nS2',
      messages: [
        { role: 'user', content: '找 RAG 笔记' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '我搜一下' },
            { type: 'tool_use', id: 'toolu_1', name: 'cc_exec', input: { command: 'search', subargs: ['RAG'] } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'exitCode=0' }] },
      ],
    });
  });

  it('marks failed tool results with is_error and merges several into one user turn, results first', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'cc_exec', arguments: '{}' },
          { id: 'b', name: 'cc_exec', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', name: 'cc_exec', content: 'denied', isError: true },
      { role: 'tool', toolCallId: 'b', name: 'cc_exec', content: 'skipped' },
      { role: 'user', content: 'note: answer with what you have' },
    ]);
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'a', name: 'cc_exec', input: {} },
        { type: 'tool_use', id: 'b', name: 'cc_exec', input: {} },
      ],
    });
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'denied', is_error: true },
        { type: 'tool_result', tool_use_id: 'b', content: 'skipped' },
        { type: 'text', text: 'note: answer with what you have' },
      ],
    });
  });

  it('drops empty turns and whitespace-only text, which the API rejects', () => {
    const { system, messages } = toAnthropicMessages([
      { role: 'system', content: '  ' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '\n' },
      { role: 'user', content: 'again' },
    ]);
    expect(system).toBeUndefined();
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });
});

describe('toolInputObject', () => {
  it.each([
    ['{"command":"note"}', { command: 'note' }],
    ['', {}],
    ['[1,2]', {}],
    ['"text"', {}],
    ['{"command": "no', {}],
  ] as const)('%s', (args, expected) => {
    expect(toolInputObject(args)).toEqual(expected);
  });

  it('keeps a "__proto__" key as inert data', () => {
    const input = toolInputObject('{"__proto__":{"polluted":true},"command":"status"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(input)).toBe('{"__proto__":{"polluted":true},"command":"status"}');
  });
});

describe('buildAnthropicRequest', () => {
  it('sets max_tokens 4096 by default, streams, and converts tools to input_schema', () => {
    const body = buildAnthropicRequest(
      'claude-x',
      [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'q' },
      ],
      [tool],
    );
    expect(body).toEqual({
      model: 'claude-x',
      max_tokens: 4096,
      stream: true,
      system: 'S',
      messages: [{ role: 'user', content: 'q' }],
      tools: toAnthropicTools([tool]),
    });
    expect(toAnthropicTools([tool])).toEqual([{ name: 'cc_exec', description: 'd', input_schema: tool.parameters }]);
    const plain = buildAnthropicRequest('m', [{ role: 'user', content: 'q' }], [], 100);
    expect(plain.max_tokens).toBe(100);
    expect('tools' in plain || 'system' in plain).toBe(false);
  });
});

describe('AnthropicStreamDecoder', () => {
  const run = (events: AnthropicEventLike[]): ReturnType<AnthropicStreamDecoder['end']> => {
    const d = new AnthropicStreamDecoder();
    return [...events.flatMap((e) => d.push(e)), ...d.end()];
  };

  it('streams text, accumulates input_json_delta into one call at block stop, then usage and finish', () => {
    expect(
      run([
        { type: 'message_start', message: { usage: { input_tokens: 40, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '我查一下' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'ping' },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_1', name: 'cc_exec', input: {} },
        },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"command":' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"status"}' } },
        { type: 'content_block_stop', index: 1 },
        { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 30 } },
        { type: 'message_stop' },
      ]),
    ).toEqual([
      { type: 'text', delta: '我查一下' },
      { type: 'tool_call', call: { id: 'toolu_1', name: 'cc_exec', arguments: '{"command":"status"}' } },
      { type: 'usage', inputTokens: 40, outputTokens: 30 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('gives a no-input call "{}", takes a whole input from the start event, and closes a block the stream never closed', () => {
    const events = run([
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'a', name: 'noarg', input: {} } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'b', name: 'cc_exec', input: { command: 'note' } },
      },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'c', name: 'cc_exec', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '{"command":"skill"}' },
      },
    ]);
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([
      { type: 'tool_call', call: { id: 'a', name: 'noarg', arguments: '{}' } },
      { type: 'tool_call', call: { id: 'b', name: 'cc_exec', arguments: '{"command":"note"}' } },
      { type: 'tool_call', call: { id: 'c', name: 'cc_exec', arguments: '{"command":"skill"}' } },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('maps thinking to reasoning and makes up a missing tool_use id', () => {
    const events = run([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: '想' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', name: 'cc_exec', input: {} } },
      { type: 'content_block_stop', index: 1 },
    ]);
    expect(events[0]).toEqual({ type: 'reasoning', delta: '想' });
    const call = events.find((e) => e.type === 'tool_call');
    expect(call?.type === 'tool_call' && call.call.id).toMatch(/^toolu_[0-9a-f]{24}$/);
  });
});

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', false, 'stop'],
    ['stop_sequence', false, 'stop'],
    ['tool_use', false, 'tool_calls'],
    ['end_turn', true, 'tool_calls'],
    ['max_tokens', true, 'length'],
    ['model_context_window_exceeded', false, 'length'],
    ['refusal', false, 'other'],
    [undefined, false, 'other'],
  ] as const)('%s (calls: %s) → %s', (reason, hadCalls, expected) => {
    expect(mapAnthropicStopReason(reason, hadCalls)).toBe(expected);
  });
});
