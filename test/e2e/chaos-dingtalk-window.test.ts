import { describe, expect, it } from 'vitest';
import type { Life } from '../../scripts/chaos/bridge-process.js';
import type { ChaosMessage } from '../../scripts/chaos/chat-user.js';
import {
  DINGTALK_OPENING,
  DINGTALK_STARTED,
  dingtalkReplies,
  dingtalkState,
  dingtalkVisible,
} from '../../scripts/chaos/dingtalk-replies.js';
import { judgeDingTalkSendWindow } from '../../scripts/chaos/dingtalk-send-window.js';
import { SEND_WINDOW_MS } from '../../scripts/chaos/send-window.js';
import { deliveryUuid } from '../../src/bridge/spool/message-key.js';
import type { SentMessage } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';

// The chaos run's DingTalk verdict. Robot messages are neither threaded nor editable: a reply is
// its opening, then a final card sent as a new message, and a card shown again is a new message
// too; the bridge's sent ledger says which user message each one answers and what it replaces. A
// message the ledger does not name is allowed only inside the documented window (a SIGKILL
// between DingTalk's answer to batchSend and the ledger write).
const OWNER = 'owner0001';
const user = (n: number): ChaosMessage => ({
  n,
  kind: 'text',
  text: `question tok${n}`,
  token: `tok${n}`,
  eventId: `frame-${n}`,
  messageId: `msg${n}`,
  bridgeId: `dingtalk:msg${n}`,
  firstPushAt: 0,
  pushes: 1,
  acks: [200],
  duplicatePushes: 0,
});
const bot = (pqk: string, sentAt: number, text: string): SentMessage => ({
  userId: OWNER,
  msgKey: 'sampleMarkdown',
  title: text.slice(0, 10),
  text,
  processQueryKey: pqk,
  param: { text },
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
const ref = (pqk: string) => `${OWNER}/${pqk}`;
const m1 = user(1);
const m2 = user(2);
const m3 = user(3);
const key = (m: ChaosMessage, i: number | string) => deliveryUuid(m.bridgeId, i);

describe('chaos on DingTalk: replies through the sent ledger, the send window', () => {
  it('the final card replaces the opening, an update replaces its card, a number gets its answer', () => {
    const msgs = [
      bot('p1', 100, DINGTALK_OPENING),
      bot('p2', 200, '### ⏳ Queued \\(\\#1\\)\n\nbusy'),
      bot('p3', 300, '### ✅ Claude\n\necho: question tok1'),
      bot('p4', 400, '### 🚫 Cancelled\n\nnot run'),
      bot('p5', 500, '### 🔐 Claude wants to use a tool\n\n**Allowed**'),
      bot('p6', 600, '✅ Your answer is ready'),
    ];
    const ledger = new Map([
      [key(m1, 0), ref('p1')],
      [key(m2, 0), ref('p2')],
      [`${key(m1, 0)}:final`, ref('p3')],
      [`update:${ref('p2')}:0123456789abcdef`, ref('p4')],
      [`${m3.bridgeId}:choice`, ref('p5')],
      [key(m1, 'notify:turn'), ref('p6')],
    ]);
    const view = dingtalkReplies(msgs, [m1, m2, m3], ledger);
    expect(view.pieces.get('msg1')).toMatchObject([
      { chunk: 0, state: 'answer', text: '✅ Claude\n\necho: question tok1' },
    ]);
    expect(view.pieces.get('msg2')).toMatchObject([
      { chunk: 0, state: 'card', text: expect.stringContaining('Cancelled') },
    ]);
    // The answer to a typed number is a notice, even when it shows the prompt's card ("Allowed").
    expect(view.pieces.get('msg3')).toMatchObject([{ state: 'notice', text: expect.stringContaining('Allowed') }]);
    // The "answer is ready" ping is no reply, as on Feishu.
    expect(view.unattributed).toBe(1);
  });

  it('reads a message as the user does: escapes undone, the opening and a Queued card still running', () => {
    expect(dingtalkVisible('### ⏳ Queued \\(\\#2\\)\n\na &lt;b&gt; &amp; c')).toBe('⏳ Queued (#2)\n\na <b> & c');
    expect(dingtalkState(bot('x', 0, DINGTALK_OPENING))).toBe('streaming');
    expect(dingtalkState(bot('x', 0, '### ⏳ Queued \\(\\#2\\)\n\nbusy'))).toBe('streaming');
    expect(dingtalkState(bot('x', 0, '### ❌ Failed\n\nboom'))).toBe('error');
    expect(dingtalkState(bot('x', 0, '⏹ Stopped the running message'))).toBe('notice');
  });

  it('a message that waited: its "started" message (a Stop below) runs, and the final card replaces it', () => {
    const stop =
      '\n\n**Tap an option (or reply "<number> #k3f9")**\n\n1. [Stop](dtmd://dingtalkclient/sendMessage?content=1%20%23k3f9)';
    const msgs = [
      bot('p1', 100, `${DINGTALK_OPENING}${stop}`),
      bot('p2', 200, '### ⏳ Queued \\(\\#1\\)\n\nbusy'),
      bot('p3', 300, '### ✅ Claude\n\ntok1'),
      bot('p4', 400, `${DINGTALK_STARTED}${stop}`),
    ];
    const ledger = new Map([
      [key(m1, 0), ref('p1')],
      [`${key(m1, 0)}:opening`, ref('p1')],
      [key(m2, 0), ref('p2')],
      [`${key(m1, 0)}:final`, ref('p3')],
      [`${key(m2, 0)}:started`, ref('p4')],
    ]);
    const running = dingtalkReplies(msgs, [m1, m2], ledger);
    expect(running.unattributed).toBe(0);
    expect(running.pieces.get('msg1')).toMatchObject([{ state: 'answer' }]);
    expect(running.pieces.get('msg2')).toMatchObject([
      { state: 'streaming', text: expect.stringContaining('Queued') },
      { state: 'streaming', text: expect.stringContaining(DINGTALK_STARTED) },
    ]);
    msgs.push(bot('p5', 500, '### ✅ Claude\n\ntok2'));
    ledger.set(`${key(m2, 0)}:final`, ref('p5'));
    const done = dingtalkReplies(msgs, [m1, m2], ledger);
    expect(done.pieces.get('msg2')).toMatchObject([{ state: 'answer', text: expect.stringContaining('tok2') }]);
    expect(done.unattributed).toBe(0);
    expect(dingtalkState(bot('x', 0, `${DINGTALK_OPENING}x`))).toBe('notice');
  });

  it('without its final card the opening is a reply still running (the verdict calls that lost)', () => {
    const view = dingtalkReplies([bot('p1', 100, DINGTALK_OPENING)], [m1], new Map([[key(m1, 0), ref('p1')]]));
    expect(view.pieces.get('msg1')).toMatchObject([{ state: 'streaming' }]);
  });

  it('a copy sent again after a SIGKILL right after DingTalk answered is inside the window', () => {
    const msgs = [bot('p1', 1_000, '### ✅ Claude\n\ntok1'), bot('p2', 3_000, '### ✅ Claude\n\ntok1')];
    const ledger = new Map([[`${key(m1, 0)}:final`, ref('p2')]]);
    const lives = [life(1, 0, 1_020, 'killed'), life(2, 2_000, undefined)];
    const { verdict, accounted } = judgeDingTalkSendWindow(msgs, [m1], ledger, lives);
    expect(verdict).toMatchObject({ unrecorded: 1, gapsMs: [20], killsThatHit: 1, outsideWindow: [] });
    expect(verdict.insideWindow).toMatchObject([{ n: 1 }]);
    expect([...accounted]).toEqual([ref('p1')]);
    // The copy is left out of the reply view: one final reply remains.
    expect(dingtalkReplies(msgs, [m1], ledger, undefined, accounted)).toMatchObject({ unattributed: 0 });
  });

  it('a copy whose life went on, or stopped cleanly, is outside the window (a duplicate)', () => {
    const msgs = [bot('p1', 1_000, 'reply one'), bot('p2', 3_000, 'reply one')];
    const ledger = new Map([[key(m1, 0), ref('p2')]]);
    const late = judgeDingTalkSendWindow(msgs, [m1], ledger, [life(1, 0, 1_000 + SEND_WINDOW_MS + 500, 'killed')]);
    expect(late.verdict.insideWindow).toEqual([]);
    expect(late.verdict.outsideWindow).toMatchObject([{ n: 1 }]);
    const clean = judgeDingTalkSendWindow(msgs, [m1], ledger, [life(1, 0, 1_050, 'stopped')]);
    expect(clean.verdict.outsideWindow).toHaveLength(1);
  });

  it('an unrecorded opening nobody follows up is judged too; a lone unrecorded notice is not a copy', () => {
    const msgs = [bot('p1', 1_000, DINGTALK_OPENING), bot('p2', 1_500, 'only once')];
    const { verdict } = judgeDingTalkSendWindow(msgs, [m1], new Map(), [life(1, 0, 5_000, 'stopped')]);
    expect(verdict.unrecorded).toBe(2);
    expect(verdict.outsideWindow).toHaveLength(1);
    expect(verdict.outsideWindow[0]?.detail).toContain('opening left alone');
  });
});
