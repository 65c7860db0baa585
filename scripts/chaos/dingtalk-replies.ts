import { dingtalkMessages } from '../../src/channels/dingtalk/dingtalk-messages.js';
import { openingMarkdown } from '../../src/channels/dingtalk/dingtalk-stream.js';
import { openingKey, startedKey } from '../../src/channels/dingtalk/reply-opening.js';

/** Key suffixes of a reply's own-opening mark and of its "started" message (`reply-opening.ts`). */
const OPENING = openingKey('');
const STARTED = startedKey('');
import type { SentMessage } from '../../test/fakes/fake-dingtalk/fake-dingtalk-server.js';
import { cardState } from './chat-titles.js';
import type { ChaosMessage, PieceState, ReplyPiece, ReplyView } from './chat-user.js';
import { expectedUuids } from './feishu-replies.js';

/** The reference the bridge's sent ledger keeps for a robot message (`<staffId>/<processQueryKey>`). */
export function refOf(msg: SentMessage): string {
  return `${msg.userId}/${msg.processQueryKey}`;
}

/** What a reply's first message shows while the run works (robot messages cannot be edited); its Stop follows. */
export const DINGTALK_OPENING = openingMarkdown('en').text;
/** What a message that waited shows once its run starts (its "Queued" card cannot become the reply); Stop follows. */
export const DINGTALK_STARTED = dingtalkMessages('en')('started');

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
 * ("⏳ Working on it…") and the "started" message of one that waited are still streaming (their
 * tappable Stop below the sentence); any other message is a notice.
 */
export function dingtalkState(msg: SentMessage): PieceState {
  if (msg.text.startsWith('### ')) return cardState(dingtalkVisible(msg.text.split('\n', 1)[0] ?? ''));
  const running = [DINGTALK_OPENING, DINGTALK_STARTED].some((s) => msg.text === s || msg.text.startsWith(`${s}\n`));
  return running ? 'streaming' : 'notice';
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
 * `<key>:started`, the "started" message of a run that took over its "Queued" card (`<key>:opening`
 * only marks the opening, already named by `<key>`);
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
    // The mark that `<key>` is the reply's own opening names the same message as `<key>`.
    if (key.endsWith(OPENING) && ledger.get(key.slice(0, -OPENING.length)) === ref) continue;
    if (key.startsWith('update:')) {
      updates.push([key, ref, key.slice('update:'.length, key.lastIndexOf(':'))]);
      continue;
    }
    const final = key.endsWith(':final') ? key.slice(0, -':final'.length) : undefined;
    const started = key.endsWith(STARTED) ? key.slice(0, -STARTED.length) : undefined;
    const choice = key.endsWith(':choice') ? byBridgeId.get(key.slice(0, -':choice'.length)) : undefined;
    const owner = choice ? { m: choice, chunk: 0 } : keyOwner.get(final ?? started ?? key);
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
  // A "started" message is replaced by its reply's final card, like the "Queued" card before it.
  for (const [key, ref] of ledger)
    if (key.endsWith(STARTED) && ledger.has(`${key.slice(0, -STARTED.length)}:final`)) replaced.add(ref);
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
