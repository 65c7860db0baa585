import { redact } from '../../core/redact.js';
import type { Logger } from '../../core/logger.js';
import type { ChannelOutbox } from '../channel.js';
import type { InboundMessage } from '../inbound-message.js';

/**
 * Tells the user at once about files of `message` that could not be kept (`downloadFiles`' notice),
 * once per message (`<id>:files-notice`); the rest of the message still runs. `threaded` replies to
 * the message where the platform threads replies. A failure to tell is logged, never thrown.
 */
export async function sendFilesNotice(
  outbox: Pick<ChannelOutbox, 'send'>,
  message: InboundMessage,
  notice: string | undefined,
  logger: Logger,
  threaded = false,
): Promise<void> {
  if (!notice) return;
  const target = {
    channel: message.channel,
    userId: message.userId,
    chatId: message.chatId,
    ...(threaded ? { replyTo: message.platformMessageId } : {}),
  };
  await outbox
    .send(target, { kind: 'text', text: notice }, `${message.id}:files-notice`)
    .catch((err: unknown) =>
      logger.warn('file notice could not be sent', { messageId: message.id, err: redact(String(err)) }),
    );
}
