import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Client } from '@larksuiteoapi/node-sdk';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { callFeishu, type CallFeishuDeps, type RetryPolicy } from './call-feishu.js';
import { FeishuApiError } from './feishu-api-error.js';
import type { CardJson } from './render-card.js';

/** Where a message goes: a reply to `replyTo` when given, else a new message to the user. */
export interface FeishuTarget {
  userId: string;
  chatId?: string;
  replyTo?: string;
}

/** The `file_type` of `im.v1.file.create`. */
export type FeishuFileType = 'opus' | 'mp4' | 'pdf' | 'doc' | 'xls' | 'ppt' | 'stream';

/** Feishu's idempotency `uuid` is at most 50 characters; longer keys are hashed (stably). */
export function feishuUuid(key: string): string {
  return key.length <= 50 ? key : createHash('sha256').update(key).digest('hex').slice(0, 50);
}

export interface FeishuApiOptions {
  client: Client;
  logger: Logger;
  lang: Language;
  /** Drops the cached tenant token (see `createTokenCache`). */
  refreshToken: () => void;
  policy?: Partial<RetryPolicy>;
  sleep?: CallFeishuDeps['sleep'];
  random?: CallFeishuDeps['random'];
}

/** A sent message: its id and, for a de-duplicated resend, the content Feishu kept. */
/** A resource's bytes as a stream that can be read once, with what its headers say. */
export interface DownloadedResource {
  stream: Readable;
  contentType?: string;
  contentLength?: number;
}

export interface SentMessage {
  messageId: string;
  /** `body.content` of the message Feishu returned (the FIRST one when the uuid was seen before). */
  content?: string;
}

function messageOf(
  op: string,
  res: { data?: { message_id?: string; body?: { content?: string } } },
  lang: Language,
): SentMessage {
  const messageId = res.data?.message_id;
  if (!messageId) throw new FeishuApiError(op, { kind: 'rejected', msg: 'no message_id in the answer' }, 1, lang);
  const content = res.data?.body?.content;
  return { messageId, ...(typeof content === 'string' ? { content } : {}) };
}

/**
 * Typed wrappers for the few Open API calls the channel makes, each through `callFeishu` (one
 * retry policy; the same `uuid` on every retry of a create / reply; CardKit ops carry a uuid per
 * operation so a retried op is applied once).
 */
export class FeishuApi {
  constructor(private readonly o: FeishuApiOptions) {}

  /** Runs `fn` under the shared retry policy (optionally tightened for this call). */
  call<T>(op: string, fn: () => Promise<T>, policy?: Partial<RetryPolicy>): Promise<T> {
    return callFeishu(op, fn, {
      policy: { ...this.o.policy, ...policy },
      refreshToken: this.o.refreshToken,
      logger: this.o.logger,
      lang: this.o.lang,
      ...(this.o.sleep ? { sleep: this.o.sleep } : {}),
      ...(this.o.random ? { random: this.o.random } : {}),
    });
  }

  /**
   * Sends one message with idempotency key `uuid`: a reply to `target.replyTo` when set (falling
   * back to a new message if Feishu refuses the reply, e.g. the original was recalled), else a new
   * message to the user's open_id.
   */
  async send(target: FeishuTarget, msgType: string, content: string, uuid: string): Promise<SentMessage> {
    const id = feishuUuid(uuid);
    const client = this.o.client;
    if (target.replyTo) {
      const replyTo = target.replyTo;
      try {
        const res = await this.call('im.message.reply', () =>
          client.im.v1.message.reply({ path: { message_id: replyTo }, data: { msg_type: msgType, content, uuid: id } }),
        );
        return messageOf('im.message.reply', res, this.o.lang);
      } catch (err) {
        if (!(err instanceof FeishuApiError) || !err.rejected) throw err;
        this.o.logger.warn('reply refused, sending a new message instead', { code: err.failure.code });
      }
    }
    const byOpenId = target.userId.startsWith('ou_') || !target.chatId;
    const res = await this.call('im.message.create', () =>
      client.im.v1.message.create({
        params: { receive_id_type: byOpenId ? 'open_id' : 'chat_id' },
        data: {
          receive_id: byOpenId ? target.userId : (target.chatId as string),
          msg_type: msgType,
          content,
          uuid: id,
        },
      }),
    );
    return messageOf('im.message.create', res, this.o.lang);
  }

  /** Replaces the card of an interactive message (≤ 5 updates/s per message on Feishu's side). */
  async patch(messageId: string, content: string, policy?: Partial<RetryPolicy>): Promise<void> {
    const client = this.o.client;
    await this.call(
      'im.message.patch',
      () => client.im.v1.message.patch({ path: { message_id: messageId }, data: { content } }),
      policy,
    );
  }

  /** Creates a CardKit card entity from card JSON 2.0; returns its `card_id`. */
  async createCard(card: CardJson): Promise<string> {
    const client = this.o.client;
    const res = await this.call('cardkit.card.create', () =>
      client.cardkit.v1.card.create({ data: { type: 'card_json', data: JSON.stringify(card) } }),
    );
    const cardId = res.data?.card_id;
    if (!cardId)
      throw new FeishuApiError(
        'cardkit.card.create',
        { kind: 'rejected', msg: 'no card_id in the answer' },
        1,
        this.o.lang,
      );
    return cardId;
  }

  /** Streams the FULL text so far into a markdown element (typewriter when the old text is a prefix). */
  async cardContent(
    cardId: string,
    elementId: string,
    content: string,
    sequence: number,
    policy?: Partial<RetryPolicy>,
  ): Promise<void> {
    const client = this.o.client;
    const uuid = randomUUID();
    await this.call(
      'cardkit.element.content',
      () =>
        client.cardkit.v1.cardElement.content({
          path: { card_id: cardId, element_id: elementId },
          data: { content, sequence, uuid },
        }),
      policy,
    );
  }

  /** Changes a card entity's `config` (e.g. `{streaming_mode: false}`). */
  async cardSettings(
    cardId: string,
    config: Record<string, unknown>,
    sequence: number,
    policy?: Partial<RetryPolicy>,
  ): Promise<void> {
    const client = this.o.client;
    const uuid = randomUUID();
    await this.call(
      'cardkit.card.settings',
      () =>
        client.cardkit.v1.card.settings({
          path: { card_id: cardId },
          data: { settings: JSON.stringify({ config }), sequence, uuid },
        }),
      policy,
    );
  }

  /** Replaces a card entity with new card JSON 2.0. */
  async cardUpdate(cardId: string, card: CardJson, sequence: number, policy?: Partial<RetryPolicy>): Promise<void> {
    const client = this.o.client;
    const uuid = randomUUID();
    await this.call(
      'cardkit.card.update',
      () =>
        client.cardkit.v1.card.update({
          path: { card_id: cardId },
          data: { card: { type: 'card_json', data: JSON.stringify(card) }, sequence, uuid },
        }),
      policy,
    );
  }

  /** Uploads an image for a message (`im.v1.image.create`, ≤ 10 MB); returns its `image_key`. */
  async uploadImage(image: Buffer): Promise<string> {
    const client = this.o.client;
    const res = await this.call('im.image.create', () =>
      client.im.v1.image.create({ data: { image_type: 'message', image } }),
    );
    return this.keyOf('im.image.create', res, 'image_key');
  }

  /** Uploads a file for a message (`im.v1.file.create`, ≤ 30 MB, not empty); returns its `file_key`. */
  async uploadFile(file: Buffer, fileName: string, fileType: FeishuFileType): Promise<string> {
    const client = this.o.client;
    const res = await this.call('im.file.create', () =>
      client.im.v1.file.create({ data: { file_type: fileType, file_name: fileName, file } }),
    );
    return this.keyOf('im.file.create', res, 'file_key');
  }

  /** The key of an upload's answer: the SDK returns the body's `data` (`{file_key}`); `data.file_key` is a fallback. */
  private keyOf(op: string, res: unknown, name: 'image_key' | 'file_key'): string {
    const r = (res ?? {}) as Record<string, unknown> & { data?: Record<string, unknown> };
    const key = r[name] ?? r.data?.[name];
    if (typeof key !== 'string' || key === '')
      throw new FeishuApiError(op, { kind: 'rejected', msg: `no ${name} in the answer` }, 1, this.o.lang);
    return key;
  }

  /**
   * Recognises one piece of speech (`speech_to_text.v1.speech.fileRecognize`): `pcmBase64` is
   * 16 kHz 16-bit LE mono raw PCM of at most 60 s, `fileId` 16 characters of `[A-Za-z0-9_]`, fresh
   * per piece. Returns the text heard ('' for silence). Needs the app scope `speech_to_text:speech`.
   */
  async recognizeSpeech(pcmBase64: string, fileId: string): Promise<string> {
    const client = this.o.client;
    const res = await this.call('speech_to_text.file_recognize', () =>
      client.speech_to_text.v1.speech.fileRecognize({
        data: { speech: { speech: pcmBase64 }, config: { file_id: fileId, format: 'pcm', engine_type: '16k_auto' } },
      }),
    );
    const text = res.data?.recognition_text;
    return typeof text === 'string' ? text : '';
  }

  /** Opens the bytes of an image the user sent (`im.v1.messageResource.get`, type image). */
  downloadImage(messageId: string, key: string): Promise<DownloadedResource> {
    return this.downloadResource(messageId, key, 'image');
  }

  /** Opens the bytes of a file the user sent (`im.v1.messageResource.get`, type file). */
  downloadFile(messageId: string, key: string): Promise<DownloadedResource> {
    return this.downloadResource(messageId, key, 'file');
  }

  private async downloadResource(messageId: string, key: string, kind: 'image' | 'file'): Promise<DownloadedResource> {
    const client = this.o.client;
    const res = await this.call('im.messageResource.get', () =>
      client.im.v1.messageResource
        .get({ path: { message_id: messageId, file_key: key }, params: { type: kind } })
        .catch((err: unknown) => {
          // A refused download's body is an unread stream: release its socket.
          (err as { response?: { data?: { destroy?: () => void } } }).response?.data?.destroy?.();
          throw err;
        }),
    );
    const headers = (res.headers ?? {}) as Record<string, unknown>;
    const type = headers['content-type'];
    const length = Number(headers['content-length']);
    return {
      stream: res.getReadableStream(),
      ...(typeof type === 'string' ? { contentType: type } : {}),
      ...(Number.isFinite(length) && length >= 0 ? { contentLength: length } : {}),
    };
  }
}
