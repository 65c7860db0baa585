import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../test/fakes/bridge-harness.js';
import { fakeSession } from '../../test/fakes/fake-session-directory.js';
import type { SpoolRecord } from './spool/spool-record.js';

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

/** Two known sessions in ~/Git/alpha, the owner's mapping on B. */
async function mappedToB(): Promise<string> {
  const alpha = path.join(h.home, 'Git/alpha');
  for (const id of [A, B]) h.sessions.sessions.set(id, fakeSession(id, { cwd: alpha }));
  await h.mapping.setSession(OWNER, { sessionUuid: B, cwd: alpha });
  return alpha;
}

describe('Bridge: a message pinned to a session (InboundMessage.sessionId)', () => {
  it('runs in the pinned session, not where the mapping pointed, and moves the mapping there', async () => {
    h = await bridgeHarness();
    await mappedToB();
    await h.bridge.accept(h.msg('for A', { sessionId: A }));
    await h.bridge.accept(h.msg('unpinned'));
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => [r.prompt, r.sessionId])).toEqual([
      ['for A', A],
      ['unpinned', A],
    ]);
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'session', sessionUuid: A });
    // Pinning is not a command: no "switched" reply is sent.
    expect(h.channel.transcript().filter((t) => t.includes('已切换'))).toHaveLength(0);
  });

  it('answers a session the registry does not know with an error, runs nothing and keeps the mapping', async () => {
    h = await bridgeHarness();
    await mappedToB();
    const unknown = 'cccccccc-0000-4000-8000-000000000003';
    const m = h.msg('for nobody', { sessionId: unknown });
    await h.bridge.accept(m);
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(0);
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'session', sessionUuid: B });
    expect(h.channel.transcript().filter((t) => t.includes('cccccccc'))).toHaveLength(1);
    expect((await h.spool.read('done', m.id))?.target).toMatchObject({ kind: 'reply' });
  });

  it('a command ignores the pin', async () => {
    h = await bridgeHarness();
    await mappedToB();
    await h.bridge.accept(h.msg('/help', { sessionId: A }));
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(0);
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'session', sessionUuid: B });
  });

  it('re-routed after a crash between pointing the mapping and writing the target, it runs once in A', async () => {
    h = await bridgeHarness();
    const alpha = await mappedToB();
    // The state a crash leaves after the pin moved the mapping but before the target was written:
    // the record is unrouted in pending/, the mapping already on A.
    const message = h.msg('for A', { sessionId: A });
    const record: SpoolRecord = { schema: 1, message, acceptedAt: new Date().toISOString(), seq: 1, attempts: 0 };
    await h.spool.enqueue(record);
    await h.mapping.setSession(OWNER, { sessionUuid: A, cwd: alpha });
    await h.restart();
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => [r.prompt, r.sessionId])).toEqual([['for A', A]]);
    expect(await h.spool.count('done')).toBe(1);
    expect(await h.bridge.accept({ ...message })).toEqual({ status: 'duplicate' });
    // A second restart finds nothing left to route or run.
    await h.restart();
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(1);
  });
});
