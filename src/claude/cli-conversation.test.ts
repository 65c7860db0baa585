// The stream-json mode's conversations against a fake `claude` (test/fakes/fake-claude-cli): a
// session's child kept between turns, its key, its death while idle, failures and the cold path.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import type { AgentEngine, EngineEvent } from '../engine/engine-types.js';
import { isGroupGone } from '../../test/fakes/fake-children.js';
import { createEngineFixture, type EngineFixture } from '../../test/fakes/fake-claude-cli/engine-fixture.js';
import { engineFailure } from '../../test/helpers/engine-failure.js';
import { createEngine } from './create-engine.js';

let fx: EngineFixture;
const engines: AgentEngine[] = [];
beforeEach(() => {
  fx = createEngineFixture();
  fx.config.claude.mode = 'stream-json';
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close?.()));
  fx.cleanup();
});

function engine(): AgentEngine {
  const built = createEngine(fx.config, {
    paths: fx.paths,
    logger: silentLogger,
    lang: 'en',
    env: fx.env,
    killGraceMs: 200,
  });
  engines.push(built);
  return built;
}

const pids = (): number[] => fx.calls().map((c) => c.pid);

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(20);
  return check();
}

describe('stream-json conversations (warm by default)', () => {
  it('a follow-up is written to the same child; each turn gets its own session event and text', async () => {
    const eng = engine();
    const first = await eng.send({ prompt: 'one', cwd: fx.cwd });
    const events: EngineEvent[] = [];
    const second = await eng.send(
      { prompt: 'two', cwd: fx.cwd, sessionId: first.sessionId },
      { onEvent: (e) => events.push(e) },
    );
    expect(second).toMatchObject({ text: 'echo: two', sessionId: first.sessionId, isNewSession: false });
    expect(events[0]).toMatchObject({ type: 'session', sessionId: first.sessionId });
    expect(events.filter((e) => e.type === 'text')).toEqual([{ type: 'text', delta: 'echo: two' }]);
    expect(fx.calls().map((c) => c.stdin)).toEqual(['one', 'two']);
    const [a, b] = pids();
    expect(b).toBe(a);
    expect(isGroupGone(a as number)).toBe(false);
    await eng.close?.();
    expect(isGroupGone(a as number)).toBe(true);
  });

  it('another model is a new child; the kept one is ended', async () => {
    const eng = engine();
    const first = await eng.send({ prompt: 'one', cwd: fx.cwd });
    await eng.send({ prompt: 'two', cwd: fx.cwd, sessionId: first.sessionId, model: 'opus' });
    const [a, b] = pids();
    expect(b).not.toBe(a);
    expect(fx.calls()[1]?.argv).toContain(`--resume=${first.sessionId}`);
    expect(isGroupGone(a as number)).toBe(true);
  });

  it('a kept child killed while idle: the next message still answers, on a fresh child', async () => {
    const eng = engine();
    const first = await eng.send({ prompt: 'one', cwd: fx.cwd });
    const [a] = pids();
    process.kill(-(a as number), 'SIGKILL');
    expect(await until(() => isGroupGone(a as number))).toBe(true);
    const second = await eng.send({ prompt: 'two', cwd: fx.cwd, sessionId: first.sessionId });
    expect(second).toMatchObject({ text: 'echo: two', sessionId: first.sessionId });
    expect(pids()[1]).not.toBe(a);
  });

  it('a kept child that dies on the message before recording it: the message runs once more on a fresh child', async () => {
    const eng = engine();
    const first = await eng.send({ prompt: 'one', cwd: fx.cwd });
    await engineFailure(eng.send({ prompt: 'vanish', cwd: fx.cwd, sessionId: first.sessionId }));
    expect(fx.calls().map((c) => c.stdin)).toEqual(['one', 'vanish', 'vanish']);
  });

  it('a kept child that dies after recording the message: it is not sent again (the model would see it twice)', async () => {
    const eng = engine();
    const first = await eng.send({ prompt: 'one', cwd: fx.cwd });
    const e = await engineFailure(eng.send({ prompt: 'exit3', cwd: fx.cwd, sessionId: first.sessionId }));
    expect(e.code).toBe('RUN_FAILED');
    expect(fx.calls().map((c) => c.stdin)).toEqual(['one', 'exit3']);
  });

  it('a failed turn ends its child; the next message gets a fresh one', async () => {
    const eng = engine();
    const first = await eng.send({ prompt: 'one', cwd: fx.cwd });
    const e = await engineFailure(eng.send({ prompt: 'is-error', cwd: fx.cwd, sessionId: first.sessionId }));
    expect(e.code).toBe('RUN_FAILED');
    const [a, b] = pids();
    expect(b).toBe(a); // the failing turn ran on the kept child
    expect(isGroupGone(a as number)).toBe(true);
    await eng.send({ prompt: 'three', cwd: fx.cwd, sessionId: first.sessionId });
    expect(pids()[2]).not.toBe(a);
  });

  it('cancel of a turn on a kept child is CANCELLED and its group is gone', async () => {
    const eng = engine();
    const first = await eng.send({ prompt: 'one', cwd: fx.cwd });
    const ac = new AbortController();
    const run = eng.send(
      { prompt: 'slow', cwd: fx.cwd, sessionId: first.sessionId },
      { signal: ac.signal, onEvent: (e) => e.type === 'text' && ac.abort() },
    );
    const e = await engineFailure(run);
    expect(e.code).toBe('CANCELLED');
    const [a, b] = pids();
    expect(b).toBe(a);
    expect(isGroupGone(a as number)).toBe(true);
  });

  it('cold (runtime.warm_idle_ms = 0): one child per message, each gone after its turn', async () => {
    fx.config.runtime.warm_idle_ms = 0;
    const eng = engine();
    const first = await eng.send({ prompt: 'one', cwd: fx.cwd });
    await eng.send({ prompt: 'two', cwd: fx.cwd, sessionId: first.sessionId });
    const [a, b] = pids();
    expect(b).not.toBe(a);
    expect(isGroupGone(a as number)).toBe(true); // the second turn waited for the first one's exit
    expect(await until(() => isGroupGone(b as number))).toBe(true);
  });
});
