import type { Logger } from '../../core/logger.js';
import type { FileSender, SendFileRequest } from '../../engine/engine-types.js';
import type { ChannelOutbox } from '../channel.js';
import type { ReplyTarget } from '../inbound-message.js';
import { formatBytes } from '../../core/format-bytes.js';
import { fileMessages } from './file-messages.js';
import { checkSendFile, type SendFilePolicy } from './send-file-policy.js';

export interface FileSenderOptions {
  outbox: ChannelOutbox;
  target: ReplyTarget;
  /**
   * Stable per turn (the message's id): the n-th file of the turn is sent under `<key>:file:<n>`,
   * so a re-run of the same turn after a crash does not show a file twice where the platform
   * de-duplicates.
   */
  keyPrefix: string;
  policy: SendFilePolicy;
  logger: Logger;
}

/** Longest caption kept (a chat caption, not a document). */
const MAX_CAPTION = 1000;

/**
 * The `FileSender` of one turn: each `send_file` call is checked (`checkSendFile`) and, when it
 * passes, handed to the channel's `sendFile`. Never throws: the agent always gets a sentence
 * saying what was sent or why not.
 */
export function createFileSender(o: FileSenderOptions): FileSender {
  const t = fileMessages(o.policy.lang);
  let count = 0;
  return {
    async sendFile(request: SendFileRequest) {
      const sendFile = o.outbox.sendFile?.bind(o.outbox);
      if (!sendFile) return { ok: false, text: t('noChannel') };
      const check = await checkSendFile(request.path, o.policy);
      if (!check.ok) {
        o.logger.info('send_file refused', { code: check.code });
        return { ok: false, text: check.message };
      }
      const caption = request.caption?.trim().slice(0, MAX_CAPTION);
      const file = { ...check.file, ...(caption ? { caption } : {}) };
      count += 1;
      try {
        await sendFile(o.target, file, `${o.keyPrefix}:file:${count}`);
      } catch (err) {
        o.logger.warn('send_file failed', { err, name: file.name });
        const reason = err instanceof Error ? err.message.slice(0, 200) : 'error';
        return { ok: false, text: t('failed', { name: file.name, reason }) };
      }
      const kind = t(file.image ? 'kindImage' : 'kindFile');
      return { ok: true, text: t('sent', { kind, name: file.name, size: formatBytes(file.size) }) };
    },
  };
}
