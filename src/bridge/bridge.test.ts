import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../test/fakes/bridge-harness.js';
import { fakeSession } from '../../test/fakes/fake-session-directory.js';
import type { CardReply } from './reply-model.js';

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

const finals = (h: BridgeHarness) => h.channel.transcript();

describe('Bridge: routing and the target snapshot', () => {
  it('answers plain text without a target with guidance, never creating a session', async () => {
    h = await bridgeHarness();
    expect(await h.bridge.accept(h.msg('hello'))).toEqual({ status: 'accepted' });
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(0);
    expect(finals(h)[0]).toContain('当前没有活跃会话');
    expect(await h.spool.count('done')).toBe(1);
  });

  it('/new <dir> -- prompt creates a session, maps it, and the next text resumes it', async () => {
    h = await bridgeHarness();
    const dir = path.join(h.home, 'Git/alpha');
    await h.bridge.accept(h.msg(`/new ${dir} -- 梳理架构`));
    await h.bridge.whenIdle();
    expect(h.engine.requests[0]).toMatchObject({ prompt: '梳理架构', cwd: dir });
    expect(h.engine.requests[0]?.sessionId).toBeUndefined();
    const created = h.engine.created[0] as string;
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'session', sessionUuid: created, cwd: dir });
    await h.bridge.accept(h.msg('继续'));
    await h.bridge.whenIdle();
    expect(h.engine.requests[1]).toMatchObject({ prompt: '继续', sessionId: created, cwd: dir });
    expect(finals(h)).toEqual(['echo: 梳理架构', 'echo: 继续']);
  });

  it('two fast texts after /new <dir> create exactly one session; the second is told to wait', async () => {
    h = await bridgeHarness();
    let release = () => {};
    h.engine.beforeSession = new Promise<void>((r) => (release = r));
    await h.bridge.accept(h.msg(`/new ${path.join(h.home, 'Git/beta')}`));
    const [a, b] = await Promise.all([h.bridge.accept(h.msg('first')), h.bridge.accept(h.msg('second'))]);
    expect([a.status, b.status]).toEqual(['accepted', 'accepted']);
    release();
    await h.bridge.whenIdle();
    expect(h.engine.created).toHaveLength(1);
    const t = finals(h);
    expect(t.filter((x) => x.includes('新会话正在创建'))).toHaveLength(1);
    expect(t.filter((x) => x.startsWith('echo: '))).toHaveLength(1);
  });

  it('/switch between two queued messages affects only the later one', async () => {
    h = await bridgeHarness();
    const alpha = path.join(h.home, 'Git/alpha');
    for (const id of ['aaaaaaaa-0000-4000-8000-000000000001', 'bbbbbbbb-0000-4000-8000-000000000002'])
      h.sessions.sessions.set(id, fakeSession(id, { cwd: alpha }));
    await h.mapping.setSession(OWNER, { sessionUuid: 'aaaaaaaa-0000-4000-8000-000000000001', cwd: alpha });
    h.engine.delayMs = 80;
    await h.bridge.accept(h.msg('to A'));
    await h.bridge.accept(h.msg('/switch bbbb'));
    await h.bridge.accept(h.msg('to B'));
    await h.bridge.whenIdle();
    const bySession = Object.fromEntries(h.engine.requests.map((r) => [r.prompt, r.sessionId]));
    expect(bySession).toEqual({
      'to A': 'aaaaaaaa-0000-4000-8000-000000000001',
      'to B': 'bbbbbbbb-0000-4000-8000-000000000002',
    });
  });
});

describe('Bridge: exactly once', () => {
  it('a storm of re-pushed ids is processed once', async () => {
    h = await bridgeHarness();
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    const m = h.msg('once');
    const results = await Promise.all(Array.from({ length: 20 }, () => h.bridge.accept({ ...m })));
    expect(results.filter((r) => r.status === 'accepted')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(19);
    await h.bridge.whenIdle();
    expect(await h.bridge.accept({ ...m })).toEqual({ status: 'duplicate' });
    // A restart forgets the in-memory cache; the receipt still recognises the id.
    await h.restart();
    expect(await h.bridge.accept({ ...m })).toEqual({ status: 'duplicate' });
    expect(h.engine.requests).toHaveLength(1);
    expect(h.channel.messages).toHaveLength(1);
  });

  it('a delivery failure is retried with the same key and delivered once', async () => {
    h = await bridgeHarness();
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    await h.bridge.accept(h.msg('x'));
    // Fail the finish() of the streamed card twice.
    let left = 2;
    const stream = h.channel.outbox.openStream.bind(h.channel.outbox);
    h.channel.outbox.openStream = async (...args) => {
      const s = await stream(...args);
      return {
        ...s,
        messageId: s.messageId,
        update: s.update,
        finish: async (f, t) => (left-- > 0 ? Promise.reject(new Error('outage')) : s.finish(f, t)),
      };
    };
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(1);
    expect(h.channel.messages).toHaveLength(1);
    expect(h.channel.messages[0]?.finished?.status).toBe('complete');
    expect(await h.spool.count('done')).toBe(1);
  });

  it('splits an overflowing answer into text chunks after the card', async () => {
    h = await bridgeHarness();
    h.channel.maxCardChars = 100;
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    const long = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'x'.repeat(60)}`).join('\n\n');
    h.engine.onSend = () => ({ text: long });
    await h.bridge.accept(h.msg('long please'));
    await h.bridge.whenIdle();
    const texts = h.channel.messages.slice(1).map((m) => (m.reply.kind === 'text' ? m.reply.text : ''));
    expect(texts.length).toBeGreaterThan(1);
    for (const t of texts) expect(t.length).toBeLessThanOrEqual(h.channel.outbox.maxTextChunk);
    expect(texts.join('').replace(/\s/g, '')).toBe(long.slice(100).replace(/\s/g, ''));
  });

  it('a restart after the outcome was persisted delivers the unsent chunks without running Claude again', async () => {
    h = await bridgeHarness();
    h.channel.maxCardChars = 50;
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    h.engine.onSend = () => ({
      text: Array.from({ length: 8 }, (_, i) => `Para ${i} ${'y'.repeat(150)}`).join('\n\n'),
    });
    let sends = 0;
    const send = h.channel.outbox.send.bind(h.channel.outbox);
    h.channel.outbox.send = async (...args) => {
      sends += 1;
      if (sends === 2) {
        // Simulate the process dying here: no further progress, the record stays in processing/.
        await h.bridge.stop(0);
        throw new Error('crash');
      }
      return send(...args);
    };
    await h.bridge.accept(h.msg('big'));
    await new Promise((r) => setTimeout(r, 300));
    h.channel.outbox.send = send;
    const before = h.channel.messages.length;
    await h.restart();
    // The reconciler's spool half would have moved it back; do what it does.
    const { recoverSpool } = await import('./spool/recover-spool.js');
    const { silentLogger } = await import('../core/logger.js');
    await h.bridge.stop(0);
    await recoverSpool(h.spool, h.bridge.deliveries, silentLogger);
    await h.restart();
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(1);
    const keys = h.channel.messages.map((m) => m.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(h.channel.messages.length).toBeGreaterThan(before);
    expect(await h.spool.count('done')).toBe(1);
  });
});

describe('Bridge: refusals and errors', () => {
  it('refuses a stranger with the fixed notice and queues nothing', async () => {
    h = await bridgeHarness();
    const r = await h.bridge.accept(h.msg('hi', { userId: 'ou_stranger' }));
    expect(r).toMatchObject({ status: 'refused', reason: 'not-owner', notice: '该 Bot 为个人私有实例，暂不对外开放' });
    await new Promise((res) => setTimeout(res, 20));
    expect(finals(h)).toEqual(['该 Bot 为个人私有实例，暂不对外开放']);
    expect(await h.spool.count('pending')).toBe(0);
    expect(h.engine.requests).toHaveLength(0);
  });

  it('answers /whoami to a stranger only while no owner is configured', async () => {
    h = await bridgeHarness({ bridge: { ownerPolicy: async () => 'unbound' } });
    const r = await h.bridge.accept(h.msg('/whoami', { userId: 'ou_newcomer' }));
    expect(r).toMatchObject({ status: 'refused', reason: 'not-owner' });
    expect(r.status === 'refused' && r.notice).toContain('ou_newcomer');
    // A channel other than Feishu (Telegram) has user ids, not open_ids.
    const tg = await h.bridge.accept(h.msg('/whoami', { userId: '4242', channel: 'telegram' }));
    expect(tg.status === 'refused' && tg.notice).toBe(
      '你的用户 id：4242（填入该通道的 owner 配置，如 telegram.owner_user_id）',
    );
    const other = await h.bridge.accept(h.msg('hello', { userId: 'ou_newcomer' }));
    expect(other).toMatchObject({ notice: '该 Bot 为个人私有实例，暂不对外开放' });
    await h.cleanup();
    h = await bridgeHarness();
    const configured = await h.bridge.accept(h.msg('/whoami', { userId: 'ou_stranger' }));
    expect(configured).toMatchObject({ notice: '该 Bot 为个人私有实例，暂不对外开放' });
    expect(h.engine.requests).toHaveLength(0);
  });

  it('answers an unsupported message type to the owner and refuses it to a stranger, queueing nothing', async () => {
    h = await bridgeHarness();
    const r = await h.bridge.accept(h.msg('', { unsupportedType: 'sticker' }));
    expect(r).toMatchObject({
      status: 'refused',
      reason: 'invalid',
      notice: '暂不支持「sticker」类型的消息，请发送文字、图片、文件或富文本。',
    });
    const s = await h.bridge.accept(h.msg('', { unsupportedType: 'file', userId: 'ou_stranger' }));
    expect(s).toMatchObject({ status: 'refused', reason: 'not-owner' });
    expect(await h.spool.count('pending')).toBe(0);
    expect(h.engine.requests).toHaveLength(0);
  });

  it('ignores group messages silently', async () => {
    h = await bridgeHarness();
    expect(await h.bridge.accept(h.msg('hi', { chatType: 'group' }))).toEqual({ status: 'refused', reason: 'group' });
    expect(h.channel.messages).toHaveLength(0);
  });

  it('refuses text over 10,000 characters with a friendly message', async () => {
    h = await bridgeHarness();
    const r = await h.bridge.accept(h.msg('x'.repeat(10_001)));
    expect(r).toMatchObject({ status: 'refused', reason: 'too-long' });
    expect(r.status === 'refused' && r.notice).toContain('10001');
  });

  it('refuses the newest message when the queue is full, never dropping queued ones', async () => {
    h = await bridgeHarness({
      configure: (c) => {
        c.queue.max_pending = 2;
        c.queue.worker_concurrency = 1;
      },
    });
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    h.engine.delayMs = 50;
    const rs = [];
    for (const t of ['one', 'two', 'three']) rs.push(await h.bridge.accept(h.msg(t)));
    expect(rs.map((r) => r.status)).toEqual(['accepted', 'accepted', 'refused']);
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => r.prompt)).toEqual(['one', 'two']);
    expect(finals(h).some((t) => t.includes('当前排队消息过多'))).toBe(true);
  });

  it('an engine error answers with an error card and the message lands in failed/', async () => {
    h = await bridgeHarness();
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    const { AppError } = await import('../core/app-error.js');
    h.engine.onSend = () => {
      throw new AppError('SESSION_NOT_FOUND', '会话已不存在，请 /switch');
    };
    await h.bridge.accept(h.msg('x'));
    await h.bridge.whenIdle();
    const card = h.channel.messages[0]?.finished as CardReply;
    expect(card.status).toBe('error');
    expect(JSON.stringify(card.sections)).toContain('会话已不存在');
    const failed = await fs.readdir(path.join(h.config.queue.spool_dir, 'failed'));
    expect(failed).toHaveLength(1);
  });

  it('a failure before the session id exists rolls the new-session claim back', async () => {
    h = await bridgeHarness();
    h.engine.send = async () => {
      throw new Error('spawn failed');
    };
    await h.bridge.accept(h.msg(`/new ${path.join(h.home, 'Git/alpha')}`));
    await h.bridge.accept(h.msg('first'));
    await h.bridge.whenIdle();
    expect(await h.mapping.get(OWNER)).toMatchObject({ type: 'pending_new_session' });
  });
});

describe('Bridge: permission prompts', () => {
  it('asks with buttons; only the owner with the right nonce can answer, once', async () => {
    h = await bridgeHarness();
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    let decision: unknown;
    h.engine.onSend = async (_req, opts) => {
      decision = await opts.permissions?.requestPermission(
        {
          id: 'tu_1',
          toolName: 'Bash',
          summary: 'touch f',
          input: { command: 'touch f' },
          suggestions: ['Bash(touch:*)'],
        },
        new AbortController().signal,
      );
    };
    await h.bridge.accept(h.msg('make a file'));
    await vi_waitFor(() => h.channel.messages.some((m) => m.reply.kind === 'card' && m.reply.buttons?.length));
    const card = h.channel.messages.find((m) => m.reply.kind === 'card' && m.reply.buttons?.length)?.reply as CardReply;
    const allow = card.buttons?.find((b) => b.action.type === 'permission' && b.action.decision === 'allow')?.action;
    if (!allow || allow.type !== 'permission') throw new Error('no allow button');
    expect(await h.bridge.handleAction({ channel: 'fake', userId: 'ou_stranger', action: allow })).toMatchObject({
      toast: { type: 'error' },
    });
    expect(
      await h.bridge.handleAction({ channel: 'fake', userId: OWNER, action: { ...allow, nonce: 'forged' } }),
    ).toMatchObject({ toast: { type: 'warning' } });
    expect(await h.bridge.handleAction({ channel: 'fake', userId: OWNER, action: allow })).toMatchObject({
      toast: { type: 'success', text: '已允许' },
    });
    expect(await h.bridge.handleAction({ channel: 'fake', userId: OWNER, action: allow })).toMatchObject({
      toast: { type: 'warning' },
    });
    await h.bridge.whenIdle();
    expect(decision).toEqual({ behavior: 'allow', always: false });
  });

  it('answers a waiting prompt by text: /deny 1', async () => {
    h = await bridgeHarness();
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    let decision: unknown;
    h.engine.onSend = async (_req, opts) => {
      decision = await opts.permissions?.requestPermission(
        { id: 'tu_9', toolName: 'Bash', summary: 'rm -rf build', input: {}, suggestions: [] },
        new AbortController().signal,
      );
    };
    await h.bridge.accept(h.msg('clean up'));
    await vi_waitFor(() => h.bridge.prompts.list(OWNER).length === 1);
    expect(await h.bridge.accept(h.msg('/deny 2'))).toEqual({ status: 'accepted' });
    expect(h.bridge.prompts.list(OWNER)).toHaveLength(1);
    await h.bridge.accept(h.msg('/deny'));
    await h.bridge.whenIdle();
    expect(decision).toMatchObject({ behavior: 'deny' });
    expect(finals(h)).toContain('已拒绝');
  });

  it('denies an unanswered prompt after sdk.timeout_ms', async () => {
    h = await bridgeHarness({
      configure: (c) => {
        c.sdk.timeout_ms = 50;
      },
    });
    await h.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(h.home, 'Git/alpha') });
    let decision: unknown;
    h.engine.onSend = async (_req, opts) => {
      decision = await opts.permissions?.requestPermission(
        { id: 'tu_2', toolName: 'Bash', summary: 'rm x', input: {}, suggestions: [] },
        new AbortController().signal,
      );
    };
    await h.bridge.accept(h.msg('delete'));
    await h.bridge.whenIdle();
    expect(decision).toMatchObject({ behavior: 'deny' });
  });
});

async function vi_waitFor(pred: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
