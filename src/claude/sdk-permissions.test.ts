import type { CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import type {
  EngineEvent,
  PermissionDecision,
  PermissionHandler,
  PermissionRequest,
  QuestionRequest,
} from '../engine/engine-types.js';
import { PermissionPolicy, type RuleSet } from './permission-policy.js';
import { PermissionStore } from './permission-store.js';
import { createCanUseTool } from './sdk-permissions.js';

let dir: string;
let store: PermissionStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-cut-'));
  store = new PermissionStore(path.join(dir, 'permissions.json'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const SUGGESTIONS = [
  {
    type: 'addRules' as const,
    rules: [{ toolName: 'Bash', ruleContent: 'touch f *' }],
    behavior: 'allow' as const,
    destination: 'localSettings' as const,
  },
  { type: 'setMode' as const, mode: 'acceptEdits' as const, destination: 'session' as const },
];
const opts = (extra: Record<string, unknown> = {}) =>
  ({
    signal: new AbortController().signal,
    toolUseID: 'toolu_1',
    requestId: 'r1',
    suggestions: SUGGESTIONS,
    ...extra,
  }) as Parameters<CanUseTool>[2];

interface Harness {
  canUseTool: CanUseTool;
  events: EngineEvent[];
  asked: PermissionRequest[];
  questions: QuestionRequest[];
  paused: () => number;
  rules: RuleSet;
  run: AbortController;
}

function harness(
  answer: ((req: PermissionRequest, signal: AbortSignal) => Promise<PermissionDecision>) | null,
  o: { timeoutMs?: number; disallowed?: string[]; question?: PermissionHandler['askQuestion'] } = {},
): Harness {
  const events: EngineEvent[] = [];
  const asked: PermissionRequest[] = [];
  const questions: QuestionRequest[] = [];
  let pauseDepth = 0;
  let maxPause = 0;
  const rules: RuleSet = { allowed: ['Read'], disallowed: o.disallowed ?? [] };
  const run = new AbortController();
  const handler: PermissionHandler | undefined = answer
    ? {
        requestPermission: (req, signal) => {
          asked.push(req);
          return answer(req, signal);
        },
        askQuestion:
          o.question ??
          (async (req) => {
            questions.push(req);
            return { answers: { [req.questions[0]?.question ?? '']: 'blue' } };
          }),
      }
    : undefined;
  const canUseTool = createCanUseTool({
    policy: new PermissionPolicy(
      { allowed_tools: ['Read'], disallowed_tools: o.disallowed ?? [] },
      store,
      silentLogger,
    ),
    rules,
    handler,
    emit: (e) => events.push(e),
    pause: () => {
      pauseDepth += 1;
      maxPause = Math.max(maxPause, pauseDepth);
    },
    resume: () => (pauseDepth -= 1),
    runSignal: run.signal,
    timeoutMs: o.timeoutMs ?? 5000,
    cwd: dir,
    home: dir,
    userId: 'ou_owner',
    lang: 'en',
    logger: silentLogger,
  });
  return { canUseTool, events, asked, questions, paused: () => maxPause, rules, run };
}

describe('createCanUseTool', () => {
  it('asks the handler with a permission_request event and allows on allow', async () => {
    const h = harness(async () => ({ behavior: 'allow' }));
    const input = { command: 'touch f' };
    expect(await h.canUseTool('Bash', input, opts({ decisionReason: 'needs approval' }))).toEqual({
      behavior: 'allow',
      updatedInput: input,
    });
    const expected = {
      id: 'toolu_1',
      toolName: 'Bash',
      summary: 'Bash: touch f',
      input,
      suggestions: ['Bash(touch f *)'],
      reason: 'needs approval',
    };
    expect(h.asked).toEqual([expected]);
    expect(h.events).toEqual([{ type: 'permission_request', request: expected }]);
    expect(h.paused()).toBe(1);
    expect(await store.rules()).toEqual([]);
  });

  it('deny carries the user message, or a default one', async () => {
    expect(
      await harness(async () => ({ behavior: 'deny', message: 'not now' })).canUseTool(
        'Bash',
        { command: 'x' },
        opts(),
      ),
    ).toEqual({ behavior: 'deny', message: 'not now' });
    expect(await harness(async () => ({ behavior: 'deny' })).canUseTool('Bash', { command: 'x' }, opts())).toEqual({
      behavior: 'deny',
      message: 'The user denied this action',
    });
  });

  it('always: persists the first suggestion; the next identical call is not asked', async () => {
    const h = harness(async () => ({ behavior: 'allow', always: true }));
    await h.canUseTool('Bash', { command: 'touch f' }, opts());
    expect(await store.rules()).toEqual(['Bash(touch f *)']);
    expect((await store.list())[0]).toMatchObject({ userId: 'ou_owner', source: 'Bash: touch f' });
    expect(h.rules.allowed).toContain('Bash(touch f *)');
    await h.canUseTool('Bash', { command: 'touch f' }, opts());
    expect(h.asked).toHaveLength(1);
  });

  it('always with an explicit rule persists that rule', async () => {
    await harness(async () => ({ behavior: 'allow', always: true, rule: 'Bash(touch:*)' })).canUseTool(
      'Bash',
      { command: 'touch f' },
      opts(),
    );
    expect(await store.rules()).toEqual(['Bash(touch:*)']);
  });

  it('suppressAlwaysAllowRule hides suggestions (nothing can be persisted)', async () => {
    const h = harness(async () => ({ behavior: 'allow', always: true }));
    await h.canUseTool('Bash', { command: 'touch f' }, opts({ suppressAlwaysAllowRule: true }));
    expect(h.asked[0]?.suggestions).toEqual([]);
    expect(await store.rules()).toEqual([]);
  });

  it('allowed_tools and disallowed_tools are applied without asking', async () => {
    const h = harness(async () => ({ behavior: 'allow' }), { disallowed: ['Bash(rm:*)'] });
    expect(await h.canUseTool('Read', { file_path: '/x' }, opts())).toEqual({
      behavior: 'allow',
      updatedInput: { file_path: '/x' },
    });
    expect(await h.canUseTool('Bash', { command: 'rm -rf x' }, opts())).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('Bash(rm:*)'),
    });
    expect(h.asked).toEqual([]);
  });

  it('an unanswered prompt is denied after sdk.timeout_ms and the handler sees its signal abort', async () => {
    let seen: AbortSignal | undefined;
    const h = harness(
      (_req, signal) => {
        seen = signal;
        return new Promise(() => undefined);
      },
      { timeoutMs: 50 },
    );
    expect(await h.canUseTool('Bash', { command: 'x' }, opts())).toEqual({
      behavior: 'deny',
      message: 'The user did not answer the permission request within 1 s; denied automatically',
    });
    expect(seen?.aborted).toBe(true);
  });

  it('a stopped run or a throwing handler denies; no handler denies', async () => {
    const h = harness(() => new Promise(() => undefined));
    const pending = h.canUseTool('Bash', { command: 'x' }, opts());
    h.run.abort();
    expect(await pending).toMatchObject({ behavior: 'deny' });
    expect(
      await harness(async () => Promise.reject(new Error('card failed'))).canUseTool('Bash', { command: 'x' }, opts()),
    ).toMatchObject({ behavior: 'deny' });
    expect(await harness(null).canUseTool('Bash', { command: 'x' }, opts())).toEqual({
      behavior: 'deny',
      message: 'This channel cannot approve tools interactively; denied',
    });
  });

  it('AskUserQuestion becomes a question; answers go back in updatedInput.answers', async () => {
    const h = harness(async () => ({ behavior: 'deny' }));
    const input = {
      questions: [
        {
          question: 'Which color?',
          header: 'Question',
          multiSelect: false,
          options: [{ label: 'red', description: 'r' }, { label: 'blue' }],
        },
      ],
    };
    const r = await h.canUseTool('AskUserQuestion', input, opts({ suggestions: undefined }));
    expect(r).toEqual({ behavior: 'allow', updatedInput: { ...input, answers: { 'Which color?': 'blue' } } });
    expect(h.questions[0]).toEqual({ id: 'toolu_1', questions: input.questions });
    expect(h.events[0]?.type).toBe('question');
    expect(h.asked).toEqual([]);
  });

  it('an answer that is not an option of its question is denied, never passed to Claude', async () => {
    const input = {
      questions: [
        { question: 'Which color?', options: [{ label: 'red' }, { label: 'blue' }] },
        { question: 'Which size?', multiSelect: true, options: [{ label: 'S' }, { label: 'L' }] },
      ],
    };
    const denied = { behavior: 'deny', message: 'The answer was not one of the options the question offered; denied' };
    const forged: Record<string, string>[] = [
      { 'Which color?': 'green' }, // not offered
      { 'Which color?': 'L' }, // a label of another question
      { 'Which colour?': 'red' }, // not a question that was asked
      { 'Which color?': 'red', 'Which size?': 'XL' },
      { 'Which color?': 'red, blue' }, // several labels for a single-select question
      {},
    ];
    for (const answers of forged) {
      const h = harness(async () => ({ behavior: 'allow' }), { question: async () => ({ answers }) });
      expect(await h.canUseTool('AskUserQuestion', input, opts()), JSON.stringify(answers)).toEqual(denied);
    }
    const offered: Record<string, string>[] = [
      { 'Which color?': 'red' },
      { 'Which color?': 'blue', 'Which size?': 'S, L' },
    ];
    for (const answers of offered) {
      const h = harness(async () => ({ behavior: 'deny' }), { question: async () => ({ answers }) });
      expect(await h.canUseTool('AskUserQuestion', input, opts())).toEqual({
        behavior: 'allow',
        updatedInput: { ...input, answers },
      });
    }
  });

  it('a cancelled question is denied', async () => {
    const h = harness(async () => ({ behavior: 'allow' }), { question: async () => ({ cancelled: true }) });
    expect(await h.canUseTool('AskUserQuestion', { questions: [] }, opts())).toEqual({
      behavior: 'deny',
      message: 'The user did not answer the question',
    });
  });
});
