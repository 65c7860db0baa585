import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { imageExtension } from '../../bridge/inbound-files/image-extension.js';
import { saveStream, TooLarge } from '../../bridge/inbound-files/save-stream.js';
import { sniffMime } from '../../bridge/inbound-files/sniff-mime.js';
import type { InboundImage, InboundMessage } from '../../bridge/inbound-message.js';
import type { Config } from '../../core/config-schema.js';
import { formatBytes } from '../../core/format-bytes.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { makePrivateDir } from '../../core/private-dir.js';
import { dingtalkMessages } from './dingtalk-messages.js';

export interface DownloadPicturesOptions {
  /** `messageFiles/download`: the short-lived URL behind a picture's `downloadCode`. */
  downloadUrl(downloadCode: string): Promise<string>;
  imagesDir: string;
  images: Config['images'];
  lang: Language;
  logger: Logger;
}

/** Not an image by its first bytes (whatever the server said): nothing is kept. */
class NotAnImage extends Error {}

/** Streams one picture into a 0600 file of its own, stopping past `max` bytes (then nothing is kept). */
async function downloadOne(o: DownloadPicturesOptions, code: string): Promise<string> {
  const url = await o.downloadUrl(code);
  const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  if (!res.ok || !res.body) throw new Error(`picture download answered HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  const base = `dingtalk-${Date.now()}-${randomBytes(6).toString('hex')}`;
  const saved = await saveStream({
    stream: Readable.fromWeb(res.body as Parameters<typeof Readable.fromWeb>[0]),
    dir: o.imagesDir,
    maxBytes: o.images.max_size_bytes,
    ...(Number.isFinite(length) ? { contentLength: length } : {}),
    name: (head) => `${base}${imageExtension(res.headers.get('content-type') ?? undefined, head)}`,
  });
  if (!sniffMime(saved.head).startsWith('image/')) {
    await fs.rm(saved.path, { force: true });
    throw new NotAnImage();
  }
  return saved.path;
}

/**
 * `Channel.prepare` for pictures: each `downloadCode` of the message fetched
 * (`messageFiles/download`, then its URL) into `imagesDir` (at most `images.max_size_bytes`,
 * whole or not at all, an image by its bytes) with `localPath` filled in. A failed, oversized or
 * disabled picture adds one line to the text saying so; the message is never dropped and this
 * never throws. The download URL is never logged.
 */
export async function downloadPictures(message: InboundMessage, o: DownloadPicturesOptions): Promise<InboundMessage> {
  if (message.images.length === 0) return message;
  const t = dingtalkMessages(o.lang);
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
          const what = err instanceof NotAnImage ? 'not an image' : (err as Error).message;
          o.logger.warn('picture download failed', { messageId: message.id, err: what });
        }
      }
    }
    images.push({ key: image.key });
    notes.push(t('imageFailed', { n: i + 1, reason }));
  }
  return { ...message, images, text: [message.text, ...notes].filter((s) => s !== '').join('\n') };
}
