import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../test/fakes/bridge-harness.js';
import type { CardAction, CardReply } from './reply-model.js';

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

const S1 = 'aaaaaaaa-0000-4000-8000-000000000001';

/** The first prompt (`gate`) runs until `release()`; everything else answers at once. */
function gated(h: BridgeHarness): () => void {
  let release = () => {};
  const open = new Promise<void>((r) => (release = r));
  h.engine.onSend = async (req) => {
    if (req.prompt === 'gate') await open;
  };
  return () => release();
}

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 2000; i += 1) {
    if (predicate()) return;
    await sleep(5);
  }
  throw new Error('condition not reached');
}

async function busySession(h: BridgeHarness): Promise<() => void> {
  const release = gated(h);
  await h.mapping.setSession(OWNER, { sessionUuid: S1, cwd: path.join(h.home, 'Git/alpha') });
  await h.bridge.accept(h.msg('gate'));
  await until(() => h.engine.requests.length === 1);
  return release;
}

const card = (h: BridgeHarness, i: number) => h.channel.messages[i]?.reply as CardReply;

describe('messages waiting behind a busy session', () => {
  it('a burst gets Queued (#1), (#2), (#3) at once; each card becomes its answer, in order; nothing dropped', async () => {
    h = await bridgeHarness();
    const release = await busySession(h);
    for (const text of ['one', 'two', 'three']) await h.bridge.accept(h.msg(text));
    await until(() => h.channel.messages.length === 4);
    expect([1, 2, 3].map((i) => card(h, i).title)).toEqual([
      '⏳ 排队中（第 1 条）',
      '⏳ 排队中（第 2 条）',
      '⏳ 排队中（第 3 条）',
    ]);
    expect(card(h, 1).buttons?.[0]?.action.type).toBe('stop');
    release();
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((r) => r.prompt)).toEqual(['gate', 'one', 'two', 'three']);
    // The same four messages: each queued card was updated into its answer, no second card sent.
    expect(h.channel.messages).toHaveLength(4);
    expect(h.channel.transcript()).toEqual(['echo: gate', 'echo: one', 'echo: two', 'echo: three']);
    expect(await h.spool.count('done')).toBe(4);
  });

  it('/queue lists what waits, per session, with a preview', async () => {
    h = await bridgeHarness();
    const release = await busySession(h);
    await h.bridge.accept(h.msg('first waiting message'));
    await h.bridge.accept(h.msg(`second ${'x'.repeat(80)}`));
    await until(() => h.channel.messages.length === 3);
    await h.bridge.accept(h.msg('/queue'));
    await until(() => h.channel.messages.length === 4);
    const text = (card(h, 3).sections[0] as { text: string }).text;
    expect(text).toContain('aaaaaaaa (alpha)');
    expect(text).toContain('正在运行：gate');
    expect(text).toContain('1. first waiting message');
    expect(text).toMatch(/2\. second x+…/);
    release();
    await h.bridge.whenIdle();
    await h.bridge.accept(h.msg('/queue'));
    await h.bridge.whenIdle();
    expect(h.channel.transcript().at(-1)).toBe('没有排队等待的消息。');
  });

  it('Cancel on a queued card: cancelled, never run, card Cancelled; only the owner; a second click is harmless', async () => {
    h = await bridgeHarness();
    const release = await busySession(h);
    const waiting = h.msg('cancel me');
    await h.bridge.accept(waiting);
    await h.bridge.accept(h.msg('keep me'));
    await until(() => h.channel.messages.length === 3);
    const action = card(h, 1).buttons?.[0]?.action as CardAction;
    const click = (userId: string) => h.bridge.handleAction({ channel: 'fake', userId, action });
    expect((await click('ou_stranger')).toast?.type).toBe('error');
    const r = await click(OWNER);
    expect(r.toast).toEqual({ type: 'success', text: '已取消' });
    expect(r.card).toMatchObject({ status: 'stopped', title: '🚫 已取消' });
    expect(h.channel.messages[1]?.updates.at(-1)).toMatchObject({ title: '🚫 已取消' });
    expect(await h.spool.locate(waiting.id)).toBe('cancelled');
    expect((await click(OWNER)).toast?.text).toBe('这条消息已经处理完了。');
    release();
    await h.bridge.whenIdle();
    expect(h.engine.requests.map((x) => x.prompt)).toEqual(['gate', 'keep me']);
    expect(h.channel.messages[1]?.finished).toBeUndefined();
  });
});
