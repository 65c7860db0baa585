import { openingMarkdown } from '../../src/channels/dingtalk/dingtalk-stream.js';
import type { SentMessage } from '../../test/fakes/fake-dingtalk/fake-dingtalk-server.js';
import { cardState } from './chat-titles.js';
import type { ChaosMessage, PieceState, ReplyPiece, ReplyView } from './chat-user.js';
import { expectedUuids } from './feishu-replies.js';

/** The reference the bridge's sent ledger keeps for a robot message (`<staffId>/<processQueryKey>`). */
export function refOf(msg: SentMessage): string {
  return `${msg.userId}/${msg.processQueryKey}`;
}

/** What a reply's first message shows while the run works (robot messages cannot be edited). */
export const DINGTALK_OPENING = openingMarkdown('en').text;

/** A robot markdown message as the user reads it: escapes and entities undone, a heading's `#`s dropped. */
export function dingtalkVisible(text: string): string {
  return text
    .replace(/^#{1,6} /, '')
    .replace(/\\([\\`*_[\]()#+\-!|~])/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * A robot message's state: a card (a `###` heading first) by its title; the reply's opening
 * ("⏳ Working on it…") is still streaming; any other message is a notice.
 */
export function dingtalkState(msg: SentMessage): PieceState {
  if (msg.text.startsWith('### ')) return cardState(dingtalkVisible(msg.text.split('\n', 1)[0] ?? ''));
  return msg.text === DINGTALK_OPENING ? 'streaming' : 'notice';
}

/** Who a recorded robot message answers, and which earlier message of the reply it replaces. */
export interface DingTalkOwner {
  m: ChaosMessage;
  key: string;
  chunk: number | undefined;
  /** The message this one stands in for (robot messages cannot be edited: a new one is sent). */
  replaces?: string;
  /** The answer to a number the user typed (a notice, whatever card it shows: "Allowed", "Denied"). */
  choice?: boolean;
}

const keyCache = new Map<string, Map<string, number>>();
function chunkKeys(bridgeId: string): Map<string, number> {
  let keys = keyCache.get(bridgeId);
  if (!keys) keyCache.set(bridgeId, (keys = expectedUuids(bridgeId)));
  return keys;
}

/**
 * The user message each recorded robot message answers, from the bridge's sent ledger (DingTalk
 * does not thread a single chat): a chunk's delivery key; `<key>:final`, the final card of the
 * reply opened under `<key>` (it replaces the opening, or the "Queued" card the run took over);
 * `update:<ref>:<digest>`, a card shown again as a new message (it replaces `<ref>`); and
 * `<bridge id>:choice`, the answer to a number the user typed. The "answer is ready" ping is no
 * reply (as on Feishu): unattributed.
 */
export function dingtalkOwners(
  messages: readonly ChaosMessage[],
  ledger: ReadonlyMap<string, string>,
): Map<string, DingTalkOwner> {
  const keyOwner = new Map<string, { m: ChaosMessage; chunk: number }>();
  const byBridgeId = new Map<string, ChaosMessage>();
  for (const m of messages) {
    byBridgeId.set(m.bridgeId, m);
    for (const [key, chunk] of chunkKeys(m.bridgeId)) keyOwner.set(key, { m, chunk });
  }
  const byRef = new Map<string, DingTalkOwner>();
  const updates: Array<[string, string, string]> = [];
  for (const [key, ref] of ledger) {
    if (key.startsWith('update:')) {
      updates.push([key, ref, key.slice('update:'.length, key.lastIndexOf(':'))]);
      continue;
    }
    const final = key.endsWith(':final') ? key.slice(0, -':final'.length) : undefined;
    const choice = key.endsWith(':choice') ? byBridgeId.get(key.slice(0, -':choice'.length)) : undefined;
    const owner = choice ? { m: choice, chunk: 0 } : keyOwner.get(final ?? key);
    if (!owner) continue;
    const replaces = final !== undefined ? ledger.get(final) : undefined;
    byRef.set(ref, {
      m: owner.m,
      key,
      chunk: owner.chunk,
      ...(replaces ? { replaces } : {}),
      ...(choice ? { choice: true } : {}),
    });
  }
  for (const [key, ref, of] of updates) {
    const owner = byRef.get(of);
    if (owner) byRef.set(ref, { m: owner.m, key, chunk: owner.chunk, replaces: of });
  }
  return byRef;
}

/**
 * Every robot message the fake DingTalk delivered to the owner, attributed through the sent
 * ledger (see `dingtalkOwners`). A message a later one replaces (the opening once the final card
 * came, a card shown again by an update) is left out: the user reads the newest. `skip`: messages
 * the send-window verdict accounted for.
 */
export function dingtalkReplies(
  bot: readonly SentMessage[],
  messages: readonly ChaosMessage[],
  ledger: ReadonlyMap<string, string>,
  only?: ReadonlySet<string>,
  skip?: ReadonlySet<string>,
): ReplyView {
  const owners = dingtalkOwners(messages, ledger);
  const replaced = new Set([...owners.values()].flatMap((o) => (o.replaces ? [o.replaces] : [])));
  const pieces = new Map<string, ReplyPiece[]>();
  let unattributed = 0;
  for (const msg of bot) {
    const ref = refOf(msg);
    if (skip?.has(ref) || replaced.has(ref)) continue;
    const owner = owners.get(ref);
    if (!owner) {
      unattributed += 1;
      continue;
    }
    if (only && !only.has(owner.m.messageId)) continue;
    const piece: ReplyPiece = {
      messageId: ref,
      uuid: owner.key,
      state: owner.choice ? 'notice' : dingtalkState(msg),
      text: dingtalkVisible(msg.text),
    };
    if (owner.chunk !== undefined) piece.chunk = owner.chunk;
    const list = pieces.get(owner.m.messageId) ?? [];
    list.push(piece);
    pieces.set(owner.m.messageId, list);
  }
  return { pieces, unattributed };
}
