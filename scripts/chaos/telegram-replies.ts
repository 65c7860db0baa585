import { openingHtml } from '../../src/channels/telegram/telegram-stream.js';
import type { FakeMessage } from '../../test/fakes/fake-telegram/fake-telegram-types.js';
import { parseTelegramHtml } from '../../test/fakes/fake-telegram/telegram-html.js';
import { cardState, QUEUED_TITLE } from './chat-titles.js';
import type { ChaosMessage, PieceState, ReplyPiece, ReplyView } from './chat-user.js';
import { expectedUuids } from './feishu-replies.js';

/** What a fresh streamed reply shows before anything arrived ("⏳ Thinking…" and the status line). */
export const OPENING_VISIBLE = (() => {
  const parsed = parseTelegramHtml(openingHtml('en'));
  return parsed.ok ? parsed.visible : '';
})();

/**
 * A bot message's state: a card (bold title first) by its title; an untitled message that began
 * as a streamed reply or a "Queued" card is still streaming (its final edit gives it a title);
 * any other untitled message is a notice (a text reply, or an overflow chunk).
 */
export function telegramState(msg: FakeMessage): PieceState {
  if (msg.text.startsWith('<b>')) return cardState(msg.visible.split('\n', 1)[0] ?? '');
  const began = msg.firstVisible;
  return began === OPENING_VISIBLE || (began.split('\n', 1)[0] ?? '').includes(QUEUED_TITLE) ? 'streaming' : 'notice';
}

/**
 * The user message each bot message answers: the one it replies to, or — for a notice replying to
 * the bot's own message (the "answer is ready" ping, a caption) — that message's owner.
 */
export function ownersOf(
  bot: readonly FakeMessage[],
  messages: readonly ChaosMessage[],
): Map<number, ChaosMessage | undefined> {
  const byId = new Map(messages.map((m) => [Number(m.messageId), m]));
  const owners = new Map<number, ChaosMessage | undefined>();
  for (const msg of bot) {
    const to = msg.reply_to;
    owners.set(msg.message_id, to === undefined ? undefined : (byId.get(to) ?? owners.get(to)));
  }
  return owners;
}

const keyCache = new Map<string, Map<string, number>>();
function chunkKeys(bridgeId: string): Map<string, number> {
  let keys = keyCache.get(bridgeId);
  if (!keys) keyCache.set(bridgeId, (keys = expectedUuids(bridgeId)));
  return keys;
}

/**
 * Every bot message the fake Bot API recorded, attributed to the user message it replies to, with
 * its chunk index when the bridge's sent ledger (delivery key → `<chat>:<message>`) names it. A
 * notice replying to the bot's own message (the "answer is ready" ping) is no reply to the user's
 * message and counts as unattributed, as on Feishu.
 */
export function telegramReplies(
  bot: readonly FakeMessage[],
  messages: readonly ChaosMessage[],
  ledger: ReadonlyMap<string, string>,
  only?: ReadonlySet<string>,
  skip?: ReadonlySet<number>,
): ReplyView {
  const byId = new Map(messages.map((m) => [Number(m.messageId), m]));
  const keyOfRef = new Map([...ledger].map(([key, ref]) => [ref, key]));
  const pieces = new Map<string, ReplyPiece[]>();
  let unattributed = 0;
  for (const msg of bot) {
    if (skip?.has(msg.message_id)) continue;
    const owner = msg.reply_to === undefined ? undefined : byId.get(msg.reply_to);
    if (!owner) {
      unattributed += 1;
      continue;
    }
    if (only && !only.has(owner.messageId)) continue;
    const piece: ReplyPiece = { messageId: String(msg.message_id), state: telegramState(msg), text: msg.visible };
    const key = keyOfRef.get(`${msg.chat_id}:${msg.message_id}`);
    if (key) {
      piece.uuid = key;
      const chunk = chunkKeys(owner.bridgeId).get(key);
      if (chunk !== undefined) piece.chunk = chunk;
    }
    const list = pieces.get(owner.messageId) ?? [];
    list.push(piece);
    pieces.set(owner.messageId, list);
  }
  return { pieces, unattributed };
}
