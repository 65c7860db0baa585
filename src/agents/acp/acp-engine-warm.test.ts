// Warm ACP sessions against the fake ACP agent (a real child process): a follow-up is only a
// `session/prompt` on the session's kept process; anything that would make the kept process wrong
// (another model, its death, a session continued elsewhere, a stop) gives a fresh process that loads
// the session; idle expiry and `close()` end kept processes politely (the turn saved first).
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isGroupAlive } from '../../process/terminate-group.js';
import { engineFailure } from '../../../test/helpers/engine-failure.js';
import {
  useAcpFixture,
  fx,
  harness,
  run,
  answering,
  agentPids,
  wrappedUp,
} from '../../../test/fakes/fake-acp-agent/acp-engine-harness.js';

useAcpFixture();

const count = (method: string): number => fx.calls().filter((c) => c.method === method).length;

/** Until `done()` holds (bounded: the test's own timeout ends a wait that never comes true). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(20);
}

describe('warm ACP sessions (fake agent)', () => {
  it('a follow-up is only session/prompt on the kept process: one process for three turns', async () => {
    const h = harness({}, undefined, undefined, {});
    const first = await run(h, 'hello one').promise;
    const second = run(h, 'hello two', { sessionId: first.sessionId });
    const r2 = await second.promise;
    const r3 = await run(h, 'hello three', { sessionId: first.sessionId }).promise;
    expect([first.text, r2.text, r3.text]).toEqual(['echo: hello one', 'echo: hello two', 'echo: hello three']);
    expect([r2.sessionId, r3.sessionId]).toEqual([first.sessionId, first.sessionId]);
    expect(r2).toMatchObject({ isNewSession: false, model: 'fake-large', usage: { inputTokens: 11 } });
    expect(second.events[0]).toEqual({ type: 'session', sessionId: first.sessionId });
    expect(agentPids()).toHaveLength(1);
    expect([count('initialize'), count('session/new'), count('session/load'), count('session/prompt')]).toEqual([
      1, 1, 0, 3,
    ]);
    expect(h.pool?.sessions()).toEqual([first.sessionId]);
  });

  it('permission requests go to the running turn: its handler, its events, its denials', async () => {
    const h = harness({}, undefined, undefined, {});
    const allow = answering({ behavior: 'allow' });
    const first = run(h, 'tool', {}, { permissions: allow });
    const r1 = await first.promise;
    const deny = answering({ behavior: 'deny' });
    const second = run(h, 'tool', { sessionId: r1.sessionId }, { permissions: deny });
    const r2 = await second.promise;
    expect(agentPids()).toHaveLength(1);
    expect([allow.asked.length, deny.asked.length]).toEqual([1, 1]);
    expect([r1.text, r2.text]).toEqual(['outcome: proceed_once', 'outcome: cancel']);
    expect(r1.permissionDenials).toEqual([]);
    expect(r2.permissionDenials).toHaveLength(1);
    expect(first.events.filter((e) => e.type === 'permission_request')).toHaveLength(1);
    expect(second.events.filter((e) => e.type === 'permission_request')).toHaveLength(1);
    expect(second.events).toContainEqual({
      type: 'tool_result',
      id: 'call-0',
      ok: false,
      summary: 'rejected by the user',
    });
  });

  it('an update the agent sends between turns belongs to no turn: ignored (logged at debug)', async () => {
    const h = harness({}, undefined, undefined, {});
    const first = run(h, 'late-update please');
    const r1 = await first.promise;
    await until(() => h.logs.some((l) => l.level === 'debug' && l.msg === 'ACP update between turns ignored'));
    const second = run(h, 'hello', { sessionId: r1.sessionId });
    const r2 = await second.promise;
    expect(agentPids()).toHaveLength(1);
    expect(JSON.stringify([first.events, second.events, r1.text, r2.text])).not.toContain('LATE-UPDATE');
  });

  it('another model → the kept process is ended and a fresh one loads the session', async () => {
    const h = harness({}, undefined, undefined, {});
    const r1 = await run(h, 'hello').promise;
    const [firstPid] = agentPids();
    const r2 = await run(h, 'hello again', { sessionId: r1.sessionId, model: 'fake-small' }).promise;
    expect(r2).toMatchObject({ text: 'echo: hello again', sessionId: r1.sessionId });
    expect(agentPids()).toHaveLength(2);
    expect(isGroupAlive(firstPid!)).toBe(false);
    expect(fx.calls().find((c) => c.method === 'session/load')?.params).toMatchObject({ sessionId: r1.sessionId });
    expect(h.logs.some((l) => l.msg === 'warm process not reused' && l.fields?.reason === 'options changed')).toBe(
      true,
    );
  });

  it('a kept process killed while idle → the next message loads the session in a fresh one', async () => {
    const h = harness({}, undefined, undefined, {});
    const r1 = await run(h, 'hello').promise;
    const [firstPid] = agentPids();
    process.kill(-firstPid!, 'SIGKILL');
    await until(() => h.pool?.sessions().length === 0);
    const { events, promise } = run(h, 'after the kill', { sessionId: r1.sessionId });
    const r2 = await promise;
    expect(r2.text).toBe('echo: after the kill');
    expect(JSON.stringify(events)).not.toContain('REPLAYED');
    expect(agentPids()).toHaveLength(2);
    expect(count('session/load')).toBe(1);
  });

  it('a stop during a warm turn: session/cancel, CANCELLED, the process gone and not kept', async () => {
    const h = harness({}, undefined, undefined, {});
    const r1 = await run(h, 'hello').promise;
    const stop = new AbortController();
    const err = await engineFailure(
      h.engine.send(
        { prompt: 'slow', cwd: fx.cwd, sessionId: r1.sessionId },
        { signal: stop.signal, onEvent: (e) => e.type === 'text' && stop.abort() },
      ),
    );
    expect(err.code).toBe('CANCELLED');
    expect(count('session/cancel')).toBe(1);
    expect(agentPids()).toHaveLength(1); // the stopped turn ran on the kept process
    for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
    expect(h.pool?.sessions()).toEqual([]);
    const r3 = await run(h, 'hello again', { sessionId: r1.sessionId }).promise;
    expect(r3.text).toBe('echo: hello again');
    expect(count('session/load')).toBe(1);
  });

  it('a crash during a warm turn → RUN_FAILED, nothing sent twice, nothing kept', async () => {
    const h = harness({}, undefined, undefined, {});
    const r1 = await run(h, 'hello').promise;
    const err = await engineFailure(run(h, 'crash', { sessionId: r1.sessionId }).promise);
    expect(err.code).toBe('RUN_FAILED');
    expect(err.userMessage).toContain('exited with code 3');
    expect(count('session/prompt')).toBe(2);
    expect(h.pool?.sessions()).toEqual([]);
  });

  it('the session file changed after the turn was saved → continued elsewhere: a fresh process loads it', async () => {
    const file = path.join(fx.root, 'session.jsonl');
    fs.writeFileSync(file, '{"turn":1}\n');
    const h = harness({}, undefined, undefined, { sessionFile: () => file });
    const r1 = await run(h, 'hello').promise;
    const r2 = await run(h, 'unchanged', { sessionId: r1.sessionId }).promise;
    expect(agentPids()).toHaveLength(1); // nothing written: the kept process takes it
    fs.appendFileSync(file, '{"turn":"from a terminal"}\n');
    const r3 = await run(h, 'after the terminal', { sessionId: r1.sessionId }).promise;
    expect([r2.text, r3.text]).toEqual(['echo: unchanged', 'echo: after the terminal']);
    expect(agentPids()).toHaveLength(2);
    expect(count('session/load')).toBe(1);
    expect(h.logs.some((l) => l.fields?.reason === 'the session was continued elsewhere')).toBe(true);
  });

  it('the agent’s own writes within endSettleMs after the answer do not count as continued elsewhere', async () => {
    const file = path.join(fx.root, 'session.jsonl');
    fs.writeFileSync(file, '{"turn":1}\n');
    const h = harness({}, undefined, undefined, { sessionFile: () => file, endSettleMs: 300 });
    const r1 = await run(h, 'hello').promise;
    fs.appendFileSync(file, '{"answer":"saved late by the agent"}\n'); // as Qwen Code does ~0.1 s after
    await sleep(500); // past the settle time: the mark is taken
    await run(h, 'hello again', { sessionId: r1.sessionId }).promise;
    expect(agentPids()).toHaveLength(1);
  });

  it('an idle kept process is ended after warm_idle_ms', async () => {
    const h = harness({}, undefined, undefined, { idleMs: 200 });
    await run(h, 'hello').promise;
    const [pid] = agentPids();
    await until(() => !isGroupAlive(pid!));
    expect(h.pool?.sessions()).toEqual([]);
    expect(h.logs.some((l) => l.msg === 'warm process released' && l.fields?.reason === 'idle')).toBe(true);
  });

  it('at most max_warm processes: the least recently used goes first', async () => {
    const h = harness({}, undefined, undefined, { max: 1 });
    const r1 = await run(h, 'hello one').promise;
    const r2 = await run(h, 'hello two').promise;
    expect(h.pool?.sessions()).toEqual([r2.sessionId]);
    await until(() => !isGroupAlive(fx.calls().find((c) => c.method === 'session/new')!.pid));
    expect(r1.sessionId).not.toBe(r2.sessionId);
  });

  it('close() ends every kept process, saving its turn first (endSettleMs), and keeps none after', async () => {
    const h = harness({}, undefined, undefined, { endSettleMs: 700 });
    const r1 = await run(h, 'save-late now').promise;
    await h.engine.close();
    // Written 300 ms after the prompt response: killed at once, the kept process would lose it.
    expect(fx.calls().filter((c) => c.method === 'saved')).toEqual([
      expect.objectContaining({ params: { sessionId: r1.sessionId } }),
    ]);
    for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
    const r2 = await run(h, 'hello', { sessionId: r1.sessionId }).promise;
    expect(r2.text).toBe('echo: hello');
    await wrappedUp(r2.sessionId);
    for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
  });
});
