import type { ReplyStream } from '../channel.js';
import type { ReplyTarget } from '../inbound-message.js';
import type { CardButton } from '../reply-model.js';
import { Deliveries } from '../spool/deliveries.js';
import type { SpoolRecord } from '../spool/spool-record.js';
import type { PipelineDeps } from './pipeline-deps.js';

/**
 * Where the reply to a record goes, with the session it belongs to when known: the routed session,
 * else the new session's reported id, else its planned one (none for a command's reply).
 */
export function replyTargetOf(record: SpoolRecord): ReplyTarget {
  const m = record.message;
  const sessionId =
    record.target?.kind === 'session' ? record.target.sessionId : (record.sessionId ?? record.plannedSessionId);
  return {
    channel: m.channel,
    userId: m.userId,
    chatId: m.chatId,
    replyTo: m.platformMessageId,
    ...(sessionId ? { sessionId } : {}),
  };
}

/**
 * Opens the record's streamed reply (chunk 0), or re-opens it after a restart: the platform
 * message id is saved in the delivery record as soon as it is known, so a re-run streams into the
 * same card instead of sending a second one (the same holds for a "Queued" card sent as chunk 0
 * while the message waited). `buttons` show on the card while it streams (Stop).
 */
export async function openStreamFor(
  record: SpoolRecord,
  deps: PipelineDeps,
  buttons: CardButton[] = [],
): Promise<ReplyStream> {
  const delivery = await deps.deliveries.load(record.message.id);
  const chunk = Deliveries.chunk(delivery, 0, true);
  const stream = await deps
    .channel(record.message.channel)
    .outbox.openStream(replyTargetOf(record), chunk.requestUuid, {
      ...(chunk.platformMessageId ? { existingMessageId: chunk.platformMessageId } : {}),
      ...(buttons.length > 0 ? { buttons } : {}),
    });
  if (chunk.platformMessageId !== stream.messageId) {
    chunk.platformMessageId = stream.messageId;
    await deps.deliveries.save(delivery);
  }
  return stream;
}
