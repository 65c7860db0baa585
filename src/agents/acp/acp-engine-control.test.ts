// The ACP engine against the fake ACP agent: permission requests and the user's answers, and every
// way a turn stops (cancel, an ignored cancel, idle, a crash, a missing command).
import path from 'node:path';
import type { PermissionHandler } from '../../engine/engine-types.js';
import { AgentPermissionStore } from './agent-permission-store.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { isGroupAlive } from '../../process/terminate-group.js';
import { engineFailure } from '../../../test/helpers/engine-failure.js';
import { createAcpEngine } from './create-acp-engine.js';
import {
  useAcpFixture,
  fx,
  harness,
  run,
  answering,
  agentPids,
  grandchildPids,
  pidAlive,
  guardDeps,
  recordingLogger,
  type Logged,
  ACP_MODES,
  setWarm,
} from '../../../test/fakes/fake-acp-agent/acp-engine-harness.js';

useAcpFixture();

describe.each(ACP_MODES)('$name', ({ warm }) => {
  beforeEach(() => setWarm(warm));

  describe('permissions', () => {
    it('allow → the allow_once option; the tool call and its result are events', async () => {
      const handler = answering({ behavior: 'allow' });
      const { events, promise } = run(harness(), 'tool', {}, { permissions: handler });
      const result = await promise;
      expect(result.text).toBe('outcome: proceed_once');
      expect(handler.asked[0]).toMatchObject({
        id: 'call-0',
        toolName: 'Shell',
        kind: 'execute',
        summary: 'Shell: echo hi',
        input: { command: 'echo hi' },
        suggestions: ['echo hi'],
      });
      expect(events).toContainEqual({ type: 'tool_use', id: 'call-0', name: 'Shell', summary: 'echo hi' });
      expect(events).toContainEqual({ type: 'tool_result', id: 'call-0', ok: true, summary: 'hi' });
      expect(events.some((e) => e.type === 'permission_request')).toBe(true);
      expect(result.permissionDenials).toEqual([]);
    });

    it('deny → reject_once, a failed tool result and a denial in the result', async () => {
      const { events, promise } = run(harness(), 'tool', {}, { permissions: answering({ behavior: 'deny' }) });
      const result = await promise;
      expect(result.text).toBe('outcome: cancel');
      expect(events).toContainEqual({ type: 'tool_result', id: 'call-0', ok: false, summary: 'rejected by the user' });
      expect(result.permissionDenials).toEqual([
        { toolName: 'Shell', toolUseId: 'call-0', input: { command: 'echo hi' } },
      ]);
    });

    it('deny when the agent offers no reject option → the cancelled outcome', async () => {
      const result = await run(harness(), 'tool-noreject', {}, { permissions: answering({ behavior: 'deny' }) })
        .promise;
      expect(result.text).toBe('outcome: cancelled');
    });

    it('no permission handler → rejected without asking', async () => {
      const result = await run(harness(), 'tool').promise;
      expect(result.text).toBe('outcome: cancel');
    });

    it('a handler that fails → rejected', async () => {
      const failing: PermissionHandler = {
        requestPermission: async () => {
          throw new Error('card could not be sent');
        },
        askQuestion: async () => ({ cancelled: true }),
      };
      const result = await run(harness(), 'tool', {}, { permissions: failing }).promise;
      expect(result.text).toBe('outcome: cancel');
    });

    it('always → the rule is stored per agent (the agent gets allow_once) and later runs are allowed without asking', async () => {
      const h = harness();
      const first = answering({ behavior: 'allow', always: true });
      const r1 = await run(h, 'tool', { userId: 'ou_1' }, { permissions: first }).promise;
      expect(r1.text).toBe('outcome: proceed_once');
      expect(await h.store.list()).toMatchObject([
        { agent: 'fakeagent', kind: 'execute', command: 'echo hi', userId: 'ou_1' },
      ]);

      const never = answering({ behavior: 'deny' });
      const r2 = await run(h, 'tool-twice', {}, { permissions: never }).promise;
      expect(r2.text).toBe('outcome: proceed_once,proceed_once');
      expect(never.asked).toHaveLength(0);

      // Another agent with the same command is still asked.
      const other = createAcpEngine(
        { name: 'otheragent', command: fx.command, env: fx.env() },
        { guard: guardDeps(recordingLogger([])), permissionStore: h.store, killGraceMs: 300 },
      );
      const asked = answering({ behavior: 'deny' });
      const r3 = await other.send({ prompt: 'tool', cwd: fx.cwd }, { permissions: asked });
      expect(r3.text).toBe('outcome: cancel');
      expect(asked.asked).toHaveLength(1);
    });

    it('with passAlwaysToAgent, always → the agent’s allow_always (allow_once when it offers none)', async () => {
      const logs: Logged[] = [];
      const store = new AgentPermissionStore(path.join(fx.root, 'cc', 'agent-permissions.json'));
      const engine = createAcpEngine(
        { name: 'fakeagent', command: fx.command, env: fx.env() },
        { guard: guardDeps(recordingLogger(logs)), permissionStore: store, passAlwaysToAgent: true, killGraceMs: 300 },
      );
      const always = answering({ behavior: 'allow', always: true });
      expect((await engine.send({ prompt: 'tool', cwd: fx.cwd }, { permissions: always })).text).toBe(
        'outcome: proceed_always',
      );
      await store.revoke(1);
      expect((await engine.send({ prompt: 'tool-noalways', cwd: fx.cwd }, { permissions: always })).text).toBe(
        'outcome: proceed_once',
      );
      expect(await store.allows('fakeagent', 'execute', 'echo hi')).toBe(true);
    });
  });

  describe('stopping', () => {
    it('cancel mid-turn: session/cancel, then CANCELLED with the agent group and its grandchild gone', async () => {
      const h = harness();
      const stop = new AbortController();
      let sawText = false;
      const promise = h.engine.send(
        { prompt: 'slow', cwd: fx.cwd },
        {
          signal: stop.signal,
          onEvent: (e) => {
            if (e.type === 'text' && !sawText) {
              sawText = true;
              stop.abort();
            }
          },
        },
      );
      const err = await engineFailure(promise);
      expect(err.code).toBe('CANCELLED');
      expect(fx.calls().some((c) => c.method === 'session/cancel')).toBe(true);
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
      for (const pid of grandchildPids()) expect(pidAlive(pid)).toBe(false);
    });

    it('an agent that ignores the cancel is killed as a group', async () => {
      const h = harness();
      const stop = new AbortController();
      const promise = h.engine.send(
        { prompt: 'hang-cancel', cwd: fx.cwd },
        { signal: stop.signal, onEvent: (e) => e.type === 'text' && stop.abort() },
      );
      const err = await engineFailure(promise);
      expect(err.code).toBe('CANCELLED');
      expect(fx.calls().some((c) => c.method === 'session/cancel')).toBe(true);
      expect(grandchildPids()).toHaveLength(1);
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
      for (const pid of grandchildPids()) expect(pidAlive(pid)).toBe(false);
    });

    it('an agent silent past runtime.stale_timeout_ms → TIMEOUT_IDLE, its group gone', async () => {
      const h = harness({}, undefined, 1500);
      const err = await engineFailure(run(h, 'hang-cancel').promise);
      expect(err.code).toBe('TIMEOUT_IDLE');
      expect(fx.calls().some((c) => c.method === 'session/cancel')).toBe(true);
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
      for (const pid of grandchildPids()) expect(pidAlive(pid)).toBe(false);
    });

    it('a cancel while the user decides a permission answers it cancelled and stops the run', async () => {
      const h = harness();
      const stop = new AbortController();
      let sawSignal: AbortSignal | undefined;
      const waiting: PermissionHandler = {
        requestPermission: (_request, signal) => {
          sawSignal = signal;
          setTimeout(() => stop.abort(), 20);
          return new Promise(() => undefined); // never answered
        },
        askQuestion: async () => ({ cancelled: true }),
      };
      const err = await engineFailure(
        h.engine.send({ prompt: 'tool', cwd: fx.cwd }, { signal: stop.signal, permissions: waiting }),
      );
      expect(err.code).toBe('CANCELLED');
      expect(sawSignal?.aborted).toBe(true);
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
    });

    it('the agent crashing mid-prompt → RUN_FAILED with its redacted last stderr line, nothing left running', async () => {
      const h = harness();
      const { events, promise } = run(h, 'crash');
      const err = await engineFailure(promise);
      expect(err.code).toBe('RUN_FAILED');
      expect(err.userMessage).toContain('exited with code 3');
      expect(err.userMessage).toContain('fatal: the model broke');
      expect(err.userMessage).not.toContain('sk-ant-api03');
      expect(err.stderrTail).not.toContain('sk-ant-api03');
      expect(events.some((e) => e.type === 'text')).toBe(true);
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
    });

    it('an agent that exits before answering initialize → RUN_FAILED with what it printed', async () => {
      const script = 'console.error("error: unknown flag --acp"); process.exit(2)';
      const err = await engineFailure(run(harness({}, [process.execPath, '-e', script]), 'hello').promise);
      expect(err.code).toBe('RUN_FAILED');
      expect(err.userMessage).toContain('exited with code 2: error: unknown flag --acp');
    });

    it('a command that does not exist → AGENT_NOT_FOUND naming it', async () => {
      const missing = path.join(fx.root, 'no-such-agent');
      const err = await engineFailure(run(harness({}, [missing, '--acp']), 'hello').promise);
      expect(err.code).toBe('AGENT_NOT_FOUND');
      expect(err.userMessage).toContain(missing);
      expect(err.userMessage).toContain('npm i -g fake-agent');
    });
  });
});
