import type { SentMessage } from '../../test/fakes/fake-dingtalk/fake-dingtalk-server.js';
import type { Life } from './bridge-process.js';
import type { ChaosMessage } from './chat-user.js';
import { dingtalkOwners, dingtalkState, refOf } from './dingtalk-replies.js';
import { SEND_WINDOW_MS, type SendWindowVerdict } from './send-window.js';

/**
 * The duplicate window on DingTalk (docs/design.md#dingtalk: no idempotency key for `batchSend`;
 * a crash between DingTalk's answer and the write of the sent ledger sends the message again).
 * Every robot message goes through the ledger, so one the ledger does not name is a send whose
 * record was never written. It shows a message twice when a later recorded message has the same
 * text (the next life sent it again), or it is a reply's opening nobody follows up. Either is
 * inside the window when the life that sent it was SIGKILLed ≤ `SEND_WINDOW_MS` after DingTalk
 * answered, else a failure. A copy's user message is that of its recorded twin (for identical
 * openings possibly a neighbour's; the counts are exact). Returns the verdict and the copies it
 * accounted for (left out of the reply view).
 */
export function judgeDingTalkSendWindow(
  bot: readonly SentMessage[],
  messages: readonly ChaosMessage[],
  ledger: ReadonlyMap<string, string>,
  lives: readonly Life[],
): { verdict: SendWindowVerdict; accounted: Set<string> } {
  const owners = dingtalkOwners(messages, ledger);
  const recorded = new Set(ledger.values());
  const v: SendWindowVerdict = {
    windowMs: SEND_WINDOW_MS,
    unrecorded: 0,
    insideWindow: [],
    outsideWindow: [],
    gapsMs: [],
    killsThatHit: 0,
  };
  const hit = new Set<number>();
  const accounted = new Set<string>();
  for (const c of bot) {
    if (recorded.has(refOf(c))) continue;
    v.unrecorded += 1;
    const twin = bot.find((b) => b.sentAt >= c.sentAt && b !== c && recorded.has(refOf(b)) && b.text === c.text);
    const stuck = dingtalkState(c) === 'streaming';
    if (!twin && !stuck) continue;
    accounted.add(refOf(c));
    const m = twin ? owners.get(refOf(twin))?.m : undefined;
    const life = lives.find((l) => l.startedAt <= c.sentAt && (l.endedAt ?? Infinity) >= c.sentAt);
    const gap = life?.endedAt !== undefined ? life.endedAt - c.sentAt : undefined;
    const inside = life?.end === 'killed' && gap !== undefined && gap <= SEND_WINDOW_MS;
    const detail =
      `"${c.text.replace(/\s+/g, ' ').slice(0, 40)}" ${twin ? 'sent again' : 'opening left alone'}; this copy by life ` +
      `${life?.index ?? '?'} (${life?.end ?? 'unknown'}${gap !== undefined ? ` ${gap} ms after DingTalk answered` : ''})`;
    const finding = {
      n: m?.n ?? 0,
      kind: m?.kind ?? 'text',
      messageId: m?.messageId ?? refOf(c),
      text: m?.text.slice(0, 80) ?? '',
      detail,
    };
    if (inside) {
      hit.add(life.index);
      v.insideWindow.push(finding);
      v.gapsMs.push(gap);
    } else v.outsideWindow.push(finding);
  }
  v.killsThatHit = hit.size;
  return { verdict: v, accounted };
}
