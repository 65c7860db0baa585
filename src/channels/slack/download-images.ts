import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { imageExtension } from '../../bridge/inbound-files/image-extension.js';
import { saveStream, TooLarge } from '../../bridge/inbound-files/save-stream.js';
import type { InboundImage, InboundMessage } from '../../bridge/inbound-message.js';
import type { Config } from '../../core/config-schema.js';
import { formatBytes } from '../../core/format-bytes.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { makePrivateDir } from '../../core/private-dir.js';
import { slackMessages } from './slack-messages.js';

export interface DownloadImagesOptions {
  /** Sent as `Authorization: Bearer` — only to the origins in `allowedOrigins`, never logged. */
  botToken: string;
  /** Where a file's private URL may point: Slack's file host and the Web API's own origin. */
  allowedOrigins: readonly string[];
  imagesDir: string;
  images: Config['images'];
  lang: Language;
  logger: Logger;
}

class NotAnImage extends Error {}

/** Streams one image into a 0600 file of its own (at most `max` bytes; its type judged by its bytes). */
async function downloadOne(o: DownloadImagesOptions, url: string): Promise<string> {
  if (!o.allowedOrigins.includes(new URL(url).origin)) throw new Error('file URL outside Slack');
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${o.botToken}` },
    redirect: 'error',
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok || !res.body) throw new Error(`file download answered HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  const base = `slack-${Date.now()}-${randomBytes(6).toString('hex')}`;
  const saved = await saveStream({
    stream: Readable.fromWeb(res.body as Parameters<typeof Readable.fromWeb>[0]),
    dir: o.imagesDir,
    maxBytes: o.images.max_size_bytes,
    ...(Number.isFinite(length) ? { contentLength: length } : {}),
    name: (head) => {
      const ext = imageExtension(undefined, head);
      if (ext === '.bin') throw new NotAnImage();
      return `${base}${ext}`;
    },
  });
  return saved.path;
}

/**
 * `Channel.prepare` for images shared in the DM: each downloaded from its private URL with the
 * bot token into `imagesDir` (at most `images.max_size_bytes`, whole or not at all, its type
 * sniffed from its first bytes, never taken from Slack's `mimetype`), `localPath` filled in. A
 * failed, oversized, non-image or disabled one adds a line to the text saying so; the message is
 * never dropped and this never throws.
 */
export async function downloadImages(message: InboundMessage, o: DownloadImagesOptions): Promise<InboundMessage> {
  if (message.images.length === 0) return message;
  const t = slackMessages(o.lang);
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
        images.push({ ...image, localPath: await downloadOne(o, image.key) });
        continue;
      } catch (err) {
        if (err instanceof TooLarge) reason = t('imageTooLarge', { size: formatBytes(o.images.max_size_bytes) });
        else {
          reason = t('imageDownloadError');
          o.logger.warn('image download failed', { messageId: message.id, err: (err as Error).message });
        }
      }
    }
    images.push({ key: image.key });
    notes.push(t('imageFailed', { n: i + 1, reason }));
  }
  return { ...message, images, text: [message.text, ...notes].filter((s) => s !== '').join('\n') };
}
