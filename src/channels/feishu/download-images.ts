import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { InboundImage, InboundMessage } from '../../bridge/inbound-message.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { formatBytes } from '../../core/format-bytes.js';
import { makePrivateDir } from '../../core/private-dir.js';
import { feishuMessages } from './feishu-messages.js';
import { imageExtension } from '../../bridge/inbound-files/image-extension.js';
import { saveStream, TooLarge } from '../../bridge/inbound-files/save-stream.js';

/** Opens the bytes of image `key` of message `messageId` (`FeishuApi.downloadImage`). */
export type ImageSource = (
  messageId: string,
  key: string,
) => Promise<{ stream: Readable; contentType?: string; contentLength?: number }>;

export interface DownloadImagesOptions {
  download: ImageSource;
  /** `~/.cc-linker/images` (created 0700). */
  imagesDir: string;
  images: Config['images'];
  lang: Language;
  logger: Logger;
}

function safePart(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
}

async function imagesDirectory(dir: string): Promise<string> {
  await makePrivateDir(dir);
  return fs.realpath(dir);
}

/** Streams one image to `<dir>/<message id>_<key><ext>` (0600), at most `images.max_size_bytes`. */
async function downloadOne(o: DownloadImagesOptions, dir: string, messageId: string, key: string): Promise<string> {
  const { stream, contentType, contentLength } = await o.download(messageId, key);
  const base = `${safePart(messageId)}_${safePart(key)}`;
  const saved = await saveStream({
    stream,
    dir,
    maxBytes: o.images.max_size_bytes,
    ...(contentLength === undefined ? {} : { contentLength }),
    name: (head) => `${base}${imageExtension(contentType, head)}`,
  });
  return saved.path;
}

/**
 * `Channel.prepare` for images: downloads each image of `message` into `imagesDir` (at most
 * `images.max_size_bytes` each) and fills in `localPath`. A failed, oversized or disabled image keeps no
 * `localPath` and adds one line to the text saying so (zh/en), so Claude and the user know;
 * the message itself is never dropped and this never throws.
 */
export async function downloadImages(message: InboundMessage, o: DownloadImagesOptions): Promise<InboundMessage> {
  if (message.images.length === 0) return message;
  const t = feishuMessages(o.lang);
  const notes: string[] = [];
  const images: InboundImage[] = [];
  let dir: string | undefined;
  for (const [i, image] of message.images.entries()) {
    const n = i + 1;
    if (image.localPath) {
      images.push(image);
      continue;
    }
    let reason: string;
    if (!o.images.enabled) {
      reason = t('imageDisabled');
    } else {
      try {
        dir ??= await imagesDirectory(o.imagesDir);
        images.push({ ...image, localPath: await downloadOne(o, dir, message.platformMessageId, image.key) });
        continue;
      } catch (err) {
        if (err instanceof TooLarge) {
          reason = t('imageTooLarge', { size: formatBytes(o.images.max_size_bytes) });
        } else {
          reason = t('imageDownloadError');
          o.logger.warn('image download failed', { messageId: message.id, key: image.key, err });
        }
      }
    }
    images.push({ key: image.key });
    notes.push(t('imageFailed', { n, reason }));
  }
  const text = [message.text, ...notes].filter((s) => s !== '').join('\n');
  return { ...message, images, text };
}
