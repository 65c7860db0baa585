import { randomBytes } from 'node:crypto';

/**
 * The legacy media store of the fake DingTalk: `POST /media/upload?access_token=…&type=…` with
 * the multipart field `media` (the token in the query must be one the fake handed out; a bad one
 * answers HTTP 200 `errcode 40014` as the legacy host does), and the check of the robot messages
 * that name an upload (`sampleFile.mediaId`, `sampleImageMsg.photoURL`).
 */

/** DingTalk's documented `media/upload` cap for images and files (20 MB). */
export const MAX_UPLOAD = 20 * 1024 * 1024;

export interface Upload {
  type: string;
  name: string;
  bytes: Buffer;
  mediaId: string;
  /** The `access_token` the upload carried (so a test can look for it where it must not be). */
  token: string;
}

type Json = Record<string, unknown>;

export class FakeMediaStore {
  readonly uploads: Upload[] = [];
  /** Refuse uploads larger than this (the fake answers errcode 40006; the figure is DingTalk's). */
  maxBytes = MAX_UPLOAD;

  /** One upload: `[status, body]` to answer. */
  async upload(contentType: string, raw: Buffer, query: URLSearchParams, tokens: Set<string>): Promise<[number, Json]> {
    const token = query.get('access_token') ?? '';
    if (!tokens.has(token)) return [200, { errcode: 40014, errmsg: '不合法的access_token' }];
    const type = query.get('type') ?? '';
    if (!['image', 'voice', 'video', 'file'].includes(type))
      return [200, { errcode: 40004, errmsg: '不合法的媒体文件类型' }];
    let media: File | string | null;
    try {
      media = (await new Response(raw, { headers: { 'content-type': contentType } }).formData()).get('media');
    } catch {
      return [200, { errcode: 40035, errmsg: 'not multipart/form-data' }];
    }
    if (!media || typeof media === 'string') return [200, { errcode: 40035, errmsg: 'no media part' }];
    const bytes = Buffer.from(await media.arrayBuffer());
    if (bytes.length === 0 || bytes.length > this.maxBytes)
      return [200, { errcode: 40006, errmsg: `fake: file size ${bytes.length} not accepted` }];
    const mediaId = `@lA${randomBytes(9).toString('base64url')}`;
    this.uploads.push({ type, name: media.name, bytes, mediaId, token });
    return [200, { errcode: 0, errmsg: 'ok', type, media_id: mediaId, created_at: Date.now() }];
  }

  /** Why a robot message naming an upload is refused (undefined: fine, or it names none). */
  refuse(msgKey: string, param: Json): string | undefined {
    const known = (id: unknown, type: string) => this.uploads.some((u) => u.mediaId === id && u.type === type);
    if (msgKey === 'sampleFile') {
      if (!known(param.mediaId, 'file')) return 'sampleFile.mediaId is not an uploaded file';
      if (typeof param.fileName !== 'string' || typeof param.fileType !== 'string')
        return 'sampleFile needs fileName and fileType';
    }
    if (msgKey === 'sampleImageMsg' && !known(param.photoURL, 'image') && !/^https?:/.test(String(param.photoURL)))
      return 'sampleImageMsg.photoURL is neither an uploaded image nor a URL';
    return undefined;
  }
}
