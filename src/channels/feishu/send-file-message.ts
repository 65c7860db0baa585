import fs from 'node:fs/promises';
import type { FileReply } from '../../bridge/reply-model.js';
import type { FeishuApi, FeishuFileType, FeishuTarget } from './feishu-api.js';
import { FeishuApiError } from './feishu-api-error.js';

/** Feishu's upload limits: images up to 10 MB (larger ones go as files), files up to 30 MB. */
export const FEISHU_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const FEISHU_MAX_FILE_BYTES = 30 * 1024 * 1024;

const FILE_TYPES: Record<string, FeishuFileType> = {
  pdf: 'pdf',
  doc: 'doc',
  docx: 'doc',
  xls: 'xls',
  xlsx: 'xls',
  ppt: 'ppt',
  pptx: 'ppt',
  mp4: 'mp4',
};

/** `im.v1.file.create`'s `file_type` for a file: pdf / doc / xls / ppt / mp4 by type, else `stream`. */
export function feishuFileType(file: Pick<FileReply, 'name' | 'mime'>): FeishuFileType {
  if (file.mime === 'application/pdf') return 'pdf';
  if (file.mime === 'video/mp4') return 'mp4';
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  const byExt = FILE_TYPES[ext];
  // A name ending .pdf / .mp4 whose bytes say otherwise is sent as a plain stream.
  return byExt && byExt !== 'pdf' && byExt !== 'mp4' ? byExt : 'stream';
}

/**
 * Sends a checked file as one Feishu message: an image up to 10 MB is uploaded with
 * `im.v1.image.create` and sent as `msg_type: image`, anything else with `im.v1.file.create` and
 * sent as `msg_type: file`; the caption follows as a text message. The message creates carry
 * `idempotencyKey` (and `<key>:caption`) as Feishu's uuid, so a retried send shows one message;
 * an upload repeated by a retry only leaves an unused key on Feishu's side. The file is read once
 * and its size checked again (it may have changed since the check).
 */
export async function sendFileMessage(
  api: FeishuApi,
  target: FeishuTarget,
  file: FileReply,
  idempotencyKey: string,
  /** The caption as a rendered `text` message content (mentions neutralised), if any. */
  captionContent?: string,
): Promise<{ messageId: string }> {
  const bytes = await fs.readFile(file.path);
  if (bytes.length === 0 || bytes.length > FEISHU_MAX_FILE_BYTES)
    throw new FeishuApiError('im.file.create', { kind: 'rejected', msg: `file size ${bytes.length} not accepted` }, 1);
  let sent;
  if (file.image && bytes.length <= FEISHU_MAX_IMAGE_BYTES) {
    const imageKey = await api.uploadImage(bytes);
    sent = await api.send(target, 'image', JSON.stringify({ image_key: imageKey }), idempotencyKey);
  } else {
    const fileKey = await api.uploadFile(bytes, file.name, feishuFileType(file));
    sent = await api.send(target, 'file', JSON.stringify({ file_key: fileKey }), idempotencyKey);
  }
  if (captionContent)
    await api.send({ ...target, replyTo: sent.messageId }, 'text', captionContent, `${idempotencyKey}:caption`);
  return { messageId: sent.messageId };
}
