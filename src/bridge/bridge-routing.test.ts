import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../test/fakes/bridge-harness.js';
import { fakeSession } from '../../test/fakes/fake-session-directory.js';
import { parseChatCommand } from './commands/command-parser.js';
import type { SpoolRecord } from './spool/spool-record.js';

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

/** Two known sessions in ~/Git/alpha, the owner talking to A. */
async function twoSessions(): Promise<void> {
  const alpha = path.join(h.home, 'Git/alpha');
  for (const id of [A, B]) h.sessions.sessions.set(id, fakeSession(id, { cwd: alpha }));
  await h.mapping.setSession(OWNER, { sessionUuid: A, cwd: alpha });
}

/** Makes `/switch` lookups wait until the returned function is called. */
function holdSwitchLookups(): () => void {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const resolvePrefix = h.sessions.resolvePrefix.bind(h.sessions);
  h.sessions.resolvePrefix = async (prefix) => {
    await gate;
    return resolvePrefix(prefix);
  };
  return open;
}

const sessionByPrompt = (h: BridgeHarness) => Object.fromEntries(h.engine.requests.map((r) => [r.prompt, r.sessionId]));

describe('Bridge: accept() persists, the dispatcher runs commands in arrival order', () => {
  it('accept() returns before a command has run; /switch moves only the messages after it', async () => {
    h = await bridgeHarness();
    await twoSessions();
    const open = holdSwitchLookups();
    const switchMsg = h.msg('/switch bbbb');
    const toB = h.msg('to B');
    for (const m of [h.msg('to A'), switchMsg, toB]) expect(await h.bridge.accept(m)).toEqual({ status: 'accepted' });
    // The command waits in the dispatcher, not in accept(): the mapping is unchanged so far …
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'session', sessionUuid: A });
    const stored = await h.spool.read('pending', switchMsg.id);
    expect(stored?.command).toEqual({ name: 'switch', ref: { prefix: 'bbbb' } });
    expect(stored?.target).toBeUndefined();
    // … the message before it runs to the end meanwhile, and the one after it waits for its turn.
    await waitFor(() => h.engine.requests.length === 1);
    expect(h.engine.requests[0]).toMatchObject({ prompt: 'to A', sessionId: A });
    while ((await h.spool.count('done')) < 1) await new Promise((r) => setTimeout(r, 10));
    expect(h.engine.requests).toHaveLength(1);
    expect((await h.spool.read('pending', toB.id))?.target).toBeUndefined();
    open();
    await h.bridge.whenIdle();
    expect(sessionByPrompt(h)).toEqual({ 'to A': A, 'to B': B });
    expect((await h.spool.read('done', switchMsg.id))?.target).toMatchObject({ kind: 'reply' });
  });

  it('keeps the order when /new, /model and texts arrive in a burst', async () => {
    h = await bridgeHarness({
      configure: (c) => {
        c.claude.models = { fast: 'claude-haiku-test' };
      },
    });
    await twoSessions();
    const alpha = path.join(h.home, 'Git/alpha');
    for (const text of ['one', '/model fast', 'two', `/new ${alpha}`, 'three']) await h.bridge.accept(h.msg(text));
    await h.bridge.whenIdle();
    const byPrompt = Object.fromEntries(h.engine.requests.map((r) => [r.prompt, r]));
    expect(byPrompt.one).toMatchObject({ sessionId: A });
    expect(byPrompt.one?.model).toBeUndefined();
    expect(byPrompt.two).toMatchObject({ sessionId: A, model: 'claude-haiku-test' });
    // `/new` without a prompt keeps the default model; the next text creates the session with it.
    expect(byPrompt.three?.sessionId).toBeUndefined();
    expect(byPrompt.three).toMatchObject({ cwd: alpha, model: 'claude-haiku-test' });
    expect(h.engine.created).toHaveLength(1);
  });
});

describe('Bridge: a routing step that fails', () => {
  it('is retried and holds the later messages back, so their order holds', async () => {
    h = await bridgeHarness();
    await twoSessions();
    const claim = h.mapping.claimForMessage.bind(h.mapping);
    let failures = 2;
    h.mapping.claimForMessage = async (...args) => {
      if (failures-- > 0) throw new Error('mapping locked by another process');
      return claim(...args);
    };
    for (const text of ['to A', '/switch bbbb', 'to B']) await h.bridge.accept(h.msg(text));
    await h.bridge.whenIdle();
    expect(sessionByPrompt(h)).toEqual({ 'to A': A, 'to B': B });
  });

  it('is answered with the error after the last attempt and lands in failed/', async () => {
    h = await bridgeHarness();
    await twoSessions();
    const { AppError } = await import('../core/app-error.js');
    h.mapping.claimForMessage = async () => {
      throw new AppError('STORE_CORRUPT', 'user-mapping.json 已损坏');
    };
    await h.bridge.accept(h.msg('to A'));
    await h.bridge.accept(h.msg('/help'));
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(0);
    expect(h.channel.transcript().filter((t) => t.includes('user-mapping.json 已损坏'))).toHaveLength(1);
    expect(await h.spool.count('failed')).toBe(1);
    expect(await h.spool.count('done')).toBe(1);
  });
});

describe('Bridge: permission answers typed as text', () => {
  it('/allow 2 answers the second waiting prompt, through the command parser', async () => {
    h = await bridgeHarness();
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    const decisions: Record<string, unknown> = {};
    h.engine.onSend = async (_req, opts) => {
      const ask = async (id: string) => {
        decisions[id] = await opts.permissions?.requestPermission(
          { id, toolName: 'Bash', summary: `run ${id}`, input: {}, suggestions: [] },
          new AbortController().signal,
        );
      };
      await Promise.all([ask('tu_a'), ask('tu_b')]);
    };
    await h.bridge.accept(h.msg('two tools please'));
    await waitFor(() => h.bridge.prompts.list(OWNER).length === 2);
    const allow2 = h.msg('/allow 2');
    expect(await h.bridge.accept(allow2)).toEqual({ status: 'accepted' });
    await waitFor(() => h.bridge.prompts.list(OWNER).length === 1);
    expect(h.bridge.prompts.list(OWNER).map((p) => p.id)).toEqual(['tu_a']);
    expect(decisions.tu_b).toEqual({ behavior: 'allow', always: false });
    await h.bridge.accept(h.msg('/deny'));
    await h.bridge.whenIdle();
    expect(decisions.tu_a).toMatchObject({ behavior: 'deny' });
    expect((await h.spool.read('done', allow2.id))?.command).toEqual({ name: 'answer', decision: 'allow', index: 2 });
    const texts = h.channel.transcript();
    expect(texts).toContain('已允许');
    expect(texts).toContain('已拒绝');
  });

  it('gets through while every worker waits on the prompt it answers', async () => {
    h = await bridgeHarness({
      configure: (c) => {
        c.queue.worker_concurrency = 1;
      },
    });
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    let decision: unknown;
    h.engine.onSend = async (_req, opts) => {
      decision = await opts.permissions?.requestPermission(
        { id: 'tu_1', toolName: 'Bash', summary: 'touch f', input: {}, suggestions: [] },
        new AbortController().signal,
      );
    };
    await h.bridge.accept(h.msg('make a file'));
    await waitFor(() => h.bridge.prompts.list(OWNER).length === 1);
    await h.bridge.accept(h.msg('/always'));
    await waitFor(() => decision !== undefined);
    expect(decision).toEqual({ behavior: 'allow', always: true });
    await h.bridge.whenIdle();
  });
});

describe('Bridge: restart with messages accepted but not yet routed', () => {
  it('routes them after the restart, once each, in arrival order', async () => {
    h = await bridgeHarness();
    await twoSessions();
    holdSwitchLookups(); // never opened: this life ends with /switch stuck in routing
    const switchMsg = h.msg('/switch bbbb');
    for (const m of [h.msg('to A'), switchMsg, h.msg('to B')]) await h.bridge.accept(m);
    await waitFor(() => h.engine.requests.length === 1);
    h.sessions.resolvePrefix = async (prefix) =>
      [...h.sessions.sessions.values()].filter((s) => s.uuid.startsWith(prefix));
    await h.restart();
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => [r.prompt, r.sessionId])).toEqual([
      ['to A', A],
      ['to B', B],
    ]);
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'session', sessionUuid: B });
    expect(h.channel.transcript().filter((t) => t.includes('已切换'))).toHaveLength(1);
    expect(await h.spool.count('done')).toBe(3);
  });

  it('re-routes a record whose command acted just before a crash without acting twice', async () => {
    h = await bridgeHarness();
    const alpha = path.join(h.home, 'Git/alpha');
    // The state a crash leaves between `/new … -- prompt` claiming the slot and its target being
    // written: the record is unrouted in pending/, the mapping already claimed by it.
    const message = h.msg(`/new ${alpha} -- hello`);
    const record: SpoolRecord = {
      schema: 1,
      message,
      command: parseChatCommand(message.text) ?? undefined,
      acceptedAt: new Date().toISOString(),
      seq: 1,
      attempts: 0,
    };
    await h.spool.enqueue(record);
    await h.mapping.claimNewDirectly(OWNER, message.id, alpha);
    await h.restart();
    await h.bridge.whenIdle();
    expect(h.engine.created).toHaveLength(1);
    expect(h.engine.requests.map((r) => r.prompt)).toEqual(['hello']);
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'session', sessionUuid: h.engine.created[0] });
    expect(await h.bridge.accept({ ...message })).toEqual({ status: 'duplicate' });
  });
});

async function waitFor(pred: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
