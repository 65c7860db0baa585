import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../test/fakes/bridge-harness.js';
import type { EngineSendOptions } from '../engine/engine-types.js';
import { AppError } from '../core/app-error.js';
import { silentLogger } from '../core/logger.js';
import type { CardAction, CardReply } from './reply-model.js';
import { recoverSpool } from './spool/recover-spool.js';

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

const S1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const S2 = 'bbbbbbbb-0000-4000-8000-000000000002';

/** Prompts starting with `long` write a little, then run until their signal aborts. */
function longRuns(h: BridgeHarness): { aborted: string[] } {
  const aborted: string[] = [];
  h.engine.onSend = async (req, opts: EngineSendOptions) => {
    if (!req.prompt.startsWith('long')) return;
    opts.onEvent?.({ type: 'text', delta: `partial of ${req.prompt}` });
    await new Promise<void>((_resolve, reject) => {
      const stop = () => {
        aborted.push(req.prompt);
        reject(new AppError('CANCELLED', 'cancelled'));
      };
      if (opts.signal?.aborted) stop();
      else opts.signal?.addEventListener('abort', stop, { once: true });
    });
  };
  return { aborted };
}

async function until(predicate: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i += 1) {
    if (await predicate()) return;
    await sleep(5);
  }
  throw new Error('condition not reached');
}

async function mapTo(h: BridgeHarness, sessionUuid: string): Promise<void> {
  await h.mapping.setSession(OWNER, { sessionUuid, cwd: path.join(h.home, 'Git/alpha') });
}

const finalOf = (h: BridgeHarness, i: number) => h.channel.messages[i]?.finished as CardReply | undefined;
const textOf = (card: CardReply | undefined) => card?.sections.map((s) => ('text' in s ? s.text : '')).join('\n');
const stopAction = (h: BridgeHarness, i: number): CardAction => {
  const m = h.channel.messages[i];
  const b = m?.streamButtons?.[0] ?? (m?.reply.kind === 'card' ? m.reply.buttons?.[0] : undefined);
  if (!b) throw new Error(`message ${i} has no button`);
  return b.action;
};

describe('/stop', () => {
  it('stops the running turn: card Stopped with the text so far, record cancelled, the next message runs', async () => {
    h = await bridgeHarness();
    const { aborted } = longRuns(h);
    await mapTo(h, S1);
    const first = h.msg('long task');
    await h.bridge.accept(first);
    await h.bridge.accept(h.msg('then this'));
    await until(() => h.engine.requests.length === 1);
    await h.bridge.accept(h.msg('/stop'));
    await h.bridge.whenIdle();
    expect(aborted).toEqual(['long task']);
    const card = finalOf(h, 0);
    expect(card).toMatchObject({ status: 'stopped', title: '⏹ 已停止' });
    expect(textOf(card)).toContain('partial of long task');
    expect(await h.spool.locate(first.id)).toBe('cancelled');
    expect(h.engine.requests.map((r) => r.prompt)).toEqual(['long task', 'then this']);
    expect(h.channel.transcript()).toContain('⏹ 已停止当前会话正在运行的消息。');
    expect(h.channel.transcript()).toContain('echo: then this');
  });

  it('says so when nothing runs, and names the turns running elsewhere', async () => {
    h = await bridgeHarness();
    longRuns(h);
    await h.bridge.accept(h.msg('/stop'));
    await h.bridge.whenIdle();
    expect(h.channel.transcript()).toEqual(['当前会话没有正在运行的消息。']);
    await mapTo(h, S1);
    await h.bridge.accept(h.msg('long one'));
    await until(() => h.engine.requests.length === 1);
    await mapTo(h, S2);
    await h.bridge.accept(h.msg('/stop'));
    await until(() => h.channel.transcript().some((t) => t.includes('其他会话有 1 条在运行')));
    await h.bridge.accept(h.msg('/stop all'));
    await h.bridge.whenIdle();
    expect(h.channel.transcript()).toContain('⏹ 已停止 1 条正在运行的消息。');
  });

  it('/stop all stops every running turn of the user; /stop only the current session', async () => {
    h = await bridgeHarness();
    const { aborted } = longRuns(h);
    await mapTo(h, S1);
    const a = h.msg('long a');
    await h.bridge.accept(a);
    await until(() => h.engine.requests.length === 1);
    await mapTo(h, S2);
    const b = h.msg('long b');
    await h.bridge.accept(b);
    await until(() => h.engine.requests.length === 2);
    await h.bridge.accept(h.msg('/stop'));
    await until(() => aborted.length === 1);
    expect(aborted).toEqual(['long b']);
    await h.bridge.accept(h.msg('/stop all'));
    await h.bridge.whenIdle();
    expect(aborted).toEqual(['long b', 'long a']);
    expect(await h.spool.locate(a.id)).toBe('cancelled');
    expect(await h.spool.locate(b.id)).toBe('cancelled');
  });

  it('a restart never runs a stopped turn again (and leaves cancelled/ alone)', async () => {
    h = await bridgeHarness();
    longRuns(h);
    await mapTo(h, S1);
    const m = h.msg('long crash');
    await h.bridge.accept(m);
    await until(() => h.engine.requests.length === 1);
    // The stop is saved, then the bridge "crashes" before the run ended: the record is in processing/.
    const record = await h.spool.read('processing', m.id);
    if (!record) throw new Error('not in processing');
    record.stop = { at: new Date().toISOString(), queued: false };
    await h.spool.write('processing', record);
    const done = h.msg('finished earlier');
    await h.spool.init();
    await h.spool.enqueue({ schema: 1, message: done, acceptedAt: new Date().toISOString(), seq: 99, attempts: 0 });
    await h.spool.move(done.id, 'pending', 'cancelled');
    await h.bridge.stop(50); // aborts as a shutdown would: the record stays in processing/
    expect(await h.spool.locate(m.id)).toBe('processing');
    const recovered = await recoverSpool(h.spool, h.bridge.deliveries, silentLogger);
    expect(recovered.requeued).toBe(1);
    expect(await h.spool.locate(done.id)).toBe('cancelled');
    const before = h.engine.requests.length;
    await h.restart();
    await h.bridge.whenIdle();
    expect(h.engine.requests.length).toBe(before);
    expect(await h.spool.locate(m.id)).toBe('cancelled');
    expect(finalOf(h, 0)).toMatchObject({ status: 'stopped' });
  });
});

describe('the Stop button', () => {
  it('only the owner, only with the nonce; a repeated or late click is harmless', async () => {
    h = await bridgeHarness();
    const { aborted } = longRuns(h);
    await mapTo(h, S1);
    const m = h.msg('long click');
    await h.bridge.accept(m);
    await until(() => h.engine.requests.length === 1 && (h.channel.messages[0]?.streamButtons?.length ?? 0) > 0);
    const action = stopAction(h, 0);
    expect(action).toMatchObject({ type: 'stop', messageId: m.id });
    const click = (userId: string, a: CardAction) => h.bridge.handleAction({ channel: 'fake', userId, action: a });
    expect((await click('ou_stranger', action)).toast?.type).toBe('error');
    expect((await click(OWNER, { ...action, nonce: 'forged' } as CardAction)).toast?.text).toBe(
      '这条消息已经处理完了。',
    );
    await sleep(20);
    expect(aborted).toEqual([]);
    expect((await click(OWNER, action)).toast).toEqual({ type: 'success', text: '正在停止…' });
    const again = await click(OWNER, action);
    expect(['已经在停止了。', '这条消息已经处理完了。']).toContain(again.toast?.text);
    await h.bridge.whenIdle();
    expect(aborted).toEqual(['long click']);
    expect(await h.spool.locate(m.id)).toBe('cancelled');
    expect((await click(OWNER, action)).toast?.text).toBe('这条消息已经处理完了。');
  });

  it('on a finished card it says the message has already finished', async () => {
    h = await bridgeHarness();
    await mapTo(h, S1);
    const m = h.msg('quick');
    await h.bridge.accept(m);
    await h.bridge.whenIdle();
    const action = stopAction(h, 0);
    const r = await h.bridge.handleAction({ channel: 'fake', userId: OWNER, action });
    expect(r.toast?.text).toBe('这条消息已经处理完了。');
    expect(await h.spool.locate(m.id)).toBe('done');
  });
});
