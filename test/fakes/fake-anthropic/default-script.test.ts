import { describe, expect, it } from 'vitest';
import { defaultScript, SLOW_TICKS } from './default-script.js';
import type { ScriptRequest, ScriptToolResult } from './fake-anthropic-types.js';

const ask = (text: string): ScriptRequest => ({
  lastUserText: text,
  lastUserToolResults: [],
  messages: [],
  model: 'm',
  system: undefined,
  tools: [],
});
const results = (...r: Array<Partial<ScriptToolResult>>): ScriptRequest => ({
  ...ask(''),
  lastUserToolResults: r.map((x) => ({
    tool_use_id: 't',
    content: '',
    is_error: false,
    toolName: undefined,
    toolInput: undefined,
    ...x,
  })),
});

describe('defaultScript command language', () => {
  it.each([
    ['echo: 你好', { text: '你好' }],
    ['tool: Bash echo hi', { toolUse: { name: 'Bash', input: { command: 'echo hi' } } }],
    [
      'tool: Write {"file_path":"/tmp/x","content":"y"}',
      { toolUse: { name: 'Write', input: { file_path: '/tmp/x', content: 'y' } } },
    ],
    ['think: hmm', { thinking: 'hmm', text: 'thought: hmm' }],
    ['hang: 250', { text: 'hung: 250', delayMs: 250 }],
    [
      'fail: 401 authentication_error no key',
      { error: { status: 401, type: 'authentication_error', message: 'no key' } },
    ],
    ['just talk', { text: 'ok: just talk' }],
  ])('%s', (text, reply) => {
    expect(defaultScript(ask(text))).toEqual(reply);
  });

  it('ask: builds the AskUserQuestion input the CLI validates', () => {
    expect(defaultScript(ask('ask: Which color? | red | blue'))).toEqual({
      toolUse: {
        name: 'AskUserQuestion',
        input: {
          questions: [
            {
              question: 'Which color?',
              header: 'Question',
              options: [
                { label: 'red', description: 'Choose red' },
                { label: 'blue', description: 'Choose blue' },
              ],
              multiSelect: false,
            },
          ],
        },
      },
    });
  });

  it('slow: streams SLOW_TICKS ticks paced by the given delay', () => {
    const reply = defaultScript(ask('slow: 40'));
    expect(reply.chunkDelayMs).toBe(40);
    expect(reply.text?.split(' ').filter(Boolean)).toHaveLength(SLOW_TICKS);
  });

  it('answers tool results: ok/error with the first 200 chars, AskUserQuestion answers extracted', () => {
    expect(defaultScript(results({ content: 'x'.repeat(300), is_error: true, toolName: 'Bash' }))).toEqual({
      text: `tool-result: error ${'x'.repeat(200)}`,
    });
    const answered =
      'Your questions have been answered: "Which color?"="blue", "Size?"="L". You can now continue with these answers in mind.';
    expect(defaultScript(results({ content: answered, toolName: 'AskUserQuestion' }))).toEqual({
      text: 'answered: blue, L',
    });
    expect(
      defaultScript(results({ content: 'The user did not answer the questions.', toolName: 'AskUserQuestion' })),
    ).toEqual({
      text: 'answered: The user did not answer the questions.',
    });
  });
});
