import type { FakeSlackMessage } from '../../test/fakes/fake-slack/fake-slack-server.js';
import type { Life } from './bridge-process.js';
import type { ChaosMessage } from './chat-user.js';
import { SEND_WINDOW_MS, type SendWindowVerdict } from './send-window.js';
import { refOf, slackOwners, slackState } from './slack-replies.js';

/**
 * The duplicate window on Slack (docs/design.md#slack: a crash between Slack's answer to a post
 * and the write of the sent ledger). Every post goes through the ledger, so a bot message the
 * ledger does not name is a post whose record was never written. It matters to the user when it
 * shows a chunk twice (a later recorded message begins with the same text: the next life posted
 * it again) or stays a streamed reply nobody finishes. Either is inside the window when the life
 * that posted it was SIGKILLed ≤ `SEND_WINDOW_MS` after Slack answered, else a failure. Slack does
 * not thread DM replies, so a copy's user message is that of its recorded twin (unknown without one).
 */
export function judgeSlackSendWindow(
  bot: readonly FakeSlackMessage[],
  messages: readonly ChaosMessage[],
  ledger: ReadonlyMap<string, string>,
  lives: readonly Life[],
): SendWindowVerdict {
  const owners = slackOwners(bot, messages, ledger);
  const recorded = new Set(ledger.values());
  const what = (b: FakeSlackMessage) => (b.file ? `file:${b.file.name}:${b.file.bytes.length}` : b.firstVisible);
  const v: SendWindowVerdict = {
    windowMs: SEND_WINDOW_MS,
    unrecorded: 0,
    insideWindow: [],
    outsideWindow: [],
    gapsMs: [],
    killsThatHit: 0,
  };
  const hit = new Set<number>();
  for (const c of bot) {
    if (recorded.has(refOf(c))) continue;
    v.unrecorded += 1;
    const twin = bot.find((b) => b.sentAt >= c.sentAt && b !== c && recorded.has(refOf(b)) && what(b) === what(c));
    const stuck = slackState(c) === 'streaming';
    if (!twin && !stuck) continue;
    const m = twin ? owners.get(refOf(twin))?.m : undefined;
    const life = lives.find((l) => l.startedAt <= c.sentAt && (l.endedAt ?? Infinity) >= c.sentAt);
    const gap = life?.endedAt !== undefined ? life.endedAt - c.sentAt : undefined;
    const inside = life?.end === 'killed' && gap !== undefined && gap <= SEND_WINDOW_MS;
    const detail =
      `"${c.firstVisible.replace(/\s+/g, ' ').slice(0, 40)}" ${twin ? 'posted again' : 'left streaming'}; this copy by life ` +
      `${life?.index ?? '?'} (${life?.end ?? 'unknown'}${gap !== undefined ? ` ${gap} ms after Slack answered` : ''})`;
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
  return v;
}
