import { randomBytes } from 'node:crypto';
import { imageExtension } from '../../bridge/inbound-files/image-extension.js';
import { saveStream, TooLarge } from '../../bridge/inbound-files/save-stream.js';
import type { InboundImage, InboundMessage } from '../../bridge/inbound-message.js';
import { formatBytes } from '../../core/format-bytes.js';
import type { Config } from '../../core/config-schema.js';
import type { Logger } from '../../core/logger.js';
import { makePrivateDir } from '../../core/private-dir.js';
import { openTelegramFile, type TelegramFiles } from './open-telegram-file.js';
import { telegramMessages } from './telegram-messages.js';

export interface DownloadPhotosOptions extends TelegramFiles {
  imagesDir: string;
  images: Config['images'];
  logger: Logger;
}

/** Streams the photo into a 0600 file of its own, stopping past `max` bytes (then nothing is kept). */
async function downloadOne(o: DownloadPhotosOptions, dir: string, fileId: string): Promise<string> {
  const max = o.images.max_size_bytes;
  const { stream, contentLength, contentType } = await openTelegramFile(o, fileId, max);
  const base = `telegram-${Date.now()}-${randomBytes(6).toString('hex')}`;
  const saved = await saveStream({
    stream,
    dir,
    maxBytes: max,
    ...(contentLength !== undefined ? { contentLength } : {}),
    name: (head) => `${base}${imageExtension(contentType, head)}`,
  });
  return saved.path;
}

/**
 * `Channel.prepare` for photos: each photo of the message downloaded into `imagesDir` (at most
 * `images.max_size_bytes`, whole or not at all) with `localPath` filled in. A failed, oversized
 * or disabled photo adds one line to the text saying so; the message is never dropped and this
 * never throws.
 */
export async function downloadPhotos(message: InboundMessage, o: DownloadPhotosOptions): Promise<InboundMessage> {
  if (message.images.length === 0) return message;
  const t = telegramMessages(o.lang);
  const images: InboundImage[] = [];
  const notes: string[] = [];
  for (const [i, image] of message.images.entries()) {
    if (image.localPath) {
      images.push(image);
      continue;
    }
    let reason: string;
    if (!o.images.enabled) reason = t('imageDisabled');
    else {
      try {
        await makePrivateDir(o.imagesDir);
        images.push({ ...image, localPath: await downloadOne(o, o.imagesDir, image.key) });
        continue;
      } catch (err) {
        if (err instanceof TooLarge) reason = t('imageTooLarge', { size: formatBytes(o.images.max_size_bytes) });
        else {
          reason = t('imageDownloadError');
          o.logger.warn('photo download failed', { messageId: message.id, err: (err as Error).message });
        }
      }
    }
    images.push({ key: image.key });
    notes.push(t('imageFailed', { n: i + 1, reason }));
  }
  return { ...message, images, text: [message.text, ...notes].filter((s) => s !== '').join('\n') };
}
