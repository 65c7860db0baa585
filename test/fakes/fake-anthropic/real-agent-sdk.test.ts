// The REAL Agent SDK query() (spawning its bundled Claude Code binary) against the fake API:
// how canUseTool is called and how AskUserQuestion is answered (documented in README.md).
import { query } from '@anthropic-ai/claude-agent-sdk';
import type { CanUseTool, PermissionResult, SDKMessage, SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundledClaudePath } from './claude-env.js';
import { createClaudeSandbox } from './claude-sandbox.js';
import type { ClaudeSandbox } from './claude-sandbox.js';
import { startFakeAnthropic } from './fake-anthropic-server.js';
import type { FakeAnthropic } from './fake-anthropic-server.js';

const RUN_TIMEOUT_MS = 60_000;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- SDK messages are asserted field by field
type Call = { toolName: string; input: Record<string, unknown>; opts: Parameters<CanUseTool>[2] };

let fake: FakeAnthropic;
let sb: ClaudeSandbox;
const controllers = new Set<AbortController>();

beforeEach(async () => {
  fake = await startFakeAnthropic();
  sb = createClaudeSandbox(fake.url);
});
afterEach(async () => {
  for (const ac of controllers) ac.abort(); // kills any child still running
  controllers.clear();
  sb.cleanup();
  await fake.close();
});

/** Runs one prompt through query() with `decide` as canUseTool; returns every message and every call. */
async function run(
  prompt: string,
  decide: (c: Call) => PermissionResult,
): Promise<{ messages: Json[]; calls: Call[]; result: SDKResultMessage }> {
  const ac = new AbortController();
  controllers.add(ac);
  const timer = setTimeout(() => ac.abort(), RUN_TIMEOUT_MS);
  const calls: Call[] = [];
  const messages: SDKMessage[] = [];
  try {
    const q = query({
      prompt,
      options: {
        cwd: sb.cwd,
        env: sb.env, // replaces the child's whole environment
        abortController: ac,
        canUseTool: async (toolName, input, opts) => {
          const call = { toolName, input, opts };
          calls.push(call);
          return decide(call);
        },
      },
    });
    for await (const m of q) messages.push(m);
  } finally {
    clearTimeout(timer);
    controllers.delete(ac);
  }
  const result = messages.at(-1);
  if (result?.type !== 'result') throw new Error(`last message is ${result?.type}`);
  return { messages: messages as Json[], calls, result };
}

const toolResults = (messages: Json[]): Json[] =>
  messages
    .filter((m) => m.type === 'user')
    .flatMap((m) => (m.message.content as Json[]).filter((b) => b.type === 'tool_result'));

describe.skipIf(!bundledClaudePath())('real Agent SDK query() against the fake Anthropic API', () => {
  it('canUseTool is asked for Bash touch; allow runs it', { timeout: RUN_TIMEOUT_MS }, async () => {
    const { messages, calls, result } = await run('tool: Bash touch f', ({ input }) => ({
      behavior: 'allow',
      updatedInput: input,
    }));

    expect(calls).toHaveLength(1);
    const [call] = calls as [Call];
    expect(call.toolName).toBe('Bash');
    expect(call.input).toEqual({ command: 'touch f' });
    const toolUse = messages.find((m) => m.type === 'assistant')?.message.content[0] as Json;
    expect(call.opts.signal).toBeInstanceOf(AbortSignal);
    expect(call.opts).toMatchObject({
      toolUseID: toolUse.id,
      displayName: 'Bash',
      description: 'touch f',
      blockedPath: join(sb.cwd, 'f'),
    });
    expect(typeof call.opts.requestId).toBe('string');
    expect(call.opts.suggestions).toEqual([
      {
        type: 'addRules',
        rules: [{ toolName: 'Bash', ruleContent: 'touch f *' }],
        behavior: 'allow',
        destination: 'localSettings',
      },
      { type: 'addDirectories', directories: [sb.cwd], destination: 'session' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
    ]);

    expect(existsSync(join(sb.cwd, 'f'))).toBe(true);
    expect(toolResults(messages)).toMatchObject([{ is_error: false }]);
    expect(result).toMatchObject({
      subtype: 'success',
      is_error: false,
      permission_denials: [],
      result: 'tool-result: ok (Bash completed with no output)',
    });
  });

  it(
    'deny: is_error tool_result carrying the message, and permission_denials',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const { messages, calls, result } = await run('tool: Bash touch f', () => ({
        behavior: 'deny',
        message: 'nope from the test',
      }));

      expect(calls.map((c) => c.toolName)).toEqual(['Bash']);
      expect(existsSync(join(sb.cwd, 'f'))).toBe(false);
      expect(toolResults(messages)).toMatchObject([{ is_error: true, content: 'nope from the test' }]);
      expect(result).toMatchObject({
        subtype: 'success',
        is_error: false,
        result: 'tool-result: error nope from the test',
        permission_denials: [
          { tool_name: 'Bash', tool_use_id: calls[0]?.opts.toolUseID, tool_input: { command: 'touch f' } },
        ],
      });
    },
  );

  it(
    'AskUserQuestion arrives as canUseTool; allow with updatedInput.answers answers it',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const { messages, calls, result } = await run('ask: Which color? | red | blue', ({ input }) => ({
        behavior: 'allow',
        updatedInput: { ...input, answers: { 'Which color?': 'blue' } },
      }));

      expect(calls).toHaveLength(1);
      const [call] = calls as [Call];
      expect(call.toolName).toBe('AskUserQuestion');
      expect(call.input).toEqual({
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
      });
      expect(call.opts).toMatchObject({ displayName: 'AskUserQuestion', requiresUserInteraction: true });
      expect(call.opts.suggestions).toBeUndefined();

      expect(toolResults(messages)).toMatchObject([
        {
          content:
            'Your questions have been answered: "Which color?"="blue". You can now continue with these answers in mind.',
        },
      ]);
      const answered = messages.find((m) => m.type === 'user');
      expect(answered?.tool_use_result).toMatchObject({ answers: { 'Which color?': 'blue' } });
      expect(result).toMatchObject({ is_error: false, result: 'answered: blue', permission_denials: [] });
    },
  );
});
