import { sendFilesNotice } from '../../bridge/inbound-files/send-files-notice.js';
import type { ChannelOutbox } from '../../bridge/channel.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import { downloadFiles } from '../../bridge/inbound-files/download-files.js';
import { downloadImages } from '../../bridge/inbound-files/download-images.js';
import { fetchDownload } from '../../bridge/inbound-files/fetch-download.js';
import { voiceMessages } from '../../bridge/voice/voice-messages.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { DingTalkApi } from './dingtalk-api.js';

export interface PrepareDeps {
  api: Pick<DingTalkApi, 'downloadUrl'>;
  /** Where the notice about a file not kept goes (once per message). */
  outbox: Pick<ChannelOutbox, 'send'>;
  imagesDir: string;
  images: Config['images'];
  attachmentsDir: string;
  files: Config['files'];
  /** `voice.enabled = false`: a voice message DingTalk transcribed is answered "voice is off". */
  voice: Pick<Config['voice'], 'enabled'>;
  lang: Language;
  logger: Logger;
}

/**
 * `Channel.prepare` on DingTalk: every `downloadCode` (pictures, files, audio, video) is turned
 * into a short-lived URL by `messageFiles/download` and streamed by the shared helpers — pictures
 * into `images/` (kept only when their bytes are an image), files into the message's own folder
 * under `attachments/` (capped by `files.max_size_bytes`, 0600, named safely). A file not kept is
 * named in a notice sent to the user at once (`<message id>:files-notice`, once); the rest of the
 * message still runs. Never throws.
 */
export async function prepareDingTalkMessage(received: InboundMessage, d: PrepareDeps): Promise<InboundMessage> {
  const message =
    received.voice && !d.voice.enabled && received.voice.error === undefined
      ? { ...received, voice: { error: voiceMessages(d.lang)('disabled') } }
      : received;
  const open = async (code: string) => fetchDownload(await d.api.downloadUrl(code));
  const withPictures = await downloadImages(message, {
    open,
    requireImageBytes: true,
    imagesDir: d.imagesDir,
    images: d.images,
    lang: d.lang,
    logger: d.logger,
  });
  const { message: prepared, notice } = await downloadFiles(withPictures, {
    download: (_messageId, code) => open(code),
    attachmentsDir: d.attachmentsDir,
    files: d.files,
    lang: d.lang,
    logger: d.logger,
  });
  await sendFilesNotice(d.outbox, message, notice, d.logger);
  return prepared;
}
