import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../../test/fakes/bridge-harness.js';
import { FakeChannel } from '../../../test/fakes/fake-channel.js';
import { AppError } from '../../core/app-error.js';
import { silentLogger } from '../../core/logger.js';
import type { CardReply } from '../reply-model.js';
import { Deliveries } from '../spool/deliveries.js';
import type { RoutedRecord } from '../spool/spool-record.js';
import { Spool } from '../spool/spool.js';
import { TurnNotifier, type NotifyClock } from './turn-notifier.js';

/**
 * A clock the test moves by hand: `now()` runs `shift + offset` ahead of the time the run's start
 * was stamped with, so a turn looks at least that long; timers fire only on `advance`.
 */
class ManualClock implements NotifyClock {
  offset = 0;
  private shift = 0;
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private next = 0;
  now(): number {
    return Date.now() + this.shift + this.offset;
  }
  /** Makes every turn look `ms` longer than it was. */
  stretch(ms: number): void {
    this.shift = ms;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    this.next += 1;
    this.timers.push({ at: this.offset + ms, fn, id: this.next });
    return this.next;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  get pending(): number {
    return this.timers.length;
  }
  advance(ms: number): void {
    this.offset += ms;
    const due = this.timers.filter((t) => t.at <= this.offset);
    this.timers = this.timers.filter((t) => t.at > this.offset);
    for (const t of due) t.fn();
  }
}

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let h: BridgeHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

async function harness(clock: ManualClock, configure?: (c: BridgeHarness['config']) => void): Promise<BridgeHarness> {
  const made = await bridgeHarness({ configure, bridge: { notifyClock: clock } });
  await made.mapping.setSession(OWNER, { sessionUuid: 's1', cwd: path.join(made.home, 'Git/alpha') });
  return made;
}

/** The turn's card: the streamed reply the channel opened for the message. */
function turnCard(b: BridgeHarness): string {
  const m = b.channel.messages.find((x) => x.finished);
  if (!m) throw new Error('no finished card');
  return m.messageId;
}

describe('TurnNotifier: the end of a turn', () => {
  it('a short turn sends no notification', async () => {
    const clock = new ManualClock();
    h = await harness(clock);
    await h.bridge.accept(h.msg('quick question'));
    await h.bridge.whenIdle();
    expect(h.channel.messages.some((m) => m.finished)).toBe(true);
    expect(h.channel.notifications).toEqual([]);
  });

  it('a long answered turn sends exactly one reply to its card, in the user language', async () => {
    const clock = new ManualClock();
    clock.stretch(192_000);
    h = await harness(clock);
    const message = h.msg(
      '重构 src/bridge 的消息管道，\n并补上所有缺失的测试用例，然后把整个测试套件跑一遍，最后把结果整理成一份报告',
    );
    await h.bridge.accept(message);
    await h.bridge.whenIdle();
    expect(h.channel.notifications).toHaveLength(1);
    const n = h.channel.notifications[0];
    expect(n?.cardMessageId).toBe(turnCard(h));
    expect(n?.text).toMatch(
      /^✅ 完成：重构 src\/bridge 的消息管道， 并补上所有缺失的测试用例，然后把整个测…（用时 3 分 1\d 秒）$/,
    );
    expect(n?.target).toMatchObject({ channel: 'fake', userId: OWNER });
    expect((await h.spool.read('done', message.id))?.notified?.turn).toBeDefined();
  });

  it('a long failed turn and a long stopped turn each send one', async () => {
    const clock = new ManualClock();
    clock.stretch(3_700_000);
    h = await harness(clock);
    h.engine.onSend = () => {
      throw new AppError('ENGINE_FAILED', 'Claude Code exited with code 1');
    };
    await h.bridge.accept(h.msg('build it'));
    await h.bridge.whenIdle();
    h.engine.onSend = () => {
      throw new AppError('CANCELLED', 'stopped');
    };
    await h.bridge.accept(h.msg('build it again'));
    await h.bridge.whenIdle();
    expect(h.channel.notifications.map((n) => n.text)).toEqual([
      '❌ 出错：build it（用时 1 小时 1 分）',
      '⏹ 已停止：build it again（用时 1 小时 1 分）',
    ]);
  });

  it('notify.enabled = false sends nothing, however long the turn', async () => {
    const clock = new ManualClock();
    clock.stretch(600_000);
    h = await harness(clock, (c) => {
      c.notify.enabled = false;
    });
    await h.bridge.accept(h.msg('long task'));
    await h.bridge.whenIdle();
    expect(h.channel.messages.some((m) => m.finished)).toBe(true);
    expect(h.channel.notifications).toEqual([]);
  });

  it('a command reply never notifies', async () => {
    const clock = new ManualClock();
    clock.stretch(600_000);
    h = await harness(clock);
    await h.bridge.accept(h.msg('/status'));
    await h.bridge.whenIdle();
    expect(h.channel.notifications).toEqual([]);
  });
});

describe('TurnNotifier: once per turn across a restart', () => {
  let dir: string;
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('a record read back from the spool after its notification was sent is not notified again', async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-notify-'));
    const spool = new Spool(dir);
    await spool.init();
    const deliveries = new Deliveries(spool);
    const channel = new FakeChannel('fake');
    const deps = { spool, deliveries, channel: () => channel, logger: silentLogger };
    const card: CardReply = { kind: 'card', title: 'x', status: 'complete', sections: [] };
    const record: RoutedRecord = {
      schema: 1,
      message: {
        id: 'fake:om_1',
        channel: 'fake',
        platformMessageId: 'om_1',
        userId: OWNER,
        chatId: 'oc_1',
        chatType: 'p2p',
        text: 'long job',
        images: [],
        receivedAt: '2026-12-01T10:00:00.000Z',
      },
      target: { kind: 'session', sessionId: 's1', cwd: dir },
      acceptedAt: '2026-12-01T10:00:00.000Z',
      seq: 1,
      attempts: 0,
      run: { startedAt: '2026-12-01T10:00:00.000Z', sessionId: 's1' },
      outcome: { kind: 'error', code: 'ENGINE_FAILED', reply: card },
    };
    await spool.enqueue(record);
    await spool.move(record.message.id, 'pending', 'processing');
    const delivery = await deliveries.load(record.message.id);
    Deliveries.chunk(delivery, 0, true).platformMessageId = 'm_card';
    await deliveries.save(delivery);
    const clock = new ManualClock();
    clock.offset = Date.parse('2026-12-01T10:05:00.000Z') - clock.now();
    const options = { enabled: true, afterMs: 60_000, promptAfterMs: 30_000, lang: 'en' as const, clock };

    await new TurnNotifier(options).turnEnded(record, deps);
    expect(channel.notifications.map((n) => [n.cardMessageId, n.text])).toEqual([
      ['m_card', '❌ Failed: long job (5 min 0 s)'],
    ]);

    // The restart: a new notifier, the record as the spool has it.
    const reread = (await spool.read('processing', record.message.id)) as RoutedRecord;
    await new TurnNotifier(options).turnEnded(reread, deps);
    expect(channel.notifications).toHaveLength(1);
  });
});

describe('TurnNotifier: a waiting prompt', () => {
  const askBash = (b: BridgeHarness, id: string) => {
    b.engine.onSend = async (_req, opts) => {
      await opts.permissions?.requestPermission(
        { id, toolName: 'Bash', summary: 'npm test', input: { command: 'npm test' }, suggestions: [] },
        new AbortController().signal,
      );
    };
  };
  const promptCard = (b: BridgeHarness) => b.channel.messages.find((m) => m.reply.kind === 'card' && m.reply.buttons);
  const allow = async (b: BridgeHarness) => {
    const card = promptCard(b)?.reply as CardReply;
    const action = card.buttons?.[0]?.action;
    if (!action) throw new Error('no button');
    await b.bridge.handleAction({ channel: 'fake', userId: OWNER, action });
  };

  it('a prompt unanswered for permission_after_s sends one reply to the prompt card (the long turn one more)', async () => {
    const clock = new ManualClock();
    h = await harness(clock);
    askBash(h, 'tu_1');
    await h.bridge.accept(h.msg('run the tests'));
    await waitFor(() => promptCard(h as BridgeHarness)?.messageId !== undefined && clock.pending === 1);
    clock.advance(29_000);
    expect(h.channel.notifications).toEqual([]);
    clock.advance(1_000);
    await waitFor(() => (h as BridgeHarness).channel.notifications.length > 0);
    clock.advance(60_000);
    await allow(h);
    await h.bridge.whenIdle();
    expect(h.channel.notifications.map((n) => [n.cardMessageId, n.text])).toEqual([
      [promptCard(h)?.messageId, '⚠️ 等待你的确认：Bash: npm test'],
      [turnCard(h), expect.stringMatching(/^✅ 完成：run the tests（用时 1 分 3\d 秒）$/)],
    ]);
  });

  it('a prompt answered before permission_after_s sends nothing, and its timer is gone', async () => {
    const clock = new ManualClock();
    h = await harness(clock);
    askBash(h, 'tu_2');
    await h.bridge.accept(h.msg('run the tests'));
    await waitFor(() => promptCard(h as BridgeHarness)?.messageId !== undefined && clock.pending === 1);
    clock.advance(10_000);
    await allow(h);
    await h.bridge.whenIdle();
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(h.channel.notifications).toEqual([]);
  });

  it('an AskUserQuestion left waiting sends one reply to the question card', async () => {
    const clock = new ManualClock();
    h = await harness(clock);
    h.engine.onSend = async (_req, opts) => {
      await opts.permissions?.askQuestion(
        { id: 'tu_q', questions: [{ question: 'Which color?', options: [{ label: 'red' }, { label: 'blue' }] }] },
        new AbortController().signal,
      );
    };
    await h.bridge.accept(h.msg('paint it'));
    await waitFor(() => promptCard(h as BridgeHarness)?.messageId !== undefined && clock.pending === 1);
    clock.advance(30_000);
    clock.advance(30_000);
    await waitFor(() => (h as BridgeHarness).channel.notifications.length > 0);
    const card = promptCard(h)?.messageId;
    await allow(h);
    await h.bridge.whenIdle();
    expect(h.channel.notifications.map((n) => [n.cardMessageId, n.text])).toEqual([
      [card, '❓ 等待你的回答：Which color?'],
      [turnCard(h), expect.stringMatching(/^✅ 完成：paint it（用时 1 分 \d+ 秒）$/)],
    ]);
  });

  it('with notify.enabled = false a waiting prompt starts no timer', async () => {
    const clock = new ManualClock();
    h = await harness(clock, (c) => {
      c.notify.enabled = false;
    });
    askBash(h, 'tu_3');
    await h.bridge.accept(h.msg('run the tests'));
    await waitFor(() => promptCard(h as BridgeHarness)?.messageId !== undefined);
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    await allow(h);
    await h.bridge.whenIdle();
    expect(h.channel.notifications).toEqual([]);
  });
});
