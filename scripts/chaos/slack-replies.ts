import { openingMessage } from '../../src/channels/slack/slack-stream.js';
import type { FakeSlackMessage } from '../../test/fakes/fake-slack/fake-slack-server.js';
import { visibleOf } from '../../test/fakes/fake-slack/slack-blocks.js';
import { cardState, QUEUED_TITLE } from './chat-titles.js';
import type { ChaosMessage, PieceState, ReplyPiece, ReplyView } from './chat-user.js';
import { expectedUuids } from './feishu-replies.js';

/** What a fresh streamed reply shows before anything arrived. */
export const SLACK_OPENING_VISIBLE = (() => {
  const m = openingMessage('en', []);
  return visibleOf(m.text, m.blocks);
})();

/** The reference the bridge's sent ledger keeps for a bot message (`<channel>:<ts>`, `file:<id>`). */
export function refOf(msg: FakeSlackMessage): string {
  return msg.file ? `file:${msg.file.id}` : `${msg.channel}:${msg.ts}`;
}

/**
 * A bot message's state: a card (its first block a bold title) by its title; an untitled message
 * that began as a streamed reply or a "Queued" card is still streaming; any other is a notice.
 */
export function slackState(msg: FakeSlackMessage): PieceState {
  const first = (msg.blocks?.[0] as { text?: { text?: unknown } } | undefined)?.text?.text;
  const head = msg.visible.split('\n', 1)[0] ?? '';
  if (typeof first === 'string' && first.startsWith('*')) return cardState(head);
  const began = msg.firstVisible;
  return began === SLACK_OPENING_VISIBLE || (began.split('\n', 1)[0] ?? '').includes(QUEUED_TITLE)
    ? 'streaming'
    : 'notice';
}

/**
 * The user message each bot message answers. Slack replies are not threaded (a DM is one
 * conversation), so the only link is the bridge's sent ledger: delivery key (derived from the
 * user message's bridge id) → the message Slack confirmed. A post the bridge never recorded has
 * no owner here (the send-window verdict judges those).
 */
export function slackOwners(
  bot: readonly FakeSlackMessage[],
  messages: readonly ChaosMessage[],
  ledger: ReadonlyMap<string, string>,
): Map<string, { m: ChaosMessage; key: string; chunk: number | undefined }> {
  const keyOwner = new Map<string, { m: ChaosMessage; chunk: number }>();
  for (const m of messages) for (const [key, chunk] of chunkKeys(m.bridgeId)) keyOwner.set(key, { m, chunk });
  const byRef = new Map<string, { m: ChaosMessage; key: string; chunk: number | undefined }>();
  for (const [key, ref] of ledger) {
    // A chunk rendered into several Slack messages is recorded as `<key>:<i>` (i ≥ 1).
    const base = keyOwner.has(key) ? key : key.replace(/:\d+$/, '');
    const owner = keyOwner.get(base);
    if (owner) byRef.set(ref, { m: owner.m, key, chunk: base === key ? owner.chunk : undefined });
  }
  const out = new Map<string, { m: ChaosMessage; key: string; chunk: number | undefined }>();
  for (const msg of bot) {
    const owner = byRef.get(refOf(msg));
    if (owner) out.set(refOf(msg), owner);
  }
  return out;
}

const keyCache = new Map<string, Map<string, number>>();
function chunkKeys(bridgeId: string): Map<string, number> {
  let keys = keyCache.get(bridgeId);
  if (!keys) keyCache.set(bridgeId, (keys = expectedUuids(bridgeId)));
  return keys;
}

/** Every bot message the fake Slack recorded, attributed through the sent ledger (see `slackOwners`). */
export function slackReplies(
  bot: readonly FakeSlackMessage[],
  messages: readonly ChaosMessage[],
  ledger: ReadonlyMap<string, string>,
  only?: ReadonlySet<string>,
  skip?: ReadonlySet<string>,
): ReplyView {
  const owners = slackOwners(bot, messages, ledger);
  const pieces = new Map<string, ReplyPiece[]>();
  let unattributed = 0;
  for (const msg of bot) {
    const ref = refOf(msg);
    if (skip?.has(ref)) continue;
    const owner = owners.get(ref);
    if (!owner) {
      unattributed += 1;
      continue;
    }
    if (only && !only.has(owner.m.messageId)) continue;
    const piece: ReplyPiece = { messageId: ref, uuid: owner.key, state: slackState(msg), text: msg.visible };
    if (owner.chunk !== undefined) piece.chunk = owner.chunk;
    const list = pieces.get(owner.m.messageId) ?? [];
    list.push(piece);
    pieces.set(owner.m.messageId, list);
  }
  return { pieces, unattributed };
}
