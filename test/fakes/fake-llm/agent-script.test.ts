import { describe, expect, it } from 'vitest';
import { SLOW_DEFAULT_MS, SLOW_TICKS, defaultAgentScript, textPieces, type AgentRequest } from './agent-script.js';
import { shellToolCall } from './shell-tool-call.js';

const codexTools = [
  { name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' }, workdir: {} } } },
];
const qwenTools = [
  { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  {
    name: 'run_shell_command',
    parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } } },
  },
];

const request = (over: Partial<AgentRequest>): AgentRequest => ({
  api: 'chat',
  model: 'm',
  stream: true,
  lastUserText: '',
  toolResults: [],
  userTexts: [],
  tools: [],
  ...over,
});

describe('shellToolCall', () => {
  it('uses Codex exec_command with a string cmd', () => {
    expect(shellToolCall(codexTools, 'ls -a')).toEqual({ name: 'exec_command', args: { cmd: 'ls -a' } });
  });

  it('uses Qwen run_shell_command with command and a description', () => {
    expect(shellToolCall(qwenTools, 'ls')).toEqual({
      name: 'run_shell_command',
      args: { command: 'ls', description: 'run ls' },
    });
  });

  it('passes an argv array when the schema asks for one', () => {
    const tools = [{ name: 'shell', parameters: { properties: { command: { type: 'array' } } } }];
    expect(shellToolCall(tools, 'ls')).toEqual({ name: 'shell', args: { command: ['bash', '-lc', 'ls'] } });
  });

  it('prefers the first known name when several are offered', () => {
    expect(shellToolCall([...qwenTools, ...codexTools], 'x').name).toBe('exec_command');
  });

  it('says which tools were offered when none is a shell', () => {
    expect(() => shellToolCall(qwenTools.slice(0, 1), 'ls')).toThrow(/no shell tool offered .*got read_file/);
    expect(() => shellToolCall([], 'ls')).toThrow(/got none/);
  });

  it('refuses a shell tool whose schema has neither cmd nor command', () => {
    expect(() => shellToolCall([{ name: 'bash', parameters: { properties: { script: {} } } }], 'ls')).toThrow(
      /bash has neither "cmd" nor "command"/,
    );
    expect(() => shellToolCall([{ name: 'bash', parameters: undefined }], 'ls')).toThrow(/neither/);
  });
});

describe('defaultAgentScript', () => {
  it('answers plain text with ok: <text>', () => {
    expect(defaultAgentScript(request({ lastUserText: ' hello ' }))).toEqual({ text: 'ok: hello' });
  });

  it('answers a background (non-streamed) call with plain ok, whatever it says', () => {
    expect(defaultAgentScript(request({ stream: false, lastUserText: 'RUN: ls' }))).toEqual({ text: 'ok' });
  });

  it('calls the shell tool for RUN: <rest of the line>', () => {
    const reply = defaultAgentScript(
      request({ lastUserText: 'please\nRUN:  echo a && echo b\nthanks', tools: codexTools }),
    );
    expect(reply).toEqual({ toolCall: { name: 'exec_command', args: { cmd: 'echo a && echo b' } } });
  });

  it('quotes the tool outputs once they follow the user text', () => {
    const reply = defaultAgentScript(request({ lastUserText: 'RUN: x', toolResults: ['a', 'b'], tools: codexTools }));
    expect(reply).toEqual({ text: 'ran: a\nb' });
  });

  it('streams SLOW as paced ticks, default or given pace', () => {
    const slow = defaultAgentScript(request({ lastUserText: 'SLOW' }));
    expect(slow.chunkDelayMs).toBe(SLOW_DEFAULT_MS);
    expect(textPieces(slow.text!, slow.chunkSize)).toHaveLength(SLOW_TICKS);
    expect(defaultAgentScript(request({ lastUserText: 'SLOW: 40' })).chunkDelayMs).toBe(40);
    expect(defaultAgentScript(request({ lastUserText: 'SLOWLY' }))).toEqual({ text: 'ok: SLOWLY' });
  });

  it('throws on RUN: when the request offers no shell tool', () => {
    expect(() => defaultAgentScript(request({ lastUserText: 'RUN: ls' }))).toThrow(/no shell tool/);
  });
});

describe('textPieces', () => {
  it('splits by characters without breaking a surrogate pair', () => {
    expect(textPieces('a😀b', 1)).toEqual(['a', '😀', 'b']);
    expect(textPieces('abc')).toEqual(['abc']);
    expect(textPieces('', 3)).toEqual(['']);
  });
});

describe('defaultAgentScript with a JSON schema', () => {
  it('answers JSON following the schema before any other rule', () => {
    const reply = defaultAgentScript(
      request({
        stream: false,
        lastUserText: 'RUN: ls',
        jsonSchema: { type: 'object', properties: { next_speaker: { type: 'string', enum: ['user', 'model'] } } },
      }),
    );
    expect(JSON.parse(reply.text!)).toEqual({ next_speaker: 'user' });
  });
});
