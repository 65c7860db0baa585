// The ACP engine end to end against the fake ACP agent (a real child process speaking ACP over
// stdio through the SDK's agent side): mapping, permissions, cancel, crash, resume.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/default-config.js';
import type { Logger } from '../../core/logger.js';
import { resolvePaths } from '../../core/paths.js';
import { isGroupAlive } from '../../process/terminate-group.js';
import type {
  EngineEvent,
  EngineRequest,
  PermissionDecision,
  PermissionHandler,
  PermissionRequest,
} from '../../engine/engine-types.js';
import { defaultOriginOf, type GuardDeps } from '../../engine/guarded-engine.js';
import { Semaphore, SessionLocks } from '../../engine/session-lock.js';
import { createAcpAgentFixture, type AcpAgentFixture } from '../../../test/fakes/fake-acp-agent/acp-agent-fixture.js';
import { engineFailure } from '../../../test/helpers/engine-failure.js';
import { AgentPermissionStore } from './agent-permission-store.js';
import { AcpEngine, createAcpEngine } from './create-acp-engine.js';

let fx: AcpAgentFixture;
beforeEach(() => {
  fx = createAcpAgentFixture();
});
afterEach(() => fx.cleanup());

interface Logged {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

function recordingLogger(into: Logged[]): Logger {
  const log =
    (level: string) =>
    (msg: string, fields?: Record<string, unknown>): void => {
      into.push({ level, msg, ...(fields ? { fields } : {}) });
    };
  const logger: Logger = {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: () => logger,
  };
  return logger;
}

/** The locks of the last engine built: an answered turn's wrap-up holds its session until the agent is gone. */
let lastLocks = new SessionLocks();

/** Until the wrap-up of session `id`'s answered turn is over (the agent saved it and exited). */
async function wrappedUp(id: string): Promise<void> {
  while (lastLocks.isLocked(id)) await new Promise((r) => setTimeout(r, 20));
}

function guardDeps(logger: Logger, staleMs = 20_000): GuardDeps {
  const config = defaultConfig();
  lastLocks = new SessionLocks();
  config.runtime.stale_timeout_ms = staleMs;
  config.runtime.hard_timeout_ms = 25_000;
  return {
    config,
    paths: resolvePaths({ HOME: fx.home, CC_LINKER_HOME: path.join(fx.root, 'cc') }),
    logger,
    lang: 'en',
    locks: lastLocks,
    slots: new Semaphore(4),
    originOf: defaultOriginOf,
  };
}

interface Harness {
  engine: AcpEngine;
  logs: Logged[];
  store: AgentPermissionStore;
}

function harness(extraEnv: Record<string, string> = {}, command?: string[], staleMs?: number): Harness {
  const logs: Logged[] = [];
  const store = new AgentPermissionStore(path.join(fx.root, 'cc', 'agent-permissions.json'));
  const engine = createAcpEngine(
    { name: 'fakeagent', command: command ?? fx.command, env: fx.env(extraEnv), install: 'npm i -g fake-agent' },
    {
      guard: guardDeps(recordingLogger(logs), staleMs),
      permissionStore: store,
      killGraceMs: 300,
      cancelWaitMs: 500,
      endSettleMs: 0,
      replayQuietMs: 150,
      replayMaxMs: 2000,
    },
  );
  return { engine, logs, store };
}

function run(
  h: Harness,
  prompt: string,
  over: Partial<EngineRequest> = {},
  opts: Parameters<AcpEngine['send']>[1] = {},
) {
  const events: EngineEvent[] = [];
  const promise = h.engine.send(
    { agent: 'fakeagent', prompt, cwd: fx.cwd, ...over },
    { ...opts, onEvent: (e) => events.push(e) },
  );
  return { events, promise };
}

/** A permission handler answering every request with `decision` and counting the calls. */
function answering(decision: PermissionDecision): PermissionHandler & { asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  return {
    asked,
    requestPermission: async (request) => {
      asked.push(request);
      return decision;
    },
    askQuestion: async () => ({ cancelled: true }),
  };
}

const agentPids = (): number[] => [...new Set(fx.calls().map((c) => c.pid))];
const grandchildPids = (): number[] =>
  fx
    .calls()
    .filter((c) => c.method === 'grandchild')
    .map((c) => c.params.pid as number);

function pidAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

describe('a new session', () => {
  it('streams the text, names the session at once and ends the agent after the turn (its wrap-up)', async () => {
    const h = harness();
    const { events, promise } = run(h, 'hello there');
    const result = await promise;
    expect(events[0]).toMatchObject({ type: 'session' });
    const sessionId = (events[0] as { sessionId: string }).sessionId;
    expect(sessionId).toMatch(/^fake-/);
    const texts = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta);
    expect(texts.length).toBe(2);
    expect(result).toMatchObject({
      text: 'echo: hello there',
      sessionId,
      stopReason: 'end_turn',
      numTurns: 1,
      costUsd: null,
      isNewSession: true,
      agent: 'fakeagent',
      usage: { inputTokens: 11, outputTokens: 7 },
      model: 'fake-large',
    });
    const calls = fx.calls();
    expect(calls.find((c) => c.method === 'initialize')?.params).toMatchObject({
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    expect(calls.find((c) => c.method === 'session/new')?.params).toEqual({ cwd: fx.cwd, mcpServers: [] });
    await wrappedUp(sessionId);
    for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
  });

  it('after the turn, the agent is left endSettleMs to save it, then its stdin is closed and it exits', async () => {
    const engine = createAcpEngine(
      { name: 'fakeagent', command: fx.command, env: fx.env() },
      { guard: guardDeps(recordingLogger([])), killGraceMs: 300, endSettleMs: 700 },
    );
    const result = await engine.send({ prompt: 'save-late now', cwd: fx.cwd });
    expect(result.text).toBe('echo: save-late now');
    await wrappedUp(result.sessionId);
    // Written after the prompt response: a kill or the end of stdin right after the turn loses it.
    expect(fx.calls().filter((c) => c.method === 'saved')).toEqual([
      expect.objectContaining({ params: { sessionId: result.sessionId } }),
    ]);
    for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
  });

  it('an agent that stays after the end of its input is killed once endGraceMs is over', async () => {
    const logs: Logged[] = [];
    const engine = createAcpEngine(
      { name: 'fakeagent', command: fx.command, env: fx.env() },
      { guard: guardDeps(recordingLogger(logs)), killGraceMs: 300, endSettleMs: 0, endGraceMs: 200 },
    );
    const result = await engine.send({ prompt: 'linger please', cwd: fx.cwd });
    expect(result.text).toBe('echo: linger please');
    await wrappedUp(result.sessionId);
    expect(agentPids()).toHaveLength(1);
    for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
  });

  it('maps thoughts to thinking, not to the answer', async () => {
    const { events, promise } = run(harness(), 'think hard');
    const result = await promise;
    expect(events).toContainEqual({ type: 'thinking', delta: 'pondering' });
    expect(result.text).toBe('echo: think hard');
  });

  it('maps a plan', async () => {
    const { events, promise } = run(harness(), 'plan it');
    await promise;
    expect(events).toContainEqual({
      type: 'plan',
      entries: [
        { content: 'read the code', status: 'completed' },
        { content: 'write the fix', status: 'in_progress' },
        { content: 'run the tests', status: 'pending' },
      ],
    });
  });

  it('takes usage_update as the input tokens when the response has no usage', async () => {
    const result = await run(harness(), 'usage please').promise;
    expect(result.usage).toEqual({ inputTokens: 1234 });
  });

  it('skips malformed updates and unknown kinds (each logged once) and finishes the turn', async () => {
    const h = harness();
    const result = await run(h, 'malformed').promise;
    expect(result.text).toBe('after malformed');
    const skipped = h.logs.filter((l) => l.msg === 'ACP update skipped').map((l) => String(l.fields?.what));
    expect(skipped.filter((w) => w.includes('mystery_update'))).toHaveLength(1);
    expect(skipped.some((w) => w.includes('agent_message_chunk'))).toBe(true);
    expect(skipped.some((w) => w.includes('without a sessionUpdate'))).toBe(true);
    expect(skipped.some((w) => w.includes('toolCallId'))).toBe(true);
    expect(skipped.some((w) => w.includes('plan'))).toBe(true);
  });

  it('sends images inline with their sniffed type when the agent takes images', async () => {
    const png = path.join(fx.root, 'shot.dat');
    fs.writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    const result = await run(harness(), 'blocks', { imagePaths: [png] }).promise;
    expect(result.text).toBe('text:blocks\nimage:image/png:true');
  });

  it('names the image paths in the text when the agent takes no images', async () => {
    const png = path.join(fx.root, 'shot.png');
    fs.writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const result = await run(harness({ FAKE_ACP_NO_IMAGE: '1' }), 'blocks', { imagePaths: [png] }).promise;
    expect(result.text).toBe(`text:blocks\n\n[Attached files: ${png}]`);
  });

  it('selects the requested model through session/set_model', async () => {
    const result = await run(harness(), 'hello', { model: 'fake-small' }).promise;
    expect(result.model).toBe('fake-small');
    expect(fx.calls().find((c) => c.method === 'session/set_model')?.params).toMatchObject({ modelId: 'fake-small' });
  });

  it('keeps the default model when the agent refuses the requested one', async () => {
    const h = harness();
    const result = await run(h, 'hello', { model: 'no-such-model' }).promise;
    expect(result.model).toBe('fake-large');
    expect(h.logs.some((l) => l.msg.includes('refused the model'))).toBe(true);
  });
});

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
    const result = await run(harness(), 'tool-noreject', {}, { permissions: answering({ behavior: 'deny' }) }).promise;
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

describe('resuming', () => {
  it('loads the session; the replayed history (also after the load response) is not this turn', async () => {
    const h = harness();
    const { events, promise } = run(h, 'again', { sessionId: 'abc-123' });
    const result = await promise;
    expect(events[0]).toEqual({ type: 'session', sessionId: 'abc-123' });
    expect(result.text).toBe('echo: again');
    expect(result.isNewSession).toBe(false);
    expect(JSON.stringify(events)).not.toContain('REPLAYED');
    expect(fx.calls().find((c) => c.method === 'session/load')?.params).toEqual({
      sessionId: 'abc-123',
      cwd: fx.cwd,
      mcpServers: [],
    });
  });

  it('an agent without loadSession → LOAD_UNSUPPORTED, nothing loaded', async () => {
    const err = await engineFailure(run(harness({ FAKE_ACP_NO_LOAD: '1' }), 'again', { sessionId: 'abc-123' }).promise);
    expect(err.code).toBe('LOAD_UNSUPPORTED');
    expect(err.userMessage).toContain('fakeagent');
    expect(fx.calls().some((c) => c.method === 'session/load' || c.method === 'session/prompt')).toBe(false);
    for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
  });

  it('a session the agent does not know → SESSION_NOT_FOUND', async () => {
    const err = await engineFailure(run(harness(), 'again', { sessionId: 'gone-42' }).promise);
    expect(err.code).toBe('SESSION_NOT_FOUND');
  });
});

describe('listModels', () => {
  it('asks the agent once, then answers from what runs reported', async () => {
    const h = harness();
    expect(await h.engine.listModels(undefined, fx.cwd)).toEqual([
      { id: 'fake-large', name: 'Fake Large' },
      { id: 'fake-small', name: 'Fake Small' },
    ]);
    const probes = fx.calls().filter((c) => c.method === 'session/new').length;
    expect(probes).toBe(1);
    await h.engine.listModels(undefined, fx.cwd);
    expect(fx.calls().filter((c) => c.method === 'session/new').length).toBe(1);
    for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
  });

  it('is empty when the agent names no models, or cannot be started', async () => {
    expect(await harness({ FAKE_ACP_NO_MODELS: '1' }).engine.listModels(undefined, fx.cwd)).toEqual([]);
    expect(await harness({}, [path.join(fx.root, 'missing')]).engine.listModels(undefined, fx.cwd)).toEqual([]);
  });
});
