import { afterEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { DingTalkHarness, OWNER_STAFF_ID, until } from './dingtalk-harness.js';

let h: DingTalkHarness;
afterEach(async () => {
  await h.cleanup();
});

const target = { channel: 'dingtalk', userId: OWNER_STAFF_ID, chatId: `cid-${OWNER_STAFF_ID}` };
const card = { templateId: 'tpl-123.schema', key: 'content' };
const state = (text: string, thinking = '') => ({
  phase: 'streaming' as const,
  text,
  thinking,
  toolCount: 1,
  elapsedMs: 2_000,
});

describe('DingTalk channel with an AI card template (real fetch against the fake card API)', () => {
  it('streams one reply into one card, throttled, then sets the final card and finished status', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel, options } = await h.channel(fake, {
      card,
      stream: { ...(await h.options(fake)).stream, throttle_ms: 50 },
    });
    const stream = await channel.outbox.openStream(target, 'turn-1');
    const [id] = [...fake.cards.keys()];
    const created = fake.cards.get(id ?? '');
    expect(created).toMatchObject({
      templateId: 'tpl-123.schema',
      userId: OWNER_STAFF_ID,
      params: { flowStatus: '1' },
    });
    for (let i = 1; i <= 30; i += 1) stream.update(state(`part ${i}`, 'pondering'));
    await until(() => (fake.cards.get(id ?? '')?.params.content ?? '').includes('part 30'), 'the last state shown');
    const shown = fake.cards.get(id ?? '')?.params.content ?? '';
    expect(shown).toContain('> pondering');
    expect(shown).toMatch(/\*.*2s.*\*$/);
    expect(fake.cards.get(id ?? '')?.streams).toBeLessThan(30);
    const final: CardReply = {
      kind: 'card',
      title: 'Done',
      status: 'complete',
      sections: [{ type: 'answer', text: 'the answer' }],
      footer: 'cost',
    };
    expect(await stream.finish(final, 'the answer')).toEqual({ overflow: '' });
    expect(fake.cards.get(id ?? '')?.params).toMatchObject({
      flowStatus: '3',
      content: '### Done\n\nthe answer\n\n*cost*',
    });
    expect(fake.sent).toHaveLength(0);
    expect(options.card).toEqual(card);
  });

  it('a run that took over its "Queued" message gets its card once, also when re-opened after a restart', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const dir = await h.dir();
    const first = await h.channel(fake, { card, runtimeDir: dir });
    const queued = await first.channel.outbox.send(target, { kind: 'text', text: '⏳ Queued (#1)' }, 'turn-3');
    const s1 = await first.channel.outbox.openStream(target, 'turn-3', { existingMessageId: queued.messageId });
    expect(fake.cards.size).toBe(1);
    expect(s1.messageId).not.toBe(queued.messageId);
    await first.channel.stop();
    const second = await h.channel(fake, { card, runtimeDir: dir });
    // Re-opened with the card's id (saved by the bridge), or with the Queued one (saved before a crash).
    for (const existingMessageId of [s1.messageId, queued.messageId]) {
      const again = await second.channel.outbox.openStream(target, 'turn-3', { existingMessageId });
      expect(again.messageId).toBe(s1.messageId);
    }
    expect((await second.channel.outbox.openStream(target, 'turn-3')).messageId).toBe(s1.messageId);
    expect(fake.cards.size).toBe(1);
    const s2 = await second.channel.outbox.openStream(target, 'turn-3', { existingMessageId: s1.messageId });
    await s2.finish(
      { kind: 'card', title: 'Done', status: 'complete', sections: [{ type: 'answer', text: 'y' }] },
      'y',
    );
    expect([...fake.cards.values()][0]?.params).toMatchObject({ flowStatus: '3', content: '### Done\n\ny' });
    expect(fake.messagesTo(OWNER_STAFF_ID).map((m) => m.text)).toEqual(['⏳ Queued (#1)']);
  });

  it('re-opens the same card after a restart (no second card) and falls back to a message when the card is gone', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const dir = await h.dir();
    const first = await h.channel(fake, { card, runtimeDir: dir });
    const s1 = await first.channel.outbox.openStream(target, 'turn-2');
    await first.channel.stop();
    const second = await h.channel(fake, { card, runtimeDir: dir });
    const s2 = await second.channel.outbox.openStream(target, 'turn-2');
    expect(s2.messageId).toBe(s1.messageId);
    expect(fake.cards.size).toBe(1);
    fake.cards.clear();
    const final: CardReply = {
      kind: 'card',
      title: 'Done',
      status: 'complete',
      sections: [{ type: 'answer', text: 'x' }],
    };
    await s2.finish(final, 'x');
    expect(fake.messagesTo(OWNER_STAFF_ID).map((m) => m.text)).toEqual(['### Done\n\nx']);
  });
});
