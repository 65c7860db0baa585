import { deliveryUuid } from '../../src/bridge/spool/message-key.js';
import type { FakeFeishu, SentMessage } from '../../test/fakes/fake-feishu/fake-feishu-server.js';
import { cardState, MAX_CHUNKS, NOTICE_TAGS } from './chat-titles.js';
import type { ChaosMessage, PieceState, ReplyPiece, ReplyView } from './chat-user.js';

function stateOf(sent: SentMessage, text: string): PieceState {
  if (sent.msg_type === 'text' || sent.msg_type === 'post') return 'notice';
  return cardState(text.split('\n', 1)[0] ?? '');
}

/** The delivery uuids a message's replies may carry: chunk index → uuid, and the notice tags. */
export function expectedUuids(bridgeId: string): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < MAX_CHUNKS; i += 1) map.set(deliveryUuid(bridgeId, i), i);
  for (const tag of NOTICE_TAGS) map.set(deliveryUuid(bridgeId, tag), -1);
  return map;
}

/**
 * Every bot message the fake Feishu recorded, attributed to the user message it answers: replies
 * thread on it (`parent_id`); a reply Feishu refused falls back to a new message, found by its
 * delivery uuid.
 */
export class FeishuReplies {
  private readonly uuidOwner = new Map<string, { m: ChaosMessage; chunk: number }>();
  private readonly byOm = new Map<string, ChaosMessage>();

  constructor(
    private readonly fake: FakeFeishu,
    private readonly messages: readonly ChaosMessage[],
  ) {}

  /**
   * Pieces per user message (by `om_` id) and the bot messages attributed to none; with `only`,
   * just the pieces of those user messages (rendering every card on each poll would be wasteful).
   */
  build(only?: ReadonlySet<string>): ReplyView {
    for (const m of this.messages) {
      if (this.byOm.has(m.messageId)) continue;
      this.byOm.set(m.messageId, m);
      for (const [uuid, chunk] of expectedUuids(m.bridgeId)) this.uuidOwner.set(uuid, { m, chunk });
    }
    const pieces = new Map<string, ReplyPiece[]>();
    let unattributed = 0;
    for (const s of this.fake.sent) {
      const byUuid = s.uuid ? this.uuidOwner.get(s.uuid) : undefined;
      const owner = (s.parent_id ? this.byOm.get(s.parent_id) : undefined) ?? byUuid?.m;
      if (!owner) {
        unattributed += 1;
        continue;
      }
      if (only && !only.has(owner.messageId)) continue;
      let text = '';
      try {
        text = this.fake.textOf(s);
      } catch {
        text = '';
      }
      const piece: ReplyPiece = {
        messageId: s.message_id,
        ...(s.uuid ? { uuid: s.uuid } : {}),
        state: stateOf(s, text),
        text,
      };
      if (byUuid && byUuid.m === owner) piece.chunk = byUuid.chunk;
      const list = pieces.get(owner.messageId) ?? [];
      list.push(piece);
      pieces.set(owner.messageId, list);
    }
    return { pieces, unattributed };
  }
}
