import { describe, expect, it } from 'vitest';
import type { Life } from '../../scripts/chaos/bridge-process.js';
import type { ChaosMessage } from '../../scripts/chaos/chat-user.js';
import { judgeSendWindow, SEND_WINDOW_MS } from '../../scripts/chaos/send-window.js';
import { OPENING_VISIBLE, telegramReplies, telegramState } from '../../scripts/chaos/telegram-replies.js';
import { deliveryUuid } from '../../src/bridge/spool/message-key.js';
import type { FakeMessage } from '../fakes/fake-telegram/fake-telegram-types.js';

// The chaos run's Telegram verdict: a chunk shown twice is allowed only inside the documented
// window (a SIGKILL between Telegram's answer to the send and the bridge's record of it); any other
// second copy is a duplicate. These cases pin that judgement on hand-made conversations.
const CHAT = 7001;
const user = (n: number, messageId: number): ChaosMessage => ({
  n,
  kind: 'text',
  text: `question tok${n}`,
  token: `tok${n}`,
  eventId: String(n),
  messageId: String(messageId),
  bridgeId: `telegram:${CHAT}:${messageId}`,
  firstPushAt: 0,
  pushes: 1,
  acks: [200],
  duplicatePushes: 0,
});
const bot = (
  id: number,
  replyTo: number,
  sentAt: number,
  first: string,
  over: Partial<FakeMessage> = {},
): FakeMessage => ({
  message_id: id,
  chat_id: CHAT,
  text: first,
  visible: first,
  reply_to: replyTo,
  edits: 0,
  firstVisible: first,
  sentAt,
  ...over,
});
const life = (index: number, startedAt: number, endedAt: number, end: Life['end']): Life => ({
  index,
  pid: 100 + index,
  startedAt,
  endedAt,
  end,
  clockOffsetMs: 0,
});

describe('the Telegram send window (chaos verdict)', () => {
  const m = user(1, 10);
  const ledger = (...ids: number[]) => new Map(ids.map((id, i) => [deliveryUuid(m.bridgeId, i), `${CHAT}:${id}`]));

  it('a chunk re-sent after a SIGKILL right after Telegram answered is inside the window, with its gap', () => {
    const bots = [bot(11, 10, 1_000, 'chunk two'), bot(12, 10, 3_000, 'chunk two')];
    const lives = [life(1, 0, 1_020, 'killed'), life(2, 1_500, 9_000, 'stopped')];
    const { verdict, accounted } = judgeSendWindow(bots, [m], ledger(12), lives);
    expect(verdict.insideWindow).toHaveLength(1);
    expect(verdict.insideWindow[0]?.detail).toContain('life 1 (killed 20 ms after Telegram answered)');
    expect(verdict.gapsMs).toEqual([20]);
    expect(verdict.killsThatHit).toBe(1);
    expect(verdict.outsideWindow).toEqual([]);
    expect(verdict.unrecorded).toBe(1);
    expect([...accounted]).toEqual([11]);
    // The copy is left out of the reply view: the main verdict sees one reply.
    const view = telegramReplies(bots, [m], ledger(12), undefined, accounted);
    expect(view.pieces.get('10')?.map((p) => p.messageId)).toEqual(['12']);
  });

  it('a second copy whose life went on, or ended without a SIGKILL, is outside the window', () => {
    const bots = [bot(11, 10, 1_000, 'chunk two'), bot(12, 10, 3_000, 'chunk two'), bot(13, 10, 20_000, 'chunk two')];
    const lives = [
      life(1, 0, 1_000 + SEND_WINDOW_MS + 500, 'killed'),
      life(2, 2_000, 15_000, 'exited'),
      life(3, 16_000, 30_000, 'stopped'),
    ];
    const { verdict } = judgeSendWindow(bots, [m], ledger(13), lives);
    expect(verdict.insideWindow).toEqual([]);
    expect(verdict.outsideWindow.map((f) => f.detail)).toEqual([
      expect.stringContaining('life 1 (killed 1500 ms'),
      expect.stringContaining('life 2 (exited'),
    ]);
  });

  it('copies the ledger recorded, and different texts, are not this window (the main verdict judges them)', () => {
    const bots = [bot(11, 10, 1_000, 'same'), bot(12, 10, 2_000, 'same'), bot(13, 10, 3_000, 'other')];
    const { verdict, accounted } = judgeSendWindow(bots, [m], ledger(11, 12, 13), [life(1, 0, 9_000, 'killed')]);
    expect(verdict.insideWindow).toEqual([]);
    expect(verdict.outsideWindow).toEqual([]);
    expect(verdict.unrecorded).toBe(0);
    expect(accounted.size).toBe(0);
  });

  it('a streamed reply opened twice counts once; its stale copy is the one never recorded', () => {
    const bots = [bot(11, 10, 1_000, OPENING_VISIBLE), bot(12, 10, 2_000, OPENING_VISIBLE)];
    const { verdict, accounted } = judgeSendWindow(bots, [m], ledger(12), [
      life(1, 0, 1_003, 'killed'),
      life(2, 1_100, 5_000, 'stopped'),
    ]);
    expect(verdict.insideWindow).toHaveLength(1);
    expect([...accounted]).toEqual([11]);
  });

  it('reads a message as the user does: streaming, queued, answer card, notice', () => {
    expect(telegramState(bot(1, 10, 0, OPENING_VISIBLE))).toBe('streaming');
    expect(
      telegramState(bot(2, 10, 0, '⏳ Queued (#1)', { text: '<b>⏳ Queued (#1)</b>', visible: '⏳ Queued (#1)' })),
    ).toBe('streaming');
    // The streamed reply's final edit gives it the answer card's title.
    const done = bot(3, 10, 0, OPENING_VISIBLE, { text: '<b>✅ Claude</b>\n\nanswer', visible: '✅ Claude\n\nanswer' });
    expect(telegramState(done)).toBe('answer');
    expect(telegramState(bot(4, 10, 0, 'A new session is being created'))).toBe('notice');
  });
});
