// The `sdk` engine mode: the REAL Agent SDK query() starting the REAL bundled Claude Code through our
// process runner, against the fake Anthropic API, warm and cold. 10 real runs each: new session (CJK, ~ cwd) + resume,
// (cold) a second turn waiting for the first one's child to exit,
// unknown resume, a tool allowed "always" then not asked again, denied, timed out, AskUserQuestion,
// cancel mid-run, idle timeout.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  PermissionDecision,
  PermissionHandler,
  PermissionRequest,
  QuestionRequest,
} from '../../src/engine/engine-types.js';
import { PermissionStore } from '../../src/claude/permission-store.js';
import type { Config } from '../../src/core/config-schema.js';
import { readRegistry } from '../../src/sessions/registry/registry.js';
import {
  allGroupsGone,
  CLAUDE_BIN,
  eventLog,
  RUN_TIMEOUT_MS,
  startEngineHarness,
  waitNoLeftovers,
  type EngineHarness,
} from './claude-harness.js';
import { engineFailure } from '../helpers/engine-failure.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.close());
afterEach(async () => h?.closeEngines());

const failure = engineFailure;

/** A handler answering permission prompts with `decide` and questions with `answer`, recording both. */
function handler(
  decide: (r: PermissionRequest) => PermissionDecision | Promise<PermissionDecision>,
  answer?: (q: QuestionRequest) => Record<string, string>,
) {
  const asked: PermissionRequest[] = [];
  const questions: QuestionRequest[] = [];
  const permissions: PermissionHandler = {
    requestPermission: async (r) => {
      asked.push(r);
      return decide(r);
    },
    askQuestion: async (q) => {
      questions.push(q);
      return answer ? { answers: answer(q) } : { cancelled: true };
    },
  };
  return { permissions, asked, questions };
}

// Every case runs twice: with the session's child kept between turns (the default) and without.
describe.skipIf(!CLAUDE_BIN).each([
  { name: 'warm (the default)', warmIdleMs: undefined },
  { name: 'cold (runtime.warm_idle_ms = 0)', warmIdleMs: 0 },
])('sdk mode, real Agent SDK + claude, $name', ({ warmIdleMs }) => {
  const sdkEngine = (tweak?: (config: Config) => void) =>
    h.engine('sdk', (config) => {
      if (warmIdleMs !== undefined) config.runtime.warm_idle_ms = warmIdleMs;
      tweak?.(config);
    });

  it(
    'new session with a CJK prompt in a ~ cwd (registered active), then resumed',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      fs.mkdirSync(path.join(h.sb.home, 'sdk 项目'), { recursive: true });
      const engine = sdkEngine();
      const log = eventLog();
      const first = await engine.send(
        { prompt: 'echo: 你好 SDK', cwd: '~/sdk 项目', userId: 'web:1' },
        { onEvent: log.onEvent },
      );
      expect(first).toMatchObject({ text: '你好 SDK', isNewSession: true, numTurns: 1 });
      expect(log.events[0]).toMatchObject({ type: 'session', sessionId: first.sessionId });
      expect(log.text()).toBe('你好 SDK');
      expect((await readRegistry(h.paths)).registry.sessions[first.sessionId]).toMatchObject({
        status: 'active',
        cwd: path.join(h.sb.home, 'sdk 项目'),
      });
      const second = await engine.send({ prompt: 'echo: 再来', cwd: '~/sdk 项目', sessionId: first.sessionId });
      expect(second).toMatchObject({ text: '再来', sessionId: first.sessionId, isNewSession: false });
    },
  );

  // Without warm sessions: with them, the next turn is written to the same child.
  it.skipIf(warmIdleMs !== 0)(
    'the answer may come before Claude Code has exited; the next turn of the session starts only once it has',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const engine = sdkEngine();
      const first = await engine.send({ prompt: 'echo: eins', cwd: h.sb.cwd });
      const firstGroup = h.pgids.at(-1);
      const second = await engine.send({ prompt: 'echo: zwei', cwd: h.sb.cwd, sessionId: first.sessionId });
      expect(second).toMatchObject({ text: 'zwei', sessionId: first.sessionId });
      const secondGroup = h.pgids.at(-1);
      expect(secondGroup).not.toBe(firstGroup);
      const gone = h.trackerLog.indexOf(`remove ${firstGroup}`);
      expect(gone).toBeGreaterThanOrEqual(0);
      expect(gone).toBeLessThan(h.trackerLog.indexOf(`add ${secondGroup}`));
    },
  );

  it('an unknown session is SESSION_NOT_FOUND', { timeout: RUN_TIMEOUT_MS }, async () => {
    const e = await failure(
      sdkEngine().send({ prompt: 'echo: x', cwd: h.sb.cwd, sessionId: '00000000-0000-4000-8000-00000000dead' }),
    );
    expect(e.code).toBe('SESSION_NOT_FOUND');
  });

  it(
    '"always allow" is persisted from the suggestion; the next run is not asked; the project gets no settings file',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const engine = sdkEngine();
      const first = handler(() => ({ behavior: 'allow', always: true }));
      const log = eventLog();
      const r1 = await engine.send(
        { prompt: 'tool: Bash node -e 1', cwd: h.sb.cwd, userId: 'ou_owner' },
        { onEvent: log.onEvent, permissions: first.permissions },
      );
      expect(first.asked).toHaveLength(1);
      const request = first.asked[0] as PermissionRequest;
      expect(request).toMatchObject({ toolName: 'Bash', summary: 'Bash: node -e 1', input: { command: 'node -e 1' } });
      expect(request.suggestions.length).toBeGreaterThan(0);
      expect(log.events).toContainEqual({ type: 'permission_request', request });
      expect(r1.text).toMatch(/^tool-result: ok/);
      const rules = await new PermissionStore(h.paths.permissionsFile).rules();
      expect(rules).toEqual([request.suggestions[0]]);

      const second = handler(() => ({ behavior: 'deny' }));
      const r2 = await engine.send(
        { prompt: 'tool: Bash node -e 1', cwd: h.sb.cwd },
        { permissions: second.permissions },
      );
      expect(second.asked).toEqual([]);
      expect(r2.text).toMatch(/^tool-result: ok/);
      expect(fs.existsSync(path.join(h.sb.cwd, '.claude', 'settings.local.json'))).toBe(false);
      fs.rmSync(h.paths.permissionsFile);
    },
  );

  it('a denied tool is reported in permissionDenials with the user message', { timeout: RUN_TIMEOUT_MS }, async () => {
    const { permissions, asked } = handler(() => ({ behavior: 'deny', message: 'not on my machine' }));
    const r = await sdkEngine().send({ prompt: 'tool: Bash node -e 2', cwd: h.sb.cwd }, { permissions });
    expect(asked).toHaveLength(1);
    expect(r.text).toBe('tool-result: error not on my machine');
    expect(r.permissionDenials).toEqual([
      { toolName: 'Bash', toolUseId: asked[0]?.id, input: { command: 'node -e 2' } },
    ]);
  });

  it('an unanswered prompt is denied after sdk.timeout_ms', { timeout: RUN_TIMEOUT_MS }, async () => {
    let sawAbort = false;
    const { permissions } = handler(
      () =>
        new Promise<PermissionDecision>(() => {
          /* never answered */
        }),
    );
    const wrapped: PermissionHandler = {
      ...permissions,
      requestPermission: (r, signal) => {
        signal.addEventListener('abort', () => (sawAbort = true));
        return permissions.requestPermission(r, signal);
      },
    };
    const r = await sdkEngine((c) => (c.sdk.timeout_ms = 1000)).send(
      { prompt: 'tool: Bash node -e 3', cwd: h.sb.cwd },
      { permissions: wrapped },
    );
    expect(r.text).toContain('did not answer the permission request');
    expect(r.permissionDenials).toHaveLength(1);
    expect(sawAbort).toBe(true);
  });

  it(
    'AskUserQuestion is surfaced as a question and the answer reaches Claude',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const { permissions, questions, asked } = handler(
        () => ({ behavior: 'deny' }),
        (q) => ({ [q.questions[0]?.question ?? '']: 'blue' }),
      );
      const log = eventLog();
      const r = await sdkEngine().send(
        { prompt: 'ask: Which color? | red | blue', cwd: h.sb.cwd },
        { permissions, onEvent: log.onEvent },
      );
      expect(asked).toEqual([]);
      expect(questions[0]?.questions[0]).toMatchObject({
        question: 'Which color?',
        options: [{ label: 'red' }, { label: 'blue' }],
      });
      expect(log.events).toContainEqual({ type: 'question', request: questions[0] });
      expect(r.text).toBe('answered: blue');
    },
  );

  it(
    'cancel mid-run: CANCELLED, the group is gone within the grace, nothing left',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const ac = new AbortController();
      const log = eventLog();
      const run = sdkEngine().send(
        { prompt: 'slow: 300', cwd: h.sb.cwd },
        { signal: ac.signal, onEvent: (e) => (log.onEvent(e), e.type === 'text' && ac.abort()) },
      );
      const e = await failure(run);
      expect(e.code).toBe('CANCELLED');
      expect(log.text().length).toBeGreaterThan(0);
      expect(allGroupsGone(h.pgids)).toBe(true);
      expect(await waitNoLeftovers(h.sb.home, 0)).toEqual([]);
    },
  );

  it('idle timeout kills a silent run: TIMEOUT_IDLE, nothing left', { timeout: RUN_TIMEOUT_MS }, async () => {
    const e = await failure(
      sdkEngine((c) => (c.runtime.stale_timeout_ms = 1500)).send({ prompt: 'hang: 30000', cwd: h.sb.cwd }),
    );
    expect(e.code).toBe('TIMEOUT_IDLE');
    expect(allGroupsGone(h.pgids)).toBe(true);
    expect(await waitNoLeftovers(h.sb.home, 0)).toEqual([]);
  });
});
