import { describe, expect, it } from 'vitest';
import type { ChaosMessage, ReplyPiece, ReplyView } from '../../scripts/chaos/chat-user.js';
import { judgeStops } from '../../scripts/chaos/stop-verdict.js';
import type { StopAttempt } from '../../scripts/chaos/stopper.js';

// The stop verdict when a typed `/stop` stops another message than the one the user meant: the
// earlier message of the session still running. On DingTalk that happens whenever the target
// waited ("Queued"): its card never shows that it started, so the user types `/stop` while it
// shows "⏳", and the message running then is the one stopped.
const msg = (n: number, firstPushAt: number, finalSeenAt: number): ChaosMessage => ({
  n,
  kind: 'text',
  text: `question tok${n} sleep=4000`,
  token: `tok${n}`,
  eventId: `e${n}`,
  messageId: `m${n}`,
  bridgeId: `x:m${n}`,
  firstPushAt,
  pushes: 1,
  acks: [200],
  ackedAt: firstPushAt,
  duplicatePushes: 0,
  finalSeenAt,
});
const piece = (state: ReplyPiece['state'], text: string): ReplyPiece => ({ messageId: text, state, text });
const attempt = (m: ChaosMessage, reply: StopAttempt['reply'], sentAt: number): StopAttempt => ({
  n: m.n,
  messageId: m.messageId,
  how: 'typed',
  kill: false,
  late: false,
  reply,
  sentAt,
  repliedAt: sentAt + 50,
  killed: false,
  detail: '',
});

describe('chaos stop verdict: a typed /stop that met another running message', () => {
  // #1 runs; its own /stop came while it still waited ("nothing is running"); #2 waits behind it;
  // the /stop typed for #2 stops #1 (its card turns Stopped), and #2 then runs and is answered.
  const m1 = msg(1, 1_000, 5_100);
  const m2 = msg(2, 1_100, 9_000);
  const view: ReplyView = {
    pieces: new Map([
      ['m1', [piece('card', '⏹ Stopped')]],
      ['m2', [piece('answer', '✅ Claude echo: tok2')]],
    ]),
    unattributed: 0,
  };
  const calls = [
    { at: 1_200, prompt: 'question tok1' },
    { at: 5_200, prompt: 'question tok2' },
  ];

  it('judges it on the message it stopped, even when that message had a refused stop of its own', () => {
    const v = judgeStops(view, [m1, m2], [attempt(m1, 'finished', 900), attempt(m2, 'accepted', 5_000)], calls);
    expect(v).toMatchObject({ made: 2, accepted: 1, honoured: 1, typedStoppedAnother: 1 });
    expect(v.findings.filter((f) => f.detail.startsWith('accepted stop not honoured'))).toEqual([]);
  });

  it('an accepted stop of its own still claims the message (no second stop is judged on it)', () => {
    const v = judgeStops(view, [m1, m2], [attempt(m1, 'accepted', 900), attempt(m2, 'accepted', 5_000)], calls);
    expect(v.typedStoppedAnother).toBe(0);
    expect(v.findings.find((f) => f.n === 2)?.detail).toContain('accepted stop not honoured: card ends answer');
  });
});
