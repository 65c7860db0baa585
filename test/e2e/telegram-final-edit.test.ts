import { afterEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { TelegramHarness, OWNER_ID } from './telegram-harness.js';

// The final edit turns the streamed message into the answer card. One failed call (a 5xx, a reset)
// must not leave the message saying "⏳ Thinking…" with a live Stop button while the answer goes
// out as a separate text (found by `npm run chaos -- --channel telegram`).
let h: TelegramHarness;
afterEach(async () => {
  await h.cleanup();
});

const target = { channel: 'telegram', userId: String(OWNER_ID), chatId: String(OWNER_ID) };
const final: CardReply = {
  kind: 'card',
  title: 'Done',
  status: 'complete',
  sections: [{ type: 'answer', text: 'the whole answer' }],
};

describe('the final edit of a streamed Telegram reply', () => {
  it('is retried after a passing 5xx: the message becomes the answer card, nothing goes out as text', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    const stream = await channel.outbox.openStream(target, 'f1:stream', {
      buttons: [{ label: 'Stop', action: { type: 'stop', messageId: 'm1', nonce: 'n1' } }],
    });
    expect(fake.chat(OWNER_ID)[0]?.reply_markup).toBeDefined();
    fake.failNext('editMessageText', { status: 500, times: 1 });
    const { overflow } = await stream.finish(final, 'the whole answer');
    expect(overflow).toBe('');
    const msgs = fake.chat(OWNER_ID);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]?.visible).toContain('Done');
    expect(msgs[0]?.visible).toContain('the whole answer');
    expect(msgs[0]?.reply_markup).toBeUndefined();
  });

  it('falls back to text when Telegram keeps failing (the answer is never lost)', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    const stream = await channel.outbox.openStream(target, 'f2:stream');
    fake.failNext('editMessageText', { status: 502, times: 10 });
    const { overflow } = await stream.finish(final, 'the whole answer');
    expect(overflow).toBe('the whole answer');
    expect(fake.callsOf('editMessageText').length).toBeGreaterThan(1);
  });
});
