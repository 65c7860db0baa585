import { apiError, apiOk, FeishuCode, type ApiReply } from './api-reply.js';

/** One upload the fake accepted: which endpoint, the key it answered and the bytes it got. */
export interface UploadRecord {
  kind: 'image' | 'file';
  key: string;
  bytes: Buffer;
  /** `file_type` / `file_name` (files) or `image_type` (images), as sent. */
  fields: Record<string, string>;
}

const IMAGE_LIMIT = 10 * 1024 * 1024;
const FILE_LIMIT = 30 * 1024 * 1024;
const FILE_TYPES = new Set(['opus', 'mp4', 'pdf', 'doc', 'xls', 'ppt', 'stream']);

/**
 * `POST /open-apis/im/v1/images` and `/open-apis/im/v1/files`: multipart uploads answering
 * `{code: 0, data: {image_key}}` / `{…{file_key}}` on the wire. The SDK's `image.create` /
 * `file.create` return the body's `data` (its HTTP instance already unwrapped the response), so the
 * caller gets `{image_key}` / `{file_key}` directly; a body with the key at the top level would
 * make the SDK return null.
 * The `file` / `image` part needs no filename (the SDK sends a Buffer without one). Limits: images
 * 10 MB, files 30 MB, no empty file, `file_type` one of Feishu's seven.
 */
export class FakeUploads {
  readonly uploads: UploadRecord[] = [];
  private next = 0;

  /** The reply when `pathname` is an upload endpoint, else undefined (not ours). */
  route(method: string, pathname: string, contentType: string | undefined, body: Buffer): ApiReply | undefined {
    const kind = pathname === '/open-apis/im/v1/images' ? 'image' : pathname === '/open-apis/im/v1/files' ? 'file' : '';
    if (method !== 'POST' || kind === '') return undefined;
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
    if (!boundary) return apiError(400, FeishuCode.invalidParam, 'not multipart/form-data');
    const parts = parseMultipart(body, boundary[1] ?? boundary[2] ?? '');
    const fields: Record<string, string> = {};
    for (const [name, value] of parts) if (name !== kind) fields[name] = value.toString('utf8');
    const bytes = parts.get(kind);
    if (!bytes || bytes.length === 0) return apiError(400, FeishuCode.invalidParam, `${kind} is empty`);
    if (bytes.length > (kind === 'image' ? IMAGE_LIMIT : FILE_LIMIT))
      return apiError(400, FeishuCode.invalidParam, `${kind} too large`);
    if (kind === 'file' && (!FILE_TYPES.has(fields.file_type ?? '') || !fields.file_name))
      return apiError(400, FeishuCode.invalidParam, 'file_type / file_name invalid');
    if (kind === 'image' && fields.image_type !== 'message')
      return apiError(400, FeishuCode.invalidParam, 'image_type invalid');
    this.next += 1;
    const key = `${kind === 'image' ? 'img_v3_' : 'file_v3_'}${String(this.next).padStart(4, '0')}`;
    this.uploads.push({ kind, key, bytes, fields });
    return apiOk(kind === 'image' ? { image_key: key } : { file_key: key });
  }
}

/** The parts of a multipart body by field name (the last one wins). */
function parseMultipart(body: Buffer, boundary: string): Map<string, Buffer> {
  const parts = new Map<string, Buffer>();
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    const end = body.indexOf(delimiter, start);
    if (end < 0) break;
    const part = body.subarray(start + 2, end - 2); // skip CRLF after the delimiter and before the next
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const headers = part.subarray(0, split).toString('utf8');
      const name = /name="([^"]*)"/.exec(headers)?.[1];
      if (name) parts.set(name, Buffer.from(part.subarray(split + 4)));
    }
    at = end;
  }
  return parts;
}
