// The json and stream-json modes against a fake `claude` (test/fakes/fake-claude-cli): argv,
// stdin prompt, env filtering, events, result mapping, errors, timeouts and process-group cleanup.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { createChildTracker } from '../process/child-tracker.js';
import { isGroupGone } from '../../test/fakes/fake-children.js';
import {
  createEngineFixture,
  FAKE_CLAUDE,
  type EngineFixture,
} from '../../test/fakes/fake-claude-cli/engine-fixture.js';
import { createEngine } from './create-engine.js';
import type { AgentEngine, EngineEvent } from '../engine/engine-types.js';
import { engineFailure } from '../../test/helpers/engine-failure.js';

let fx: EngineFixture;
const engines: AgentEngine[] = [];
beforeEach(() => {
  fx = createEngineFixture();
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close?.())); // the children kept between turns
  fx.cleanup();
});

function engine(mode: 'json' | 'stream-json', tweak?: (fx: EngineFixture) => void): AgentEngine {
  fx.config.claude.mode = mode;
  tweak?.(fx);
  const built = createEngine(fx.config, {
    paths: fx.paths,
    logger: silentLogger,
    lang: 'en',
    env: { ...fx.env, CC_LINKER_FEISHU_APP_SECRET: 'super-secret-value' },
    killGraceMs: 200,
  });
  engines.push(built);
  return built;
}

/** A reparented grandchild may stay a zombie (PID 1 here does not reap); that is "gone". */
function isDeadOrZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return true;
  }
}

const failure = engineFailure;

// stream-json runs every case warm (the default: the child stays alive after its turn) and cold.
describe.each([
  { mode: 'json', label: 'json', warmIdleMs: undefined },
  { mode: 'stream-json', label: 'stream-json, warm', warmIdleMs: undefined },
  { mode: 'stream-json', label: 'stream-json, cold', warmIdleMs: 0 },
] as const)('$label mode with a fake claude', ({ mode, warmIdleMs }) => {
  beforeEach(() => {
    if (warmIdleMs !== undefined) fx.config.runtime.warm_idle_ms = warmIdleMs;
  });

  it('runs a new session: prompt on stdin, argv without it, session event, result mapped', async () => {
    const events: EngineEvent[] = [];
    const r = await engine(mode).send(
      { prompt: '-x 你好 --help', cwd: fx.cwd, model: 'opus' },
      { onEvent: (e) => events.push(e) },
    );
    expect(r.text).toBe('echo: -x 你好 --help');
    expect(r.isNewSession).toBe(true);
    expect(r.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r).toMatchObject({
      costUsd: 0.0012,
      numTurns: 1,
      stopReason: 'end_turn',
      permissionDenials: [],
      model: 'fake-model-1',
    });
    expect(events[0]).toEqual({ type: 'session', sessionId: r.sessionId, model: 'fake-model-1' });
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('echo: -x 你好 --help');
    const [call] = fx.calls();
    expect(call?.stdin).toBe('-x 你好 --help');
    expect(call?.argv).not.toContain('-x 你好 --help');
    expect(call?.cwd).toBe(fx.cwd);
    const head =
      mode === 'json'
        ? ['-p', '--output-format', 'json']
        : [
            '--print',
            '--input-format',
            'stream-json',
            '--output-format',
            'stream-json',
            '--verbose',
            '--include-partial-messages',
          ];
    expect(call?.argv).toEqual([
      ...head,
      '--model',
      'opus',
      '--permission-mode',
      'default',
      '--allowedTools',
      'Read',
      'Grep',
      'Glob',
    ]);
  });

  it('passes only allowlisted environment variables (never CC_LINKER_*)', async () => {
    await engine(mode).send({ prompt: 'hi', cwd: fx.cwd });
    const names = fx.calls()[0]?.envNames ?? [];
    expect(names).toContain('HOME');
    expect(names).toContain('PATH');
    expect(names).toContain('FAKE_CLAUDE_RECORD');
    expect(names.filter((n) => n.startsWith('CC_LINKER_'))).toEqual([]);
  });

  it('resumes with --resume=<id> (one argument) and reports isNewSession false', async () => {
    const id = '0f0e0d0c-0b0a-4999-8888-777766665555';
    const r = await engine(mode).send({ prompt: 'again', cwd: fx.cwd, sessionId: id });
    expect(r.sessionId).toBe(id);
    expect(r.isNewSession).toBe(false);
    expect(fx.calls()[0]?.argv).toContain(`--resume=${id}`);
  });

  it('creates a new session with the id the caller chose, and resumes it once its file exists', async () => {
    const id = '1a2b3c4d-0000-4000-8000-00000000abcd';
    const first = await engine(mode).send({ prompt: 'hi', cwd: fx.cwd, newSessionId: id });
    expect(first).toMatchObject({ sessionId: id, isNewSession: true });
    expect(fx.calls()[0]?.argv).toContain(`--session-id=${id}`);
    // The same request again (a re-run after a crash): the file is there now, so it is resumed.
    const again = await engine(mode).send({ prompt: 'hi', cwd: fx.cwd, newSessionId: id });
    expect(again).toMatchObject({ sessionId: id, isNewSession: false });
    expect(fx.calls()[1]?.argv).toContain(`--resume=${id}`);
    expect(fx.calls()[1]?.argv.some((a) => a.startsWith('--session-id'))).toBe(false);
  });

  it('an unknown session on resume is SESSION_NOT_FOUND with a /switch hint', async () => {
    const e = await failure(
      engine(mode).send({ prompt: 'hi', cwd: fx.cwd, sessionId: 'dead0000-0000-4000-8000-000000000000' }),
    );
    expect(e.code).toBe('SESSION_NOT_FOUND');
    expect(e.userMessage).toContain('/switch');
    expect(e.localize('zh')).toContain('会话 dead0000 已不存在');
  });

  it('an is_error result is RUN_FAILED with its text', async () => {
    const e = await failure(engine(mode).send({ prompt: 'is-error', cwd: fx.cwd }));
    expect(e.code).toBe('RUN_FAILED');
    expect(e.userMessage).toContain('API Error: 400 fake');
  });

  it('a non-zero exit is RUN_FAILED carrying the redacted stderr tail', async () => {
    const e = await failure(engine(mode).send({ prompt: 'exit3', cwd: fx.cwd }));
    expect(e.code).toBe('RUN_FAILED');
    expect(e.userMessage).toContain('exit code 3');
    expect(e.stderrTail).toContain('boom');
    expect(e.stderrTail).not.toContain('sk-ant-abcdefghijklmnopqrstu');
    expect(e.userMessage).not.toContain('sk-ant-abcdefghijklmnopqrstu');
  });

  it('output without a result is RUN_FAILED', async () => {
    const e = await failure(engine(mode).send({ prompt: 'garbage', cwd: fx.cwd }));
    expect(e.code).toBe('RUN_FAILED');
    expect(e.userMessage).toContain('no result');
  });

  it('expands ~ in cwd against the configured home', async () => {
    fs.mkdirSync(path.join(fx.home, 'Git', 'app'), { recursive: true });
    await engine(mode).send({ prompt: 'hi', cwd: '~/Git/app' });
    expect(fx.calls()[0]?.cwd).toBe(path.join(fx.home, 'Git', 'app'));
  });

  it('a missing cwd is CWD_MISSING naming it, and nothing is spawned', async () => {
    const e = await failure(engine(mode).send({ prompt: 'hi', cwd: '~/nope' }));
    expect(e.code).toBe('CWD_MISSING');
    expect(e.userMessage).toContain(path.join(fx.home, 'nope'));
    expect(fx.calls()).toEqual([]);
  });

  it('a missing binary is CLAUDE_NOT_FOUND', async () => {
    const e = await failure(
      engine(mode, (f) => (f.config.general.claude_bin = path.join(f.root, 'no-such-claude'))).send({
        prompt: 'hi',
        cwd: fx.cwd,
      }),
    );
    expect(e.code).toBe('CLAUDE_NOT_FOUND');
    expect(e.userMessage).toContain('no-such-claude');
  });

  it('idle timeout kills the whole group (SIGTERM ignored, grandchild included)', async () => {
    const tracker = createChildTracker(path.join(fx.root, 'children'));
    fx.config.claude.mode = mode;
    // The fake must start, record itself and spawn its grandchild before the idle kill: on a loaded
    // machine Node's start-up alone can take over a second.
    fx.config.runtime.stale_timeout_ms = 2000;
    const eng = createEngine(fx.config, {
      paths: fx.paths,
      logger: silentLogger,
      lang: 'en',
      env: fx.env,
      killGraceMs: 200,
      tracker,
    });
    const e = await failure(eng.send({ prompt: 'hang-group', cwd: fx.cwd }));
    expect(e.code).toBe('TIMEOUT_IDLE');
    const call = fx.calls()[0] as { pid: number };
    expect(isGroupGone(call.pid)).toBe(true);
    const grandchild = Number(fs.readFileSync(path.join(fx.cwd, 'grandchild.pid'), 'utf8'));
    expect(isDeadOrZombie(grandchild)).toBe(true);
    expect(fs.readdirSync(path.join(fx.root, 'children'))).toEqual([]); // the tracker record is gone too
  });

  it('writes to the session file keep a silent run alive (no idle kill)', async () => {
    // The fake is silent for 1.5 s, writing every 100 ms: longer than the timeout, with room for a loaded machine.
    const r = await engine(mode, (f) => (f.config.runtime.stale_timeout_ms = 1000)).send({
      prompt: 'quiet-writer',
      cwd: fx.cwd,
    });
    expect(r.text).toBe('wrote quietly');
  });

  it('hard timeout stops a run that keeps going', async () => {
    const e = await failure(
      // Long enough for the fake to start and record its pid on a loaded machine.
      engine(mode, (f) => (f.config.runtime.hard_timeout_ms = 1500)).send({ prompt: 'hang', cwd: fx.cwd }),
    );
    expect(e.code).toBe('TIMEOUT_HARD');
    expect(fx.calls()).toHaveLength(1);
    expect(isGroupGone(fx.calls()[0]?.pid as number)).toBe(true);
  });

  it('cancel mid-run is CANCELLED and the group is gone when send settles', async () => {
    const ac = new AbortController();
    const run = engine(mode).send(
      { prompt: 'hang-group', cwd: fx.cwd },
      { signal: ac.signal, onEvent: () => undefined },
    );
    for (let i = 0; i < 100 && fx.calls().length === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    ac.abort();
    const e = await failure(run);
    expect(e.code).toBe('CANCELLED');
    expect(isGroupGone(fx.calls()[0]?.pid as number)).toBe(true);
  });
});

describe('stream-json specifics', () => {
  it('skips hook noise, invalid lines, unknown types and sub-agent text', async () => {
    const events: EngineEvent[] = [];
    const r = await engine('stream-json').send({ prompt: 'noise', cwd: fx.cwd }, { onEvent: (e) => events.push(e) });
    expect(r.text).toBe('clean reply');
    expect(events.map((e) => e.type)).toEqual(['session', 'text']);
    expect(JSON.stringify(events)).not.toContain('SUBAGENT');
  });

  it('streams tool_use and tool_result events', async () => {
    const events: EngineEvent[] = [];
    await engine('stream-json').send({ prompt: 'tool', cwd: fx.cwd }, { onEvent: (e) => events.push(e) });
    expect(events).toContainEqual({ type: 'tool_use', id: 'toolu_1', name: 'Bash', summary: 'echo hi' });
    expect(events).toContainEqual({ type: 'tool_result', id: 'toolu_1', ok: true, summary: 'hi' });
  });

  it('no --include-partial-messages when stream.enabled is false', async () => {
    await engine('stream-json', (f) => (f.config.stream.enabled = false)).send({ prompt: 'hi', cwd: fx.cwd });
    expect(fx.calls()[0]?.argv).not.toContain('--include-partial-messages');
  });
});

it('the fake claude is executable (sanity)', () => {
  expect(() => fs.accessSync(FAKE_CLAUDE, fs.constants.X_OK)).not.toThrow();
});
