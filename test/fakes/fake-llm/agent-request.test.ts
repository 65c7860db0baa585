import { describe, expect, it } from 'vitest';
import { chatAgentRequest, geminiAgentRequest, responsesAgentRequest } from './agent-request.js';

describe('responsesAgentRequest (Codex)', () => {
  const body = {
    model: 'gpt-5.4',
    stream: true,
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context/>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'RUN: ls' }] },
      { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'a.txt' },
      { type: 'reasoning', summary: [] },
    ],
    tools: [
      { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: {} } } },
      { type: 'web_search' },
    ],
  };

  it('reads the last user text, the tool outputs after it and the function tools', () => {
    const r = responsesAgentRequest(body);
    expect(r).toMatchObject({ api: 'responses', model: 'gpt-5.4', stream: true, lastUserText: 'RUN: ls' });
    expect(r.toolResults).toEqual(['a.txt']);
    expect(r.userTexts).toEqual(['<environment_context/>', 'RUN: ls']);
    expect(r.tools.map((t) => t.name)).toEqual(['exec_command']);
  });

  it('forgets tool outputs once a new user message follows them', () => {
    const next = { ...body, input: [...body.input, { role: 'user', content: 'again' }] };
    expect(responsesAgentRequest(next)).toMatchObject({ lastUserText: 'again', toolResults: [] });
  });

  it('reads an output given as content parts', () => {
    const input = [
      { type: 'message', role: 'user', content: 'x' },
      { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'out' }] },
    ];
    expect(responsesAgentRequest({ input }).toolResults).toEqual(['out']);
  });

  it('survives a body that is not a Responses request', () => {
    expect(responsesAgentRequest('garbage')).toMatchObject({ lastUserText: '', stream: false, tools: [] });
    expect(responsesAgentRequest(undefined).userTexts).toEqual([]);
  });
});

describe('chatAgentRequest (Qwen Code)', () => {
  it('reads user and tool messages, string or part contents', () => {
    const r = chatAgentRequest({
      model: 'q',
      stream: true,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'ok: hello' },
        { role: 'user', content: [{ type: 'text', text: 'RUN: ls' }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 't', function: { name: 'run_shell_command' } }] },
        { role: 'tool', tool_call_id: 't', content: [{ type: 'text', text: 'a.txt' }] },
      ],
      tools: [{ type: 'function', function: { name: 'run_shell_command', parameters: { properties: {} } } }],
    });
    expect(r).toMatchObject({ api: 'chat', lastUserText: 'RUN: ls', toolResults: ['a.txt'] });
    expect(r.userTexts).toEqual(['hello', 'RUN: ls']);
    expect(r.tools).toEqual([{ name: 'run_shell_command', parameters: { properties: {} } }]);
  });
});

describe('JSON-mode requests', () => {
  it('carries the schema of a chat response_format and of Gemini generationConfig', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const chat = chatAgentRequest({ messages: [], response_format: { type: 'json_schema', json_schema: { schema } } });
    expect(chat.jsonSchema).toEqual(schema);
    const gemini = geminiAgentRequest({ generationConfig: { responseJsonSchema: schema } }, false, 'm');
    expect(gemini.jsonSchema).toEqual(schema);
    const bare = geminiAgentRequest({ generationConfig: { responseMimeType: 'application/json' } }, false, 'm');
    expect(bare.jsonSchema).toEqual({});
    expect(chatAgentRequest({ messages: [] }).jsonSchema).toBeUndefined();
  });
});

describe('geminiAgentRequest', () => {
  it('reads text turns, functionResponse parts and function declarations', () => {
    const r = geminiAgentRequest(
      {
        contents: [
          { role: 'user', parts: [{ text: 'RUN: ls' }] },
          { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'a' } } }] },
        ],
        tools: [{ functionDeclarations: [{ name: 'run_shell_command', parametersJsonSchema: { properties: {} } }] }],
      },
      true,
      'gemini-x',
    );
    expect(r).toMatchObject({ api: 'gemini', model: 'gemini-x', lastUserText: 'RUN: ls', toolResults: ['a'] });
    expect(r.tools.map((t) => t.name)).toEqual(['run_shell_command']);
  });
});
