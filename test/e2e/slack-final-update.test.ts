import { afterEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { OWNER, SlackHarness } from './slack-harness.js';

// The final update turns the streamed message into the answer card. One failed call (a 5xx, a
// reset) must not leave it saying "⏳ Thinking…" with a live Stop button while the answer goes out
// as a separate message. The Web API client's own retries are off here (`retries: 0`), so what is
// tested is the stream's retry of the final update.
let h: SlackHarness;
afterEach(async () => {
  await h.cleanup();
});

const final: CardReply = {
  kind: 'card',
  title: 'Done',
  status: 'complete',
  sections: [{ type: 'answer', text: 'the whole answer' }],
};

describe('the final update of a streamed Slack reply', () => {
  it('is retried after a passing 5xx or reset: the message becomes the answer card, nothing goes out as text', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake, { retries: 0 });
    const dm = fake.dm(OWNER);
    for (const fault of [
      { status: 500, times: 1 },
      { reset: true, times: 1 },
    ]) {
      const stream = await channel.outbox.openStream(
        { channel: 'slack', userId: OWNER, chatId: dm },
        `k${fault.times}${'status' in fault}`,
        {
          buttons: [{ label: 'Stop', action: { type: 'stop', messageId: 'm1', nonce: 'n1' } }],
        },
      );
      const msg = fake.inChannel(dm).at(-1);
      expect(msg?.buttons.map((b) => b.text)).toEqual(['Stop']);
      fake.failNext('chat.update', fault);
      const { overflow } = await stream.finish(final, 'the whole answer');
      expect(overflow).toBe('');
      expect(msg?.visible).toContain('the whole answer');
      expect(msg?.buttons).toEqual([]);
    }
    expect(fake.inChannel(dm)).toHaveLength(2);
  });

  it('falls back to text when Slack keeps failing (the answer is never lost)', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake, { retries: 0 });
    const dm = fake.dm(OWNER);
    const stream = await channel.outbox.openStream({ channel: 'slack', userId: OWNER, chatId: dm }, 'k-fail');
    fake.failNext('chat.update', { status: 502, times: 10 });
    const { overflow } = await stream.finish(final, 'the whole answer');
    expect(overflow).toBe('the whole answer');
    expect(fake.callsOf('chat.update').length).toBeGreaterThan(1);
  });
});
