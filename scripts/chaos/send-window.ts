import type { FakeMessage } from '../../test/fakes/fake-telegram/fake-telegram-types.js';
import type { Life } from './bridge-process.js';
import type { ChaosMessage } from './chat-user.js';
import { ownersOf } from './telegram-replies.js';
import type { MessageFinding } from './verdict.js';

/**
 * How long after the platform answered a send the bridge may die and still be inside the
 * documented window (docs/design.md#telegram: a crash between Telegram's answer and the write of
 * the sent ledger). The write follows the answer at once — milliseconds —; the margin covers a
 * busy machine, and every gap is reported.
 */
export const SEND_WINDOW_MS = 1_000;

/** The duplicate window of a platform without an idempotency key for sends, measured. */
export interface SendWindowVerdict {
  windowMs: number;
  /** Bot messages whose send the bridge never recorded (its ledger names another message, or none, for that key). */
  unrecorded: number;
  /** A chunk shown twice, its first copy sent by a life SIGKILLed ≤ `windowMs` after Telegram answered (reported, allowed). */
  insideWindow: MessageFinding[];
  /** A chunk shown twice any other way (a failure: the verdict counts it as duplicated). */
  outsideWindow: MessageFinding[];
  /** Gaps (ms) between Telegram's answer and the kill, for the copies inside the window. */
  gapsMs: number[];
  /** Bridge lives whose SIGKILL left at least one chunk to be shown twice (one kill can cut several sends). */
  killsThatHit: number;
}

/**
 * Finds the chunks shown twice: per user message, bot messages sent with the same text (a
 * re-sent chunk repeats it exactly; a re-sent streamed reply repeats its opening) where a copy is
 * missing from the bridge's sent ledger — its "sent" was never written. The copy's sending life
 * (alive when Telegram answered) tells whether the write was cut by a SIGKILL inside the window.
 * Returns the verdict and the bot message ids it accounted for (left out of the reply view, so the
 * main verdict does not count them again).
 */
export function judgeSendWindow(
  bot: readonly FakeMessage[],
  messages: readonly ChaosMessage[],
  ledger: ReadonlyMap<string, string>,
  lives: readonly Life[],
): { verdict: SendWindowVerdict; accounted: Set<number> } {
  const recorded = new Set(ledger.values());
  const isRecorded = (b: FakeMessage) => recorded.has(`${b.chat_id}:${b.message_id}`);
  const owners = ownersOf(bot, messages);
  const groups = new Map<string, FakeMessage[]>();
  for (const b of bot) {
    const owner = owners.get(b.message_id);
    if (!owner) continue;
    const what = b.file ? `${b.file.kind}:${b.file.name ?? ''}:${b.file.bytes.length}` : b.firstVisible;
    const key = `${owner.messageId}\n${what}`;
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  const v: SendWindowVerdict = {
    windowMs: SEND_WINDOW_MS,
    unrecorded: bot.filter((b) => !isRecorded(b)).length,
    insideWindow: [],
    outsideWindow: [],
    gapsMs: [],
    killsThatHit: 0,
  };
  const hit = new Set<number>();
  const accounted = new Set<number>();
  for (const copies of groups.values()) {
    if (copies.length < 2) continue;
    const sorted = [...copies].sort((a, b) => a.sentAt - b.sentAt);
    let extras = sorted.filter((b) => !isRecorded(b));
    // None recorded: the newest copy is the one the bridge went on with; the others are the extras.
    if (extras.length === sorted.length) extras = extras.slice(0, -1);
    const m = owners.get(sorted[0]?.message_id ?? -1) as ChaosMessage;
    for (const c of extras) {
      accounted.add(c.message_id);
      const life = lives.find((l) => l.startedAt <= c.sentAt && (l.endedAt ?? Infinity) >= c.sentAt);
      const gap = life?.endedAt !== undefined ? life.endedAt - c.sentAt : undefined;
      const inside = life?.end === 'killed' && gap !== undefined && gap <= SEND_WINDOW_MS;
      const detail =
        `"${c.firstVisible.replace(/\s+/g, ' ').slice(0, 40)}" sent ${copies.length} times; this copy by life ` +
        `${life?.index ?? '?'} (${life?.end ?? 'unknown'}${gap !== undefined ? ` ${gap} ms after Telegram answered` : ''})`;
      const finding = { n: m.n, kind: m.kind, messageId: m.messageId, text: m.text.slice(0, 80), detail };
      if (inside) {
        hit.add(life.index);
        v.insideWindow.push(finding);
        v.gapsMs.push(gap);
      } else v.outsideWindow.push(finding);
    }
  }
  v.killsThatHit = hit.size;
  return { verdict: v, accounted };
}
