import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSpec } from './canonical.js';
import {
  buildOpenAIRequest,
  mapOpenAIFinishReason,
  OpenAIStreamDecoder,
  toOpenAIMessages,
  toOpenAITools,
  ToolCallAccumulator,
  type OpenAIChunkLike,
} from './openai-wire.js';

const tool: ToolSpec = {
  name: 'cc_exec',
  description: 'Run a read-only ChainlessChain command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};

const ids = (): (() => string) => {
  let n = 0;
  return () => `gen_${n++}`;
};

describe('toOpenAIMessages', () => {
  it('converts every role, including the assistant tool call and its tool reply', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'user', content: '列一下笔记' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'cc_exec', arguments: '{"command":"note"}' }],
      },
      { role: 'tool', toolCallId: 'call_1', name: 'cc_exec', content: 'exitCode=0', isError: false },
      { role: 'assistant', content: '你有 3 条笔记' },
    ];
    expect(toOpenAIMessages(messages)).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: '列一下笔记' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'cc_exec', arguments: '{"command":"note"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'exitCode=0' },
      { role: 'assistant', content: '你有 3 条笔记' },
    ]);
  });

  it('keeps the prefix text of a tool-calling turn and sends "{}" for empty arguments', () => {
    const [m] = toOpenAIMessages([
      { role: 'assistant', content: '我查一下', toolCalls: [{ id: 'c', name: 'cc_exec', arguments: ' ' }] },
    ]);
    expect(m).toEqual({
      role: 'assistant',
      content: '我查一下',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'cc_exec', arguments: '{}' } }],
    });
  });
});

describe('toOpenAITools / buildOpenAIRequest', () => {
  it('wraps tools as function tools', () => {
    expect(toOpenAITools([tool])).toEqual([
      { type: 'function', function: { name: 'cc_exec', description: tool.description, parameters: tool.parameters } },
    ]);
  });

  it('asks for a stream with usage, and leaves tools out when there are none', () => {
    const withTools = buildOpenAIRequest('m', [{ role: 'user', content: 'hi' }], [tool]);
    expect(withTools).toMatchObject({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function' }],
    });
    expect('tools' in buildOpenAIRequest('m', [], [])).toBe(false);
  });
});

describe('ToolCallAccumulator', () => {
  it('joins argument pieces keyed by index', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'call_1', type: 'function', function: { name: 'cc_exec', arguments: '' } });
    acc.push({ index: 0, function: { arguments: '{"command":' } });
    acc.push({ index: 0, function: { arguments: '"note",' } });
    acc.push({ index: 0, function: { arguments: '"subargs":["list"]}' } });
    expect(acc.finish()).toEqual([
      { id: 'call_1', name: 'cc_exec', arguments: '{"command":"note","subargs":["list"]}' },
    ]);
  });

  it('keeps several calls apart by index, in order', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'a', function: { name: 'one', arguments: '{"x":' } });
    acc.push({ index: 1, id: 'b', function: { name: 'two', arguments: '{"y":' } });
    acc.push({ index: 0, function: { arguments: '1}' } });
    acc.push({ index: 1, function: { arguments: '2}' } });
    expect(acc.finish()).toEqual([
      { id: 'a', name: 'one', arguments: '{"x":1}' },
      { id: 'b', name: 'two', arguments: '{"y":2}' },
    ]);
  });

  it('continues the latest call when a fragment has no index (and no id)', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ id: 'call_9', function: { name: 'cc_exec', arguments: '{"command"' } });
    acc.push({ function: { arguments: ':"status"}' } });
    expect(acc.finish()).toEqual([{ id: 'call_9', name: 'cc_exec', arguments: '{"command":"status"}' }]);
  });

  it('routes an index-less fragment by its id', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'a', function: { name: 'one', arguments: '{' } });
    acc.push({ index: 1, id: 'b', function: { name: 'two', arguments: '{' } });
    acc.push({ id: 'a', function: { arguments: '}' } });
    expect(acc.finish().map((c) => c.arguments)).toEqual(['{}', '{']);
  });

  it('takes a name that arrives after the id', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'call_1', function: { arguments: '' } });
    acc.push({ index: 0, function: { name: 'cc_exec', arguments: '{"command":"status"}' } });
    expect(acc.finish()).toEqual([{ id: 'call_1', name: 'cc_exec', arguments: '{"command":"status"}' }]);
  });

  it('serializes arguments that arrive as an object', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'c', function: { name: 'cc_exec', arguments: { command: 'note', subargs: ['list'] } } });
    expect(acc.finish()[0]?.arguments).toBe('{"command":"note","subargs":["list"]}');
  });

  it('gives a no-arg call "{}"', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'c', function: { name: 'status_tool', arguments: '' } });
    acc.push({ index: 1, id: 'd', function: { name: 'other_tool' } });
    expect(acc.finish().map((c) => c.arguments)).toEqual(['{}', '{}']);
  });

  it('takes the whole call from one fragment (older Doubao)', () => {
    const acc = new ToolCallAccumulator();
    acc.push({
      index: 0,
      id: 'call_d',
      type: 'function',
      function: { name: 'cc_exec', arguments: '{"command":"skill","subargs":["list"]}' },
    });
    expect(acc.finish()).toEqual([
      { id: 'call_d', name: 'cc_exec', arguments: '{"command":"skill","subargs":["list"]}' },
    ]);
  });

  it('treats a reused index with a new id as a new call', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'a', function: { name: 'one', arguments: '{}' } });
    acc.push({ index: 0, id: 'b', function: { name: 'two', arguments: '{}' } });
    expect(acc.finish().map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('makes up an id when none came, and drops calls that never got a name', () => {
    const acc = new ToolCallAccumulator({ newId: ids() });
    acc.push({ index: 0, function: { name: 'cc_exec', arguments: '{}' } });
    acc.push({ index: 1, function: { arguments: '{"orphan":true}' } });
    acc.push(null);
    acc.push('junk');
    expect(acc.finish()).toEqual([{ id: 'gen_0', name: 'cc_exec', arguments: '{}' }]);
  });

  it('keeps malformed argument text as received (the dispatcher answers it with 64)', () => {
    const acc = new ToolCallAccumulator();
    acc.push({ index: 0, id: 'c', function: { name: 'cc_exec', arguments: '{"command": "no' } });
    expect(acc.finish()[0]?.arguments).toBe('{"command": "no');
  });
});

describe('OpenAIStreamDecoder', () => {
  const c = (delta: Record<string, unknown>, finish: string | null = null): OpenAIChunkLike => ({
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

  it('streams text, then yields the calls, usage and finish at the end', () => {
    const d = new OpenAIStreamDecoder();
    const events = [
      ...d.push(c({ role: 'assistant', content: '我查' })),
      ...d.push(c({ content: '一下' })),
      ...d.push(c({ tool_calls: [{ index: 0, id: 'x', function: { name: 'cc_exec', arguments: '{}' } }] })),
      ...d.push(c({}, 'tool_calls')),
      ...d.push({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2 } }),
      ...d.end(),
    ];
    expect(events).toEqual([
      { type: 'text', delta: '我查' },
      { type: 'text', delta: '一下' },
      { type: 'tool_call', call: { id: 'x', name: 'cc_exec', arguments: '{}' } },
      { type: 'usage', inputTokens: 5, outputTokens: 2 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('drops the lone "\\n" that older Doubao sends with a single-chunk call', () => {
    const d = new OpenAIStreamDecoder();
    const events = [
      ...d.push(
        c(
          {
            content: '\n',
            tool_calls: [{ index: 0, id: 'd', function: { name: 'cc_exec', arguments: '{"command":"status"}' } }],
          },
          'tool_calls',
        ),
      ),
      ...d.end(),
    ];
    expect(events).toEqual([
      { type: 'tool_call', call: { id: 'd', name: 'cc_exec', arguments: '{"command":"status"}' } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('maps reasoning_content and reasoning to reasoning events, and ignores other choices', () => {
    const d = new OpenAIStreamDecoder();
    expect(d.push(c({ reasoning_content: '先想' }))).toEqual([{ type: 'reasoning', delta: '先想' }]);
    expect(d.push(c({ reasoning: 'think' }))).toEqual([{ type: 'reasoning', delta: 'think' }]);
    expect(d.push({ choices: [{ index: 1, delta: { content: 'other choice' } }] })).toEqual([]);
  });

  it('accepts a tool_calls object that is not wrapped in an array', () => {
    const d = new OpenAIStreamDecoder();
    d.push(c({ tool_calls: { id: 'o', function: { name: 'cc_exec', arguments: '{}' } } }));
    expect(d.end()[0]).toEqual({ type: 'tool_call', call: { id: 'o', name: 'cc_exec', arguments: '{}' } });
  });

  it('emits no usage event when the server sent none', () => {
    const d = new OpenAIStreamDecoder();
    d.push(c({ content: 'hi' }, 'stop'));
    expect(d.end()).toEqual([{ type: 'finish', reason: 'stop' }]);
  });
});

describe('mapOpenAIFinishReason', () => {
  it.each([
    ['stop', false, 'stop'],
    ['tool_calls', false, 'tool_calls'],
    ['function_call', false, 'tool_calls'],
    ['stop', true, 'tool_calls'],
    [undefined, true, 'tool_calls'],
    ['length', true, 'length'],
    ['content_filter', false, 'other'],
    ['insufficient_system_resource', false, 'error'],
    [undefined, false, 'other'],
  ] as const)('%s (calls: %s) → %s', (reason, hadCalls, expected) => {
    expect(mapOpenAIFinishReason(reason, hadCalls)).toBe(expected);
  });
});
