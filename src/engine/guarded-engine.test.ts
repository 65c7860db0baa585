// The shared engine logic (validation, locks, limits, registry bookkeeping, error mapping) with a
// scripted executor instead of a process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/default-config.js';
import { silentLogger } from '../core/logger.js';
import { resolvePaths } from '../core/paths.js';
import { encodeProjectDir } from '../sessions/scan/project-dir.js';
import type { EngineEvent, EngineResult } from './engine-types.js';
import {
  defaultOriginOf,
  MAX_PROMPT_CHARS,
  GuardedEngine,
  type Executor,
  type GuardDeps,
  type SessionFiles,
  type RunContext,
} from './guarded-engine.js';
import type { SessionRecorder } from './session-recorder.js';
import { Semaphore, SessionLocks } from './session-lock.js';
import { engineFailure } from '../../test/helpers/engine-failure.js';

let root: string;
let cwd: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-mode-')));
  cwd = path.join(root, 'project');
  fs.mkdirSync(cwd);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const ID = '11111111-2222-4333-8444-555555555555';

function result(sessionId: string, text = 'done'): EngineResult {
  return {
    text,
    sessionId,
    costUsd: 0.01,
    durationMs: 1,
    numTurns: 1,
    stopReason: 'end_turn',
    permissionDenials: [],
    isNewSession: false,
  };
}

/** Session files laid out the way Claude Code does it, with fast polling. */
function claudeLike(projectsDir: string): SessionFiles {
  const file = (id: string, realCwd: string) => path.join(projectsDir, encodeProjectDir(realCwd), `${id}.jsonl`);
  return {
    transcriptOf: file,
    newestWrite: (realCwd, id) => {
      try {
        return fs.statSync(file(id ?? ID, realCwd)).mtimeMs;
      } catch {
        return null;
      }
    },
    locateNew: async (id, realCwd) => {
      for (const wait of [0, 10, 10]) {
        await new Promise((r) => setTimeout(r, wait));
        if (fs.existsSync(file(id, realCwd))) return file(id, realCwd);
      }
      return null;
    },
  };
}

function makeDeps(over: Partial<GuardDeps> = {}): GuardDeps {
  const config = defaultConfig();
  const paths = resolvePaths({ HOME: path.join(root, 'home'), CC_LINKER_HOME: path.join(root, 'cc') });
  return {
    config,
    paths,
    logger: silentLogger,
    lang: 'en',
    locks: new SessionLocks(),
    slots: new Semaphore(5),
    originOf: defaultOriginOf,
    files: claudeLike(paths.claudeProjectsDir),
    ...over,
  };
}

/** An executor that announces `sessionId`, waits for `gate`, and returns. */
function scripted(
  opts: { sessionId?: string; gate?: Promise<void>; onCtx?: (ctx: RunContext) => void; fail?: Error } = {},
): Executor {
  return async (ctx) => {
    opts.onCtx?.(ctx);
    const id = opts.sessionId ?? ctx.request.sessionId ?? ID;
    ctx.emit({ type: 'session', sessionId: id, model: 'm1' });
    ctx.emit({ type: 'session', sessionId: id, model: 'm1' }); // duplicates are dropped
    if (opts.gate) await opts.gate;
    if (opts.fail) throw opts.fail;
    if (ctx.signal.aborted) throw new Error('stopped');
    return result(id);
  };
}

function recorder(): SessionRecorder & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    provisioning: async (e) => void calls.push(`provisioning ${e.sessionId} ${e.origin} ${e.cwd} ${e.model ?? ''}`),
    resolved: async (id, file) => void calls.push(`resolved ${id} ${path.basename(file)}`),
    degraded: async (id, reason) => void calls.push(`degraded ${id} ${reason}`),
    runFinished: async (e) => void calls.push(`finished ${e.sessionId} ${e.userPreview} → ${e.assistantPreview}`),
  };
}

const failure = engineFailure;

describe('GuardedEngine', () => {
  it('rejects a prompt over 10,000 characters before anything runs', async () => {
    let ran = false;
    const engine = new GuardedEngine('claude', 'json', scripted({ onCtx: () => (ran = true) }), makeDeps());
    const e = await failure(engine.send({ prompt: 'x'.repeat(MAX_PROMPT_CHARS + 1), cwd }));
    expect(e.code).toBe('MESSAGE_TOO_LONG');
    expect(e.userMessage).toContain('10001');
    expect(ran).toBe(false);
    await expect(engine.send({ prompt: 'x'.repeat(MAX_PROMPT_CHARS), cwd })).resolves.toBeTruthy();
    await expect(engine.send({ prompt: '😀'.repeat(MAX_PROMPT_CHARS), cwd })).resolves.toBeTruthy(); // 10,000 characters, 20,000 UTF-16 units
  });

  it('a cwd that is a file is CWD_MISSING', async () => {
    const file = path.join(root, 'file.txt');
    fs.writeFileSync(file, 'x');
    const e = await failure(
      new GuardedEngine('claude', 'json', scripted(), makeDeps()).send({ prompt: 'hi', cwd: file }),
    );
    expect(e.code).toBe('CWD_MISSING');
    expect(e.userMessage).toContain('not a directory');
  });

  it('records a new session: provisioning, JSONL resolved, run finished; the session event comes once', async () => {
    const rec = recorder();
    const deps = makeDeps({ sessionRecorder: rec });
    const dir = path.join(deps.paths.claudeProjectsDir, encodeProjectDir(cwd));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${ID}.jsonl`), '{}\n');
    const events: EngineEvent[] = [];
    const r = await new GuardedEngine('claude', 'sdk', scripted(), deps).send(
      { prompt: 'hello there', cwd, userId: 'web:alice' },
      { onEvent: (e) => events.push(e) },
    );
    expect(r.sessionId).toBe(ID);
    expect(events).toEqual([{ type: 'session', sessionId: ID, model: 'm1' }]);
    expect(rec.calls).toEqual([
      `provisioning ${ID} web ${cwd} m1`,
      `resolved ${ID} ${ID}.jsonl`,
      `finished ${ID} hello there → done`,
    ]);
  });

  it('a new session whose file never appears is degraded; a resumed one is not provisioned', async () => {
    const rec = recorder();
    const engine = new GuardedEngine('claude', 'sdk', scripted(), makeDeps({ sessionRecorder: rec }));
    await engine.send({ prompt: 'one', cwd });
    expect(rec.calls[1]).toBe(`degraded ${ID} jsonl_not_found`);
    rec.calls.length = 0;
    await engine.send({ prompt: 'two', cwd, sessionId: ID });
    expect(rec.calls).toEqual([`finished ${ID} two → done`]);
  });

  it('a recorder that throws never fails the run', async () => {
    const bad: SessionRecorder = {
      provisioning: async () => Promise.reject(new Error('registry down')),
      resolved: async () => undefined,
      degraded: async () => undefined,
      runFinished: async () => Promise.reject(new Error('registry down')),
    };
    await expect(
      new GuardedEngine('claude', 'json', scripted(), makeDeps({ sessionRecorder: bad })).send({ prompt: 'hi', cwd }),
    ).resolves.toMatchObject({ sessionId: ID });
  });

  it('an onEvent handler that throws does not break the run', async () => {
    const r = await new GuardedEngine('claude', 'json', scripted(), makeDeps()).send(
      { prompt: 'hi', cwd },
      {
        onEvent: () => {
          throw new Error('ui bug');
        },
      },
    );
    expect(r.sessionId).toBe(ID);
  });

  it('serializes runs of one session and reports SESSION_BUSY after the lock timeout', async () => {
    const deps = makeDeps();
    deps.config.runtime.session_lock_timeout_ms = 150;
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const engine = new GuardedEngine('claude', 'json', scripted({ gate }), deps);
    const first = engine.send({ prompt: 'a', cwd, sessionId: ID });
    const e = await failure(
      new GuardedEngine('claude', 'json', scripted(), deps).send({ prompt: 'b', cwd, sessionId: ID }),
    );
    expect(e.code).toBe('SESSION_BUSY');
    expect(e.userMessage).toContain('11111111');
    open();
    await first;
    await expect(
      new GuardedEngine('claude', 'json', scripted(), deps).send({ prompt: 'c', cwd, sessionId: ID }),
    ).resolves.toBeTruthy();
  });

  it('returns the answer before the wrap-up ends, and holds the session and the slot until it has', async () => {
    const deps = makeDeps({ slots: new Semaphore(1) });
    let finishSaving!: () => void;
    const saving = new Promise<void>((r) => (finishSaving = r));
    const wrapping: Executor = async (ctx) => {
      ctx.emit({ type: 'session', sessionId: ID });
      ctx.wrapUp(saving);
      return result(ID, 'answered');
    };
    const first = await new GuardedEngine('claude', 'acp', wrapping, deps).send({ prompt: 'a', cwd, sessionId: ID });
    expect(first.text).toBe('answered');
    expect(deps.locks.isLocked(ID)).toBe(true);
    let secondRan = false;
    const second = new GuardedEngine('claude', 'acp', scripted({ onCtx: () => (secondRan = true) }), deps).send({
      prompt: 'b',
      cwd,
      sessionId: ID,
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(secondRan).toBe(false);
    finishSaving();
    await second;
    expect(secondRan).toBe(true);
    expect(deps.locks.isLocked(ID)).toBe(false);
  });

  it('locks a new session id as soon as it is known, so a resume of it waits', async () => {
    const deps = makeDeps();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const order: string[] = [];
    const created = new GuardedEngine('claude', 'json', scripted({ gate }), deps)
      .send({ prompt: 'new', cwd })
      .then(() => order.push('new'));
    await new Promise((r) => setTimeout(r, 20));
    expect(deps.locks.isLocked(ID)).toBe(true);
    const resumed = new GuardedEngine('claude', 'json', scripted(), deps)
      .send({ prompt: 'next', cwd, sessionId: ID })
      .then(() => order.push('resume'));
    await new Promise((r) => setTimeout(r, 20));
    open();
    await Promise.all([created, resumed]);
    expect(order).toEqual(['new', 'resume']);
    expect(deps.locks.isLocked(ID)).toBe(false);
  });

  it('limits concurrent runs to runtime.max_concurrent_sessions', async () => {
    const deps = makeDeps({ slots: new Semaphore(1) });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let secondStarted = false;
    const a = new GuardedEngine('claude', 'json', scripted({ gate, sessionId: 'a' }), deps).send({ prompt: 'a', cwd });
    const b = new GuardedEngine(
      'claude',
      'json',
      scripted({ sessionId: 'b', onCtx: () => (secondStarted = true) }),
      deps,
    ).send({
      prompt: 'b',
      cwd,
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(secondStarted).toBe(false);
    open();
    await Promise.all([a, b]);
    expect(secondStarted).toBe(true);
  });

  it('maps a cancel to CANCELLED, also while waiting for the lock', async () => {
    const deps = makeDeps();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const ac = new AbortController();
    const run = new GuardedEngine('claude', 'json', scripted({ gate }), deps).send(
      { prompt: 'a', cwd, sessionId: ID },
      { signal: ac.signal },
    );
    const waiting = new GuardedEngine('claude', 'json', scripted(), deps).send(
      { prompt: 'b', cwd, sessionId: ID },
      { signal: ac.signal },
    );
    await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    open();
    expect((await failure(run)).code).toBe('CANCELLED');
    expect((await failure(waiting)).code).toBe('CANCELLED');
  });

  it('maps the idle watchdog to TIMEOUT_IDLE (a silent executor)', async () => {
    const deps = makeDeps();
    deps.config.runtime.stale_timeout_ms = 80;
    const silent: Executor = (ctx) =>
      new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('killed'))));
    const e = await failure(new GuardedEngine('claude', 'json', silent, deps).send({ prompt: 'a', cwd }));
    expect(e.code).toBe('TIMEOUT_IDLE');
  });

  it('does not count time paused for a permission prompt as idle', async () => {
    const deps = makeDeps();
    deps.config.runtime.stale_timeout_ms = 60;
    const asking: Executor = async (ctx) => {
      ctx.pause();
      await new Promise((r) => setTimeout(r, 200));
      ctx.resume();
      return result(ID);
    };
    await expect(new GuardedEngine('claude', 'sdk', asking, deps).send({ prompt: 'a', cwd })).resolves.toMatchObject({
      sessionId: ID,
    });
  });

  it('an unexpected executor error becomes RUN_FAILED with a redacted detail', async () => {
    const e = await failure(
      new GuardedEngine(
        'claude',
        'json',
        scripted({ fail: new Error('weird sk-ant-abcdefghijklmnop failure') }),
        makeDeps(),
      ).send({
        prompt: 'a',
        cwd,
      }),
    );
    expect(e.code).toBe('RUN_FAILED');
    expect(e.userMessage).toContain('weird *** failure');
  });
});

describe('defaultOriginOf', () => {
  it('web… → web, cli… → cli, else feishu', () => {
    expect(defaultOriginOf({ prompt: '', cwd: '', userId: 'web:x' })).toBe('web');
    expect(defaultOriginOf({ prompt: '', cwd: '', userId: 'cli' })).toBe('cli');
    expect(defaultOriginOf({ prompt: '', cwd: '', userId: 'ou_123' })).toBe('feishu');
  });
});
