// Notifications on Feishu: a reply to the card (`POST /open-apis/im/v1/messages/:card/reply`), made
// with the real Lark SDK against the fake Feishu server; and one real Claude Code turn (bundled
// binary, fake Anthropic API, the daemon as `cc-linker start` assembles it) that runs longer than
// a shortened `notify.after_s` and so ends with exactly one such reply.
import { afterEach, describe, expect, it } from 'vitest';
import type { SentMessage } from '../fakes/fake-feishu/fake-feishu-server.js';
import { FeishuHarness } from './feishu-harness.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  OWNER,
  replyTemplate,
  showLogOnFailure,
  startSystem,
  streamedReply,
  type System,
} from './system-harness.js';

const target = { channel: 'feishu', userId: OWNER, chatId: '' };

describe('Feishu notify: a reply to the card through the real SDK', () => {
  const h = new FeishuHarness();
  afterEach(() => h.cleanup());

  it('replies to the card message once, as a text message, however often it is retried', async () => {
    const fake = await h.fake();
    const { channel } = await h.outboundOnly(fake);
    const card = await channel.outbox.send(
      target,
      { kind: 'card', title: 'Claude', status: 'complete', sections: [{ type: 'markdown', text: 'done' }] },
      '5a0e3c1e-0000-5000-8000-0000000000a1',
    );
    const key = '5a0e3c1e-0000-5000-8000-0000000000a2';
    await channel.notify(target, card.messageId, '✅ Done: refactor the pipeline (3 min 12 s)', key);
    await channel.notify(target, card.messageId, '✅ Done: refactor the pipeline (3 min 12 s)', key);

    const replyPath = `/open-apis/im/v1/messages/${card.messageId}/reply`;
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === replyPath).map((r) => r.status)).toEqual([
      200, 200,
    ]);
    const replies = fake.sent.filter((m) => m.parent_id === card.messageId);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      kind: 'reply',
      msg_type: 'text',
      content: { text: '✅ Done: refactor the pipeline (3 min 12 s)' },
      uuid: key,
      to: OWNER,
    });
  });
});

describe.skipIf(!CLAUDE_BIN)('Feishu notify: a real Claude Code turn longer than notify.after_s', () => {
  let s: System | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  }, CASE_TIMEOUT_MS);

  it(
    'ends with exactly one reply-notification under its card',
    async () => {
      s = await startSystem('sdk', {
        tweak: (c) => {
          c.notify.after_s = 1;
        },
      });
      showLogOnFailure(() => s);
      const sys = s;
      const cwd = sys.sys.project('notify');
      // 20 ticks, one per 150 ms: the model alone answers for about 3 s, past the 1 s threshold.
      const { messageId } = await sys.send(`/new ${cwd} -- slow: 150`);
      await sys.finished(messageId);
      await sys.runtime.bridge.whenIdle();
      expect(replyTemplate(sys.fake, messageId)).toBe('green');
      const card = streamedReply(sys.fake, messageId) as SentMessage;
      const notes = sys.fake.sent.filter((m) => m.parent_id === card.message_id);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({ kind: 'reply', msg_type: 'text', to: OWNER });
      expect((notes[0]?.content as { text: string }).text).toMatch(/^✅ Done: slow: 150 \(\d+ s\)$/);
      expect(
        sys.fake.requests.filter(
          (r) => r.method === 'POST' && r.path === `/open-apis/im/v1/messages/${card.message_id}/reply`,
        ),
      ).toHaveLength(1);
    },
    CASE_TIMEOUT_MS * 2,
  );
});
