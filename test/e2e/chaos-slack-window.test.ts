import { describe, expect, it } from 'vitest';
import type { Life } from '../../scripts/chaos/bridge-process.js';
import type { ChaosMessage } from '../../scripts/chaos/chat-user.js';
import { SEND_WINDOW_MS } from '../../scripts/chaos/send-window.js';
import { SLACK_OPENING_VISIBLE, slackReplies, slackState } from '../../scripts/chaos/slack-replies.js';
import { judgeSlackSendWindow } from '../../scripts/chaos/slack-send-window.js';
import { deliveryUuid } from '../../src/bridge/spool/message-key.js';
import type { FakeSlackMessage } from '../fakes/fake-slack/fake-slack-server.js';

// The chaos run's Slack verdict. Slack does not thread DM replies, so a bot message belongs to a
// user message only through the bridge's sent ledger; a post the ledger does not name is allowed
// only inside the documented window (a SIGKILL between Slack's answer and the ledger write).
const DM = 'D0OWNER';
const user = (n: number, ts: string): ChaosMessage => ({
  n,
  kind: 'text',
  text: `question tok${n}`,
  token: `tok${n}`,
  eventId: `Ev${n}`,
  messageId: ts,
  bridgeId: `slack:${DM}:${ts}`,
  firstPushAt: 0,
  pushes: 1,
  acks: [200],
  duplicatePushes: 0,
});
const bot = (ts: string, sentAt: number, first: string, now = first, title = false): FakeSlackMessage => ({
  channel: DM,
  ts,
  text: now,
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: title ? `*${now}*` : now } }],
  visible: now,
  buttons: [],
  edits: now === first ? 0 : 1,
  firstVisible: first,
  sentAt,
});
const life = (index: number, startedAt: number, endedAt: number | undefined, end?: Life['end']): Life => ({
  index,
  pid: index,
  startedAt,
  ...(endedAt !== undefined ? { endedAt } : {}),
  ...(end ? { end } : {}),
  clockOffsetMs: 0,
});

const m1 = user(1, '1700000000.000001');
const m2 = user(2, '1700000000.000002');
const key = (m: ChaosMessage, i: number) => deliveryUuid(m.bridgeId, i);

describe('chaos on Slack: replies through the sent ledger, the send window', () => {
  it('attributes recorded posts by delivery key and leaves unrecorded ones out', () => {
    const msgs = [
      bot('1.1', 100, SLACK_OPENING_VISIBLE, '✅ Claude answered tok1', true),
      bot('1.2', 200, 'a notice'),
      bot('1.3', 300, 'nobody recorded me'),
    ];
    const ledger = new Map([
      [key(m1, 0), `${DM}:1.1`],
      [key(m2, 0), `${DM}:1.2`],
    ]);
    const view = slackReplies(msgs, [m1, m2], ledger);
    expect(view.pieces.get(m1.messageId)).toMatchObject([{ chunk: 0, text: '✅ Claude answered tok1' }]);
    expect(view.pieces.get(m2.messageId)).toMatchObject([{ chunk: 0, state: 'notice' }]);
    expect(view.unattributed).toBe(1);
    expect(slackState(bot('x', 0, SLACK_OPENING_VISIBLE))).toBe('streaming');
  });

  it('a copy posted again after a SIGKILL right after Slack answered is inside the window', () => {
    const msgs = [bot('1.1', 1_000, 'reply one'), bot('1.2', 3_000, 'reply one')];
    const ledger = new Map([[key(m1, 0), `${DM}:1.2`]]);
    const v = judgeSlackSendWindow(msgs, [m1], ledger, [life(1, 0, 1_020, 'killed'), life(2, 2_000, undefined)]);
    expect(v).toMatchObject({ unrecorded: 1, gapsMs: [20], killsThatHit: 1, outsideWindow: [] });
    expect(v.insideWindow).toMatchObject([{ n: 1 }]);
  });

  it('a copy whose life went on, or stopped cleanly, is outside the window (a duplicate)', () => {
    const msgs = [bot('1.1', 1_000, 'reply one'), bot('1.2', 3_000, 'reply one')];
    const ledger = new Map([[key(m1, 0), `${DM}:1.2`]]);
    const late = judgeSlackSendWindow(msgs, [m1], ledger, [life(1, 0, 1_000 + SEND_WINDOW_MS + 500, 'killed')]);
    expect(late.insideWindow).toEqual([]);
    expect(late.outsideWindow).toHaveLength(1);
    const clean = judgeSlackSendWindow(msgs, [m1], ledger, [life(1, 0, 1_050, 'stopped')]);
    expect(clean.outsideWindow).toHaveLength(1);
  });

  it('an unrecorded streamed reply nobody finishes is judged too; a lone unrecorded notice is not a copy', () => {
    const msgs = [bot('1.1', 1_000, SLACK_OPENING_VISIBLE), bot('1.2', 1_500, 'only once')];
    const v = judgeSlackSendWindow(msgs, [m1], new Map(), [life(1, 0, 5_000, 'stopped')]);
    expect(v.unrecorded).toBe(2);
    expect(v.outsideWindow).toHaveLength(1);
    expect(v.outsideWindow[0]?.detail).toContain('left streaming');
  });
});
