import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import type {
  EngineEvent,
  PermissionDecision,
  PermissionDenial,
  PermissionHandler,
} from '../../engine/engine-types.js';
import { AgentPermissionStore } from './agent-permission-store.js';
import { answerPermission, type PermissionContext } from './answer-permission.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-answer-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const OPTIONS = [
  { optionId: 'once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'always', name: 'Always', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];
const params = (over: Record<string, unknown> = {}) => ({
  sessionId: 's',
  toolCall: { toolCallId: 't1', title: 'git push', kind: 'execute', rawInput: { command: 'git push' } },
  options: OPTIONS,
  ...over,
});

function context(handler: PermissionHandler | undefined, over: Partial<PermissionContext> = {}) {
  const clock: string[] = [];
  const events: EngineEvent[] = [];
  const denials: PermissionDenial[] = [];
  const c: PermissionContext = {
    agent: 'codex',
    handler,
    emit: (e) => events.push(e),
    pause: () => clock.push('pause'),
    resume: () => clock.push('resume'),
    runSignal: new AbortController().signal,
    denials,
    logger: silentLogger,
    ...over,
  };
  return { c, clock, events, denials };
}
const decide = (d: PermissionDecision): PermissionHandler => ({
  requestPermission: async () => d,
  askQuestion: async () => ({ cancelled: true }),
});
const never = new AbortController().signal;

describe('answerPermission', () => {
  it('pauses the idle clock while the user decides and announces the request', async () => {
    const { c, clock, events } = context(decide({ behavior: 'allow' }));
    expect(await answerPermission(params(), never, c)).toEqual({ outcome: { outcome: 'selected', optionId: 'once' } });
    expect(clock).toEqual(['pause', 'resume']);
    expect(events).toEqual([
      {
        type: 'permission_request',
        request: {
          id: 't1',
          toolName: 'Shell',
          kind: 'execute',
          summary: 'Shell: git push',
          input: { command: 'git push' },
          suggestions: [],
        },
      },
    ]);
  });

  it('a malformed request is rejected without asking', async () => {
    let asked = false;
    const handler: PermissionHandler = {
      requestPermission: async () => {
        asked = true;
        return { behavior: 'allow' };
      },
      askQuestion: async () => ({ cancelled: true }),
    };
    const { c } = context(handler);
    expect(await answerPermission({ options: OPTIONS }, never, c)).toEqual({
      outcome: { outcome: 'selected', optionId: 'no' },
    });
    expect(await answerPermission('junk', never, c)).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(asked).toBe(false);
  });

  it('a run already stopped → cancelled, not asked', async () => {
    const stopped = new AbortController();
    stopped.abort();
    const { c, events } = context(decide({ behavior: 'allow' }), { runSignal: stopped.signal });
    expect(await answerPermission(params(), never, c)).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(events).toEqual([]);
  });

  it('the agent withdrawing its request (request signal) while the user decides → cancelled', async () => {
    const withdraw = new AbortController();
    const handler: PermissionHandler = {
      requestPermission: () => new Promise(() => undefined),
      askQuestion: async () => ({ cancelled: true }),
    };
    const { c, clock } = context(handler);
    const answer = answerPermission(params(), withdraw.signal, c);
    withdraw.abort();
    expect(await answer).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(clock).toEqual(['pause', 'resume']);
  });

  it('allow when the agent offers no allow option → rejected and counted as a denial', async () => {
    const { c, denials } = context(decide({ behavior: 'allow' }));
    const answer = await answerPermission(params({ options: [OPTIONS[2]] }), never, c);
    expect(answer).toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
    expect(denials).toEqual([{ toolName: 'Shell', toolUseId: 't1', input: { command: 'git push' } }]);
  });

  it('a stored rule answers without asking; a broken store falls back to asking', async () => {
    const store = new AgentPermissionStore(path.join(dir, 'p.json'));
    await store.add({ agent: 'codex', kind: 'execute', command: 'git push' });
    const { c, events } = context(undefined, { store });
    expect(await answerPermission(params(), never, c)).toEqual({ outcome: { outcome: 'selected', optionId: 'once' } });
    expect(events).toEqual([]);

    const badFile = path.join(dir, 'bad.json');
    fs.writeFileSync(badFile, '{ not json');
    const broken = context(decide({ behavior: 'allow', always: true }), { store: new AgentPermissionStore(badFile) });
    expect(await answerPermission(params(), never, broken.c)).toEqual({
      outcome: { outcome: 'selected', optionId: 'once' },
    });
    expect(broken.events).toHaveLength(1);
  });

  it('offers "always allow" (one suggestion: the exact command) only when it can be stored and allowed', async () => {
    const store = new AgentPermissionStore(path.join(dir, 'p.json'));
    const asked: Array<{ suggestions: string[] }> = [];
    const recording: PermissionHandler = {
      requestPermission: async (request) => {
        asked.push(request);
        return { behavior: 'deny' };
      },
      askQuestion: async () => ({ cancelled: true }),
    };
    await answerPermission(params(), never, context(recording, { store }).c);
    await answerPermission(params(), never, context(recording).c); // no store: nothing could be remembered
    await answerPermission(params({ options: [OPTIONS[2]] }), never, context(recording, { store }).c); // no allow option
    await answerPermission(
      params({ toolCall: { toolCallId: 't3', kind: 'execute', rawInput: {} } }),
      never,
      context(recording, { store }).c,
    ); // nothing to remember it by
    expect(asked.map((r) => r.suggestions)).toEqual([['git push'], [], [], []]);
  });

  it('a request without a command is remembered by its title', async () => {
    const store = new AgentPermissionStore(path.join(dir, 'p.json'));
    const { c } = context(decide({ behavior: 'allow', always: true }), { store });
    const p = params({ toolCall: { toolCallId: 't2', title: 'Edit src/a.ts', kind: 'edit' } });
    await answerPermission(p, never, c);
    expect(await store.allows('codex', 'edit', 'Edit src/a.ts')).toBe(true);
  });
});
