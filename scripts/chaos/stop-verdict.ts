import { pipelineMessages } from '../../src/bridge/pipeline/pipeline-messages.js';
import { TOKEN_RE } from './chat-titles.js';
import type { ChaosMessage, ReplyView } from './chat-user.js';
import type { StopAttempt } from './stopper.js';
import { finalPieces, type EngineCall, type MessageFinding } from './verdict.js';

const STOPPED_TITLES = [pipelineMessages('en')('stoppedTitle'), pipelineMessages('en')('cancelledTitle')];

/** How the user's stops ended. */
export interface StopVerdict {
  /** Stops the user made (the running or queued card showed in time). */
  made: number;
  byHow: { typed: number; button: number; cancel: number; followedByKill: number };
  /** Stops the bridge accepted ("Stopping…", "Cancelled", `/stop` stopped it). */
  accepted: number;
  /** Accepted stops that held: the card ended "Stopped" / "Cancelled", no answer, no engine call with the prompt after. */
  honoured: number;
  /** The bridge said "already finished" / "nothing is running", and the message's answer (or error) was indeed its end. */
  afterFinal: number;
  /** Stops with no clear answer from the bridge (no ack, an unknown toast, or refused and never answered). */
  unclear: number;
  /** Stops never made: the card to stop never showed in time. */
  notMade: number;
  /** Typed `/stop`s that stopped another message of the session (judged on that message instead). */
  typedStoppedAnother: number;
  /** Accepted stops that did not hold, and unclear ones (what the user saw). */
  findings: MessageFinding[];
}

/**
 * Judges each stop from what the platform recorded and from the engine calls: an accepted stop is
 * honoured when the message's card ended "Stopped" (or "Cancelled"), no answer of it was ever shown
 * (across restarts), and no engine call carried its prompt after the stop was accepted.
 */
export function judgeStops(
  view: ReplyView,
  messages: readonly ChaosMessage[],
  attempts: readonly StopAttempt[],
  calls: readonly EngineCall[] | null,
): StopVerdict {
  const { pieces } = view;
  const byId = new Map(messages.map((m) => [m.messageId, m]));
  const stoppedCard = (m: ChaosMessage) => {
    const finals = finalPieces(pieces.get(m.messageId) ?? []);
    const head = finals[0];
    return finals.length === 1 && head?.state === 'card' && STOPPED_TITLES.some((t) => head.text.includes(t));
  };
  // A typed `/stop` stops whatever runs in the session then: when that was not the target (the
  // user was late, or a restart reordered the runs), it is the stopped message no other stop claims
  // that was sent before the `/stop` and whose card turned "Stopped" before the user's next stop
  // (the stops are made one after another). Without that window, a `/stop` that stopped nothing
  // visible took the next message stopped minutes later by another `/stop`, and both were misjudged.
  // A stop the bridge refused ("already finished", "nothing is running") or never made stopped
  // nothing: it claims no message (a `/stop` typed later for a message still waiting behind it may
  // be the one that stopped it).
  const claimed = new Set(
    attempts.filter((a) => a.reply !== 'finished' && a.reply !== 'not-sent').map((a) => a.messageId),
  );
  const sentTimes = attempts.map((a) => a.sentAt).filter((t): t is number => t !== undefined);
  const stoppedBy = (a: StopAttempt, target: ChaosMessage): ChaosMessage => {
    if (a.how !== 'typed' || a.reply !== 'accepted' || stoppedCard(target) || a.sentAt === undefined) return target;
    const from = a.sentAt;
    const until = Math.min(...sentTimes.filter((t) => t > from), Infinity);
    const other = messages
      .filter(
        (m) =>
          !claimed.has(m.messageId) &&
          m.firstPushAt < from &&
          (m.finalSeenAt ?? 0) >= from &&
          (m.finalSeenAt ?? Infinity) < until &&
          stoppedCard(m),
      )
      .sort((x, y) => (x.finalSeenAt as number) - (y.finalSeenAt as number))[0];
    if (!other) return target;
    claimed.add(other.messageId);
    return other;
  };
  const v: StopVerdict = {
    made: 0,
    byHow: { typed: 0, button: 0, cancel: 0, followedByKill: 0 },
    accepted: 0,
    honoured: 0,
    afterFinal: 0,
    unclear: 0,
    notMade: 0,
    typedStoppedAnother: 0,
    findings: [],
  };
  for (const a of attempts) {
    const target = byId.get(a.messageId) as ChaosMessage;
    const m = stoppedBy(a, target);
    if (m !== target) v.typedStoppedAnother += 1;
    const finding = (detail: string) =>
      v.findings.push({ n: m.n, kind: `stop:${a.how}`, messageId: m.messageId, text: m.text.slice(0, 80), detail });
    if (a.reply === 'not-sent') {
      v.notMade += 1;
      continue;
    }
    v.made += 1;
    v.byHow[a.how] += 1;
    if (a.killed) v.byHow.followedByKill += 1;
    const list = pieces.get(m.messageId) ?? [];
    const finals = finalPieces(list);
    const stopped = stoppedCard(m);
    const answered = list.filter((p) => p.state === 'answer').length;
    if (a.reply === 'accepted') {
      v.accepted += 1;
      const after = (calls ?? []).filter(
        (c) =>
          m.token && (c.prompt.match(TOKEN_RE) ?? ([] as string[])).includes(m.token) && c.at > (a.repliedAt as number),
      );
      const why = [
        ...(stopped ? [] : [`card ends ${finals.map((p) => p.state).join('+') || 'unfinished'}`]),
        ...(answered > 0 ? [`${answered} answer(s) shown`] : []),
        ...(after.length > 0
          ? [
              `${after.length} engine call(s) with the prompt ${after.map((c) => c.at - (a.repliedAt as number)).join(',')} ms after the stop`,
            ]
          : []),
      ];
      if (why.length === 0) v.honoured += 1;
      else finding(`accepted stop not honoured${a.killed ? ' (bridge killed after it)' : ''}: ${why.join('; ')}`);
    } else if (a.reply === 'finished' && finals.length > 0 && !stopped) {
      v.afterFinal += 1;
    } else {
      v.unclear += 1;
      finding(
        `stop ${a.reply}${a.detail ? ` (${a.detail})` : ''}; card ends ${finals.map((p) => p.state).join('+') || 'unfinished'}`,
      );
    }
  }
  return v;
}
