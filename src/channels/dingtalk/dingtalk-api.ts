import { randomUUID } from 'node:crypto';
import type { Language } from '../../core/i18n.js';
import { registerSecret } from '../../core/redact.js';
import { DingTalkApiError } from './dingtalk-api-error.js';
import { postMedia, type MediaType } from './media-upload.js';

export interface DingTalkApiOptions {
  /** `dingtalk.api_base`, no trailing slash. */
  apiBase: string;
  /** `dingtalk.oapi_base`, the legacy host of `media/upload` (default `https://oapi.dingtalk.com`). */
  oapiBase?: string;
  clientId: string;
  clientSecret: string;
  lang: Language;
  /** Tries of a call answered 429 / 5xx / nothing (default 4), and the first wait (default 1 s, doubling). */
  attempts?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

type Json = Record<string, unknown>;

/** Renew the access token this long before DingTalk says it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/**
 * The few DingTalk OpenAPI calls the channel makes (docs/design.md#dingtalk), with Node's fetch:
 * the app access token (`POST /v1.0/oauth2/accessToken`, cached until shortly before it expires
 * and renewed once when a call answers 401), robot messages to one user
 * (`/v1.0/robot/oToMessages/batchSend`: markdown, files, pictures), message-file downloads and
 * media uploads (`postMedia`). A 429, a 5xx or no answer is tried again after a growing wait;
 * every failure is a `DingTalkApiError` without the token.
 */
export class DingTalkApi {
  private token: { value: string; until: number } | undefined;
  private pendingToken: Promise<string> | undefined;
  private readonly now: () => number;

  constructor(private readonly o: DingTalkApiOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The robot code of an internal app's robot is its client id. */
  get robotCode(): string {
    return this.o.clientId;
  }

  /** A valid app access token (fetched when none is cached or it is about to expire). */
  async accessToken(): Promise<string> {
    if (this.token && this.token.until > this.now()) return this.token.value;
    this.pendingToken ??= this.fetchToken().finally(() => (this.pendingToken = undefined));
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const body = await this.request('accessToken', '/v1.0/oauth2/accessToken', {
      appKey: this.o.clientId,
      appSecret: this.o.clientSecret,
    });
    const value = body.accessToken;
    const expireIn = typeof body.expireIn === 'number' ? body.expireIn : 7200;
    if (typeof value !== 'string' || value === '')
      throw new DingTalkApiError('accessToken', 200, 'no accessToken in the answer', this.o.lang);
    // The legacy upload carries it in a URL: whatever might print one masks it.
    registerSecret(value);
    this.token = { value, until: this.now() + Math.max(expireIn * 1000 - TOKEN_MARGIN_MS, 60_000) };
    return value;
  }

  /** A markdown message from the robot to one user; returns DingTalk's `processQueryKey`. */
  async sendMarkdown(staffId: string, title: string, text: string): Promise<string> {
    return this.batchSend(staffId, 'sampleMarkdown', { title, text });
  }

  /** A file message (`sampleFile`) of an uploaded `mediaId`; `fileType` is the extension without the dot. */
  async sendFile(staffId: string, mediaId: string, fileName: string, fileType: string): Promise<string> {
    return this.batchSend(staffId, 'sampleFile', { mediaId, fileName, fileType });
  }

  /** A picture message (`sampleImageMsg`): `photoURL` may be the `mediaId` of an uploaded image. */
  async sendImage(staffId: string, mediaId: string): Promise<string> {
    return this.batchSend(staffId, 'sampleImageMsg', { photoURL: mediaId });
  }

  /** Uploads `bytes` to the legacy media store; returns the `media_id` the file and picture messages take. */
  async uploadMedia(type: MediaType, bytes: Buffer, name: string): Promise<string> {
    const oapiBase = this.o.oapiBase ?? 'https://oapi.dingtalk.com';
    return this.withToken((token) =>
      this.retrying(() => postMedia({ oapiBase, token, type, bytes, name, lang: this.o.lang })),
    );
  }

  private async batchSend(staffId: string, msgKey: string, param: Json): Promise<string> {
    const body = await this.call('batchSend', '/v1.0/robot/oToMessages/batchSend', {
      robotCode: this.robotCode,
      userIds: [staffId],
      msgKey,
      msgParam: JSON.stringify(param),
    });
    const listed = (key: string) => Array.isArray(body[key]) && (body[key] as unknown[]).includes(staffId);
    if (listed('invalidStaffIdList'))
      throw new DingTalkApiError('batchSend', 400, 'the staffId is not a member of the app', this.o.lang);
    if (listed('flowControlledStaffIdList'))
      throw new DingTalkApiError('batchSend', 429, 'flow controlled for this user', this.o.lang);
    if (typeof body.processQueryKey !== 'string')
      throw new DingTalkApiError('batchSend', 200, 'no processQueryKey in the answer', this.o.lang);
    return body.processQueryKey;
  }

  /** The short-lived URL of a file the user sent (a picture's `downloadCode`). */
  async downloadUrl(downloadCode: string): Promise<string> {
    const body = await this.call('messageFiles/download', '/v1.0/robot/messageFiles/download', {
      downloadCode,
      robotCode: this.robotCode,
    });
    if (typeof body.downloadUrl !== 'string')
      throw new DingTalkApiError('messageFiles/download', 200, 'no downloadUrl in the answer', this.o.lang);
    return body.downloadUrl;
  }

  /**
   * Creates an AI card from template `templateId` under our `outTrackId` and delivers it to the
   * robot's single chat with `staffId` (`POST /v1.0/card/instances/createAndDeliver`).
   */
  async createCard(outTrackId: string, templateId: string, staffId: string, params: Record<string, string>) {
    await this.call('card/createAndDeliver', '/v1.0/card/instances/createAndDeliver', {
      cardTemplateId: templateId,
      outTrackId,
      callbackType: 'STREAM',
      cardData: { cardParamMap: params },
      openSpaceId: `dtv1.card//IM_ROBOT.${staffId}`,
      imRobotOpenSpaceModel: { supportForward: true },
      imRobotOpenDeliverModel: { spaceType: 'IM_ROBOT', robotCode: this.robotCode },
    });
  }

  /** Replaces the card's streamed variable `key` with `content` (`PUT /v1.0/card/streaming`, full text). */
  async streamCard(outTrackId: string, key: string, content: string, finalize: boolean): Promise<void> {
    await this.call(
      'card/streaming',
      '/v1.0/card/streaming',
      { outTrackId, guid: randomUUID(), key, content, isFull: true, isFinalize: finalize, isError: false },
      'PUT',
    );
  }

  /** Sets card variables (`PUT /v1.0/card/instances`), e.g. the final content and `flowStatus`. */
  async updateCard(outTrackId: string, params: Record<string, string>): Promise<void> {
    await this.call(
      'card/instances',
      '/v1.0/card/instances',
      { outTrackId, cardData: { cardParamMap: params }, cardUpdateOptions: { updateCardDataByKey: true } },
      'PUT',
    );
  }

  /** A call with the access token; a 401 drops the cached token and tries once more with a new one. */
  private async call(op: string, path: string, payload: Json, method: 'POST' | 'PUT' = 'POST'): Promise<Json> {
    return this.withToken((token) => this.request(op, path, payload, token, method));
  }

  private async withToken<T>(fn: (token: string) => Promise<T>): Promise<T> {
    try {
      return await fn(await this.accessToken());
    } catch (err) {
      if (!(err instanceof DingTalkApiError) || err.status !== 401) throw err;
      this.token = undefined;
      return fn(await this.accessToken());
    }
  }

  private async request(op: string, path: string, payload: Json, token?: string, method = 'POST'): Promise<Json> {
    return this.retrying(() => this.once(op, path, payload, token, method));
  }

  /** `fn` again after a growing wait while it fails with a retryable `DingTalkApiError`. */
  private async retrying<T>(fn: () => Promise<T>): Promise<T> {
    const attempts = this.o.attempts ?? 4;
    let wait = this.o.retryDelayMs ?? 1_000;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof DingTalkApiError) || !err.retryable || attempt >= attempts) throw err;
        await new Promise((r) => setTimeout(r, wait));
        wait *= 2;
      }
    }
  }

  private async once(
    op: string,
    path: string,
    payload: Json,
    token: string | undefined,
    method: string,
  ): Promise<Json> {
    let res: Response;
    try {
      res = await fetch(`${this.o.apiBase}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(token ? { 'x-acs-dingtalk-access-token': token } : {}),
        },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000),
      });
    } catch (err) {
      const code = (err as { cause?: { code?: unknown } }).cause?.code;
      const detail = `network request failed${typeof code === 'string' ? ` (${code})` : ''}`;
      throw new DingTalkApiError(op, 0, detail, this.o.lang, err);
    }
    const body = (await res.json().catch(() => ({}))) as Json;
    if (!res.ok) {
      const code = typeof body.code === 'string' ? body.code : '';
      const message = typeof body.message === 'string' ? body.message : '';
      throw new DingTalkApiError(op, res.status, [code, message].filter(Boolean).join(': '), this.o.lang);
    }
    return body;
  }
}
