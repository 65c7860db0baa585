import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { InboundImage, InboundMessage } from '../inbound-message.js';
import type { Config } from '../../core/config-schema.js';
import { formatBytes } from '../../core/format-bytes.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { makePrivateDir } from '../../core/private-dir.js';
import type { OpenedDownload } from './fetch-download.js';
import { imageExtension } from './image-extension.js';
import { inboundFilesMessages } from './inbound-files-messages.js';
import { saveStream, TooLarge } from './save-stream.js';

export interface DownloadImagesOptions {
  /** Opens image `key` of the message (the platform's own download; it may throw `TooLarge` early). */
  open(key: string): Promise<OpenedDownload>;
  /** The kept file's name without its extension (default `<channel>-<time>-<random>`). */
  baseName?(key: string): string;
  /**
   * Keep only what is an image by its first bytes, whatever the platform said (for platforms
   * whose "images" are any file the user shared).
   */
  requireImageBytes?: boolean;
  /** `~/.cc-linker/images` (created 0700). */
  imagesDir: string;
  images: Config['images'];
  lang: Language;
  logger: Logger;
}

class NotAnImage extends Error {}

/** `dir` created 0700, by its real path (the files are judged inside it). */
async function privateRealDir(dir: string): Promise<string> {
  await makePrivateDir(dir);
  return fs.realpath(dir);
}

/** Streams one image into a 0600 file of its own in `dir`, at most `images.max_size_bytes`. */
async function downloadOne(o: DownloadImagesOptions, dir: string, channel: string, key: string): Promise<string> {
  const { stream, contentType, contentLength } = await o.open(key);
  const base = o.baseName?.(key) ?? `${channel}-${Date.now()}-${randomBytes(6).toString('hex')}`;
  const saved = await saveStream({
    stream,
    dir,
    maxBytes: o.images.max_size_bytes,
    ...(contentLength === undefined ? {} : { contentLength }),
    name: (head) => `${base}${imageExtension(o.requireImageBytes ? undefined : contentType, head)}`,
  });
  if (o.requireImageBytes && saved.path.endsWith('.bin')) {
    await fs.rm(saved.path, { force: true });
    throw new NotAnImage();
  }
  return saved.path;
}

/**
 * `Channel.prepare` for images, on every channel: each image of `message` not yet kept is
 * downloaded into `imagesDir` (at most `images.max_size_bytes`, whole or not at all) and gets its
 * `localPath`. A failed, oversized, non-image or disabled image keeps no `localPath` and adds one
 * line to the text saying so (zh/en), so the agent and the user know; the message itself is never
 * dropped and this never throws. Keys and URLs are never logged (they may name private files).
 */
export async function downloadImages(message: InboundMessage, o: DownloadImagesOptions): Promise<InboundMessage> {
  if (message.images.length === 0) return message;
  const t = inboundFilesMessages(o.lang);
  const notes: string[] = [];
  const images: InboundImage[] = [];
  let dir: string | undefined;
  for (const [i, image] of message.images.entries()) {
    if (image.localPath) {
      images.push(image);
      continue;
    }
    let reason: string;
    if (!o.images.enabled) reason = t('imageDisabled');
    else {
      try {
        const into = (dir ??= await privateRealDir(o.imagesDir));
        images.push({ ...image, localPath: await downloadOne(o, into, message.channel, image.key) });
        continue;
      } catch (err) {
        if (err instanceof TooLarge) reason = t('imageTooLarge', { size: formatBytes(o.images.max_size_bytes) });
        else {
          reason = t('imageDownloadError');
          const what = err instanceof NotAnImage ? 'not an image' : (err as Error).message;
          o.logger.warn('image download failed', { messageId: message.id, err: what });
        }
      }
    }
    images.push({ key: image.key });
    notes.push(t('imageFailed', { n: i + 1, reason }));
  }
  return { ...message, images, text: [message.text, ...notes].filter((s) => s !== '').join('\n') };
}
