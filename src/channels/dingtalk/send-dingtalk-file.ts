import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileReply } from '../../bridge/reply-model.js';
import type { Language } from '../../core/i18n.js';
import type { JsonLedger } from '../../core/json-ledger.js';
import type { DingTalkApi } from './dingtalk-api.js';
import { DingTalkFileRefused } from './dingtalk-file-refused.js';
import { DINGTALK_MAX_UPLOAD_BYTES } from './media-upload.js';
import { renderMarkdown, titleOf } from './render-markdown.js';

export interface DingTalkFileDeps {
  api: Pick<DingTalkApi, 'uploadMedia' | 'sendFile' | 'sendImage' | 'sendMarkdown'>;
  lang: Language;
  /** The outbox's sent ledger: delivery key → message, and `<key>:media` → the uploaded `media_id`. */
  sent: JsonLedger<string>;
}

/** Picture formats DingTalk shows inline (`media/upload` type `image`: jpg, gif, png, bmp); others go as files. */
const INLINE_IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp']);

/** `sampleFile`'s `fileType`: the extension without its dot, lower case (`file` when there is none). */
export function fileTypeOf(name: string): string {
  return path.extname(name).slice(1).toLowerCase() || 'file';
}

async function once(sent: JsonLedger<string>, key: string, send: () => Promise<string>): Promise<string> {
  const known = await sent.get(key);
  if (known) return known;
  const value = await send();
  await sent.set(key, value);
  return value;
}

/**
 * `ChannelOutbox.sendFile` on DingTalk (docs/design.md#dingtalk): the file is read once, refused
 * when empty or over DingTalk's 20 MB upload cap, uploaded to `media/upload` (once: the `media_id`
 * is kept under `<key>:media`, so a send that failed after the upload does not upload again), then
 * sent as a robot message — an inline picture (`sampleImageMsg`) for jpg/png/gif/bmp images, a
 * file message (`sampleFile`) for everything else — once per delivery key. The caption follows
 * as a markdown message under `<key>:caption`. Returns our message id `<staffId>/<processQueryKey>`.
 */
export async function sendDingTalkFile(
  d: DingTalkFileDeps,
  userId: string,
  file: FileReply,
  key: string,
): Promise<string> {
  const messageId = await once(d.sent, key, async () => {
    const image = file.image && INLINE_IMAGES.has(file.mime);
    const mediaId = await once(d.sent, `${key}:media`, async () => {
      // Judged before reading (a huge file is never loaded) and again on the bytes read.
      const refused = (size: number) => size === 0 || size > DINGTALK_MAX_UPLOAD_BYTES;
      const { size } = await fs.stat(file.path);
      if (refused(size)) throw new DingTalkFileRefused(file.name, size, d.lang);
      const bytes = await fs.readFile(file.path);
      if (refused(bytes.length)) throw new DingTalkFileRefused(file.name, bytes.length, d.lang);
      return d.api.uploadMedia(image ? 'image' : 'file', bytes, file.name);
    });
    const sent = image
      ? await d.api.sendImage(userId, mediaId)
      : await d.api.sendFile(userId, mediaId, file.name, fileTypeOf(file.name));
    return `${userId}/${sent}`;
  });
  if (file.caption) {
    const caption = file.caption;
    await once(d.sent, `${key}:caption`, async () => {
      const { text } = renderMarkdown({ kind: 'text', text: caption }, d.lang);
      return `${userId}/${await d.api.sendMarkdown(userId, titleOf(caption), text)}`;
    });
  }
  return messageId;
}
