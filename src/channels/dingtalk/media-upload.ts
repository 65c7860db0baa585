import type { Language } from '../../core/i18n.js';
import { DingTalkApiError } from './dingtalk-api-error.js';

/**
 * DingTalk's documented cap for `media/upload`: 20 MB for an image and for a file
 * (docs/design.md#dingtalk). The channel refuses a larger file before uploading a byte.
 */
export const DINGTALK_MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** The upload types the channel uses: a picture shown inline, or any other file. */
export type MediaType = 'image' | 'file';

/** Legacy answers meaning the access token is not (or no longer) valid: renew it and try once more. */
const TOKEN_ERRCODES = new Set([40014, 42001]);
/** Legacy "system busy": worth another try later. */
const BUSY_ERRCODE = -1;

export interface MediaUploadRequest {
  /** `dingtalk.oapi_base`, no trailing slash. */
  oapiBase: string;
  /** The app access token; the legacy host takes it in the query, so the URL is never shown anywhere. */
  token: string;
  type: MediaType;
  bytes: Buffer;
  name: string;
  lang: Language;
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

/**
 * One `POST <oapi_base>/media/upload?access_token=…&type=…` with the bytes as the multipart field
 * `media`; returns DingTalk's `media_id`. The legacy host answers HTTP 200 with an `errcode`: a
 * token errcode becomes status 401 and "system busy" status 503, so `DingTalkApi` renews the
 * token or retries as for its other calls. Every error is built from the status and DingTalk's
 * `errcode` / `errmsg` only — never from the URL (it holds the token), and without the network
 * error as a cause (it may name the URL too).
 */
export async function postMedia(r: MediaUploadRequest): Promise<string> {
  const op = 'media/upload';
  const query = new URLSearchParams({ access_token: r.token, type: r.type });
  const form = new FormData();
  form.append('media', new Blob([r.bytes]), r.name);
  let res: Response;
  try {
    res = await fetch(`${r.oapiBase}/media/upload?${query.toString()}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: form,
      signal: AbortSignal.timeout(r.timeoutMs ?? 120_000),
    });
  } catch (err) {
    const code = (err as { cause?: { code?: unknown } }).cause?.code;
    throw new DingTalkApiError(op, 0, `network request failed${typeof code === 'string' ? ` (${code})` : ''}`, r.lang);
  }
  const body = (await res.json().catch(() => ({}))) as Json;
  const errcode = typeof body.errcode === 'number' ? body.errcode : 0;
  const errmsg = typeof body.errmsg === 'string' ? body.errmsg : '';
  if (!res.ok) throw new DingTalkApiError(op, res.status, errcode ? `errcode ${errcode}: ${errmsg}` : errmsg, r.lang);
  if (errcode !== 0) {
    const status = TOKEN_ERRCODES.has(errcode) ? 401 : errcode === BUSY_ERRCODE ? 503 : 400;
    throw new DingTalkApiError(op, status, `errcode ${errcode}: ${errmsg}`, r.lang);
  }
  if (typeof body.media_id !== 'string' || body.media_id === '')
    throw new DingTalkApiError(op, 200, 'no media_id in the answer', r.lang);
  return body.media_id;
}
