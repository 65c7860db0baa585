/**
 * What a fake REST handler answers: a JSON body (`{code, msg, data}` like every Open API call) or
 * raw bytes (resource downloads).
 */
export type ApiReply =
  | { status: number; json: unknown }
  | { status: number; bytes: Buffer; contentType: string; contentDisposition?: string };

/** The HTTP status and Feishu `code` of a refusal. */
export interface ErrorReply {
  status: number;
  code: number;
  msg: string;
}

/**
 * Feishu error codes the fake answers with. Those marked "documented" are from the Open API docs;
 * the CardKit ones are stand-ins (the docs' CardKit code table was not available): code against
 * `code !== 0`, not these numbers.
 */
export const FeishuCode = {
  /** documented: generic invalid parameter of the IM API. */
  invalidParam: 230001,
  /** documented: message / card body over the size limit (text 150 KB, card and post 30 KB). */
  contentTooLong: 230025,
  /** documented: card content could not be created. */
  cardContentFailed: 230099,
  /** documented: per-message update frequency limit (Feishu's answer to the 5 QPS patch limit). */
  messageRateLimited: 230020,
  /** documented: app-level frequency limit. */
  rateLimited: 99991400,
  /** documented: no `Authorization` header. */
  missingToken: 99991661,
  /** documented: tenant access token invalid or expired. */
  invalidToken: 99991663,
  /** stand-in: wrong app_secret at the token endpoint. */
  appSecretInvalid: 10014,
  /** stand-in: resource key not found in that message. */
  resourceNotFound: 234003,
  /** stand-in: CardKit `sequence` not greater than the card's last one. */
  cardSequenceInvalid: 300317,
  /** stand-in: CardKit element content update while `streaming_mode` is off. */
  cardStreamingClosed: 300309,
  /** stand-in: CardKit card id or element id unknown, or bad card JSON. */
  cardInvalid: 300301,
} as const;

/** `{code, msg}` refusal with HTTP `status`. */
export function apiError(status: number, code: number, msg: string): ApiReply {
  return { status, json: { code, msg } };
}

/** `{code:0, msg:'success', data}`. */
export function apiOk(data: unknown): ApiReply {
  return { status: 200, json: { code: 0, msg: 'success', data } };
}

/** Refusal from an {@link ErrorReply}. */
export function refuse(reply: ErrorReply): ApiReply {
  return apiError(reply.status, reply.code, reply.msg);
}

/** Parses `raw` as JSON, or returns `undefined` when it is not a string of valid JSON. */
export function parseJsonString(raw: unknown): unknown {
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
