// Warm sessions in the `stream-json` mode with the REAL Claude Code binary against the fake Anthropic
// API: a follow-up is written to the session's kept child; another model gets a new child; a kept
// child killed while idle is replaced transparently; a cancelled warm turn leaves nothing behind.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  allGroupsGone,
  CLAUDE_BIN,
  eventLog,
  RUN_TIMEOUT_MS,
  startEngineHarness,
  type EngineHarness,
} from './claude-harness.js';
import { isGroupGone } from '../fakes/fake-children.js';
import { engineFailure } from '../helpers/engine-failure.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.close());
afterEach(async () => h?.closeEngines());

/** The groups started since `from` (an index into `h.pgids`). */
const startedSince = (from: number): number[] => h.pgids.slice(from);

async function waitGone(pgid: number, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!isGroupGone(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return isGroupGone(pgid);
}

describe.skipIf(!CLAUDE_BIN)('stream-json mode, warm sessions, real claude', () => {
  it('a follow-up is written to the same child (one group for two messages)', { timeout: RUN_TIMEOUT_MS }, async () => {
    const engine = h.engine('stream-json');
    const from = h.pgids.length;
    const first = await engine.send({ prompt: 'echo: eins', cwd: h.sb.cwd });
    const log = eventLog();
    const second = await engine.send(
      { prompt: 'echo: zwei', cwd: h.sb.cwd, sessionId: first.sessionId },
      { onEvent: log.onEvent },
    );
    expect(second).toMatchObject({ text: 'zwei', sessionId: first.sessionId, isNewSession: false });
    expect(log.events[0]).toMatchObject({ type: 'session', sessionId: first.sessionId });
    expect(log.text()).toBe('zwei');
    const groups = startedSince(from);
    expect(groups).toHaveLength(1);
    expect(isGroupGone(groups[0] as number)).toBe(false); // kept for the next message
    await h.closeEngines();
    expect(allGroupsGone(groups)).toBe(true);
  });

  it('another model is a new child; the kept one is ended', { timeout: RUN_TIMEOUT_MS }, async () => {
    const engine = h.engine('stream-json');
    const from = h.pgids.length;
    const first = await engine.send({ prompt: 'echo: a', cwd: h.sb.cwd });
    const second = await engine.send({
      prompt: 'echo: b',
      cwd: h.sb.cwd,
      sessionId: first.sessionId,
      model: 'claude-sonnet-4-5',
    });
    expect(second).toMatchObject({ text: 'b', sessionId: first.sessionId });
    expect(h.fake.messageRequests().at(-1)?.scriptRequest?.model).toBe('claude-sonnet-4-5');
    const groups = startedSince(from);
    expect(groups).toHaveLength(2);
    expect(isGroupGone(groups[0] as number)).toBe(true);
  });

  it(
    'a kept child killed while idle: the next message still answers (a fresh child resumes)',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const engine = h.engine('stream-json');
      const from = h.pgids.length;
      const first = await engine.send({ prompt: 'echo: before', cwd: h.sb.cwd });
      const [kept] = startedSince(from);
      process.kill(-(kept as number), 'SIGKILL');
      expect(await waitGone(kept as number)).toBe(true);
      const second = await engine.send({ prompt: 'echo: after', cwd: h.sb.cwd, sessionId: first.sessionId });
      expect(second).toMatchObject({ text: 'after', sessionId: first.sessionId, isNewSession: false });
      expect(startedSince(from)).toHaveLength(2);
    },
  );

  it('cancel of a warm turn is CANCELLED and its group is gone', { timeout: RUN_TIMEOUT_MS }, async () => {
    const engine = h.engine('stream-json');
    const from = h.pgids.length;
    const first = await engine.send({ prompt: 'echo: warm up', cwd: h.sb.cwd });
    const ac = new AbortController();
    const log = eventLog();
    const e = await engineFailure(
      engine.send(
        { prompt: 'slow: 300', cwd: h.sb.cwd, sessionId: first.sessionId },
        { signal: ac.signal, onEvent: (ev) => (log.onEvent(ev), ev.type === 'text' && ac.abort()) },
      ),
    );
    expect(e.code).toBe('CANCELLED');
    expect(log.text().length).toBeGreaterThan(0);
    const groups = startedSince(from);
    expect(groups).toHaveLength(1); // the cancelled turn ran on the kept child
    expect(allGroupsGone(groups)).toBe(true);
  });
});
