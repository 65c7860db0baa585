import { apiError, apiOk, FeishuCode, parseJsonString, refuse, type ApiReply, type ErrorReply } from './api-reply.js';
import { MAX_CARD_BYTES, type CardKitCards } from './cardkit-cards.js';
import { chatIdFor, FAKE_TENANT_KEY, newFeishuId, type FeishuEventEnvelope } from './event-envelopes.js';
import type { RateWindow } from './rate-window.js';

/** Largest `text` message content (150 KB); `post` and cards are limited to 30 KB. */
export const MAX_TEXT_BYTES = 150 * 1024;
/** Longest idempotency `uuid` Feishu accepts. */
export const MAX_UUID_LENGTH = 50;

/** A message the bot created or replied with (each once, even when its uuid was repeated). */
export interface SentMessage {
  message_id: string;
  kind: 'create' | 'reply';
  msg_type: string;
  /** The content as sent, parsed from its JSON string. */
  content: unknown;
  uuid?: string;
  receive_id?: string;
  receive_id_type?: string;
  /** The message replied to (`reply` only). */
  parent_id?: string;
  chat_id: string;
  /** open_id of the user who sees it, when known (p2p chats and replies to a known user's message). */
  to?: string;
  at: number;
}

/** An accepted `PATCH /open-apis/im/v1/messages/:id` (card update). */
export interface PatchRecord {
  message_id: string;
  content: unknown;
  at: number;
}

interface KnownMessage {
  msg_type: string;
  content: unknown;
  chat_id: string;
  fromBot: boolean;
  /** For a user's message: its sender; for the bot's: its recipient. */
  peer?: string;
  response?: Record<string, unknown>;
}

type Body = Record<string, unknown>;

const RECEIVE_ID_TYPES = new Set(['open_id', 'user_id', 'union_id', 'email', 'chat_id']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The IM message side of the fake: create, reply (both idempotent on `uuid`), card patch (≤ 5 per
 * second per message, ≤ 30 KB), and resource download. It also learns the messages users sent
 * (from pushed events) so replies and `messagesTo` know who sees what.
 */
export class ImMessages {
  readonly sent: SentMessage[] = [];
  readonly patches: PatchRecord[] = [];
  private readonly known = new Map<string, KnownMessage>();
  private readonly byUuid = new Map<string, string>();
  private readonly chatOwner = new Map<string, string>();
  private readonly resources = new Map<string, { bytes: Buffer; fileName?: string }>();

  constructor(
    private readonly cards: CardKitCards,
    private readonly patchRate: RateWindow,
    private readonly rateLimitReply: ErrorReply,
    private readonly clock: () => number,
  ) {}

  /** Remembers the IM message inside a pushed `im.message.receive_v1` envelope. */
  learnInbound(envelope: FeishuEventEnvelope): void {
    if (envelope.header.event_type !== 'im.message.receive_v1') return;
    const message = envelope.event.message as Body | undefined;
    const sender = envelope.event.sender as { sender_id?: { open_id?: string } } | undefined;
    const openId = sender?.sender_id?.open_id;
    if (!message || typeof message.message_id !== 'string' || typeof message.chat_id !== 'string') return;
    if (openId !== undefined && message.chat_type === 'p2p') this.chatOwner.set(message.chat_id, openId);
    this.known.set(message.message_id, {
      msg_type: String(message.message_type),
      content: parseJsonString(message.content),
      chat_id: message.chat_id,
      fromBot: false,
      ...(openId === undefined ? {} : { peer: openId }),
    });
  }

  /** Bytes served by `GET …/messages/:messageId/resources/:key`. */
  addResource(messageId: string, key: string, bytes: Uint8Array, fileName?: string): void {
    this.resources.set(`${messageId}\n${key}`, { bytes: Buffer.from(bytes), ...(fileName ? { fileName } : {}) });
  }

  /** Current type and content of a message (after patches), or undefined. */
  current(messageId: string): { msg_type: string; content: unknown } | undefined {
    const m = this.known.get(messageId);
    return m && { msg_type: m.msg_type, content: m.content };
  }

  /** `POST /open-apis/im/v1/messages?receive_id_type=…` body `{receive_id, msg_type, content, uuid?}`. */
  create(query: URLSearchParams, body: Body, appId: string): ApiReply {
    const receiveIdType = query.get('receive_id_type') ?? '';
    if (!RECEIVE_ID_TYPES.has(receiveIdType)) {
      return apiError(400, FeishuCode.invalidParam, `invalid receive_id_type: ${receiveIdType || '(missing)'}`);
    }
    if (typeof body.receive_id !== 'string' || body.receive_id === '') {
      return apiError(400, FeishuCode.invalidParam, 'receive_id is required');
    }
    const receiveId = body.receive_id;
    const peer =
      receiveIdType === 'open_id' ? receiveId : receiveIdType === 'chat_id' ? this.chatOwner.get(receiveId) : undefined;
    const chatId = receiveIdType === 'chat_id' ? receiveId : chatIdFor(receiveId, 'p2p');
    return this.send(body, { kind: 'create', appId, chatId, peer, receiveId, receiveIdType });
  }

  /** `POST /open-apis/im/v1/messages/:id/reply` body `{msg_type, content, uuid?}`. */
  reply(parentId: string, body: Body, appId: string): ApiReply {
    const parent = this.known.get(parentId);
    if (!parent) return apiError(400, FeishuCode.invalidParam, `message_id ${parentId} not found`);
    return this.send(body, { kind: 'reply', appId, chatId: parent.chat_id, peer: parent.peer, parentId });
  }

  /** `PATCH /open-apis/im/v1/messages/:id` body `{content}`: replaces a card the bot sent. */
  patch(messageId: string, body: Body): ApiReply {
    const message = this.known.get(messageId);
    if (!message || !message.fromBot || message.msg_type !== 'interactive') {
      return apiError(400, FeishuCode.invalidParam, `message_id ${messageId} is not a card this bot sent`);
    }
    if (typeof body.content !== 'string')
      return apiError(400, FeishuCode.invalidParam, 'content must be a JSON string');
    if (Buffer.byteLength(body.content, 'utf8') > MAX_CARD_BYTES) {
      return apiError(400, FeishuCode.contentTooLong, 'The length of the message content reaches its limit.');
    }
    const content = parseJsonString(body.content);
    if (!isRecord(content)) return apiError(400, FeishuCode.invalidParam, 'content is not a JSON object');
    if (!this.patchRate.tryTake(messageId)) return refuse(this.rateLimitReply);
    message.content = content;
    this.patches.push({ message_id: messageId, content, at: this.clock() });
    return apiOk({});
  }

  /** `GET /open-apis/im/v1/messages/:id/resources/:key?type=image|file` → raw bytes. */
  resource(messageId: string, key: string, query: URLSearchParams): ApiReply {
    const type = query.get('type');
    if (type !== 'image' && type !== 'file')
      return apiError(400, FeishuCode.invalidParam, 'type must be image or file');
    const found = this.resources.get(`${messageId}\n${key}`);
    if (!found) return apiError(400, FeishuCode.resourceNotFound, `resource ${key} not found in message ${messageId}`);
    const name = found.fileName;
    return {
      status: 200,
      bytes: found.bytes,
      contentType: type === 'image' ? 'image/png' : 'application/octet-stream',
      ...(name === undefined
        ? {}
        : {
            contentDisposition: `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
          }),
    };
  }

  private send(
    body: Body,
    where: {
      kind: SentMessage['kind'];
      /** The calling app (from its token): the sender of the message. */
      appId: string;
      chatId: string;
      peer: string | undefined;
      receiveId?: string;
      receiveIdType?: string;
      parentId?: string;
    },
  ): ApiReply {
    const uuid = body.uuid;
    if (uuid !== undefined && (typeof uuid !== 'string' || uuid.length > MAX_UUID_LENGTH)) {
      return apiError(400, FeishuCode.invalidParam, `uuid must be a string of at most ${MAX_UUID_LENGTH} characters`);
    }
    if (typeof uuid === 'string' && uuid !== '') {
      const firstId = this.byUuid.get(uuid);
      const first = firstId === undefined ? undefined : this.known.get(firstId);
      if (first?.response) return apiOk(first.response);
    }
    const msgType = body.msg_type;
    if (typeof msgType !== 'string' || msgType === '')
      return apiError(400, FeishuCode.invalidParam, 'msg_type is required');
    if (typeof body.content !== 'string')
      return apiError(400, FeishuCode.invalidParam, 'content must be a JSON string');
    const limit = msgType === 'text' ? MAX_TEXT_BYTES : MAX_CARD_BYTES;
    if (Buffer.byteLength(body.content, 'utf8') > limit) {
      return apiError(400, FeishuCode.contentTooLong, 'The length of the message content reaches its limit.');
    }
    const content = parseJsonString(body.content);
    if (!isRecord(content)) return apiError(400, FeishuCode.invalidParam, 'content is not a JSON object string');
    if (msgType === 'text' && typeof content.text !== 'string') {
      return apiError(400, FeishuCode.invalidParam, 'text content needs a "text" string');
    }
    const messageId = newFeishuId('om_');
    const cardRef = content.type === 'card' && isRecord(content.data) ? content.data.card_id : undefined;
    if (msgType === 'interactive' && typeof cardRef === 'string') {
      const refusal = this.cards.markSent(cardRef, messageId);
      if (refusal) return refuse(refusal);
    }
    const now = this.clock();
    const response: Record<string, unknown> = {
      message_id: messageId,
      msg_type: msgType,
      create_time: String(now),
      update_time: String(now),
      deleted: false,
      updated: false,
      chat_id: where.chatId,
      sender: { id: where.appId, id_type: 'app_id', sender_type: 'app', tenant_key: FAKE_TENANT_KEY },
      body: { content: body.content },
      ...(where.parentId === undefined ? {} : { parent_id: where.parentId, root_id: where.parentId }),
    };
    this.known.set(messageId, {
      msg_type: msgType,
      content,
      chat_id: where.chatId,
      fromBot: true,
      response,
      ...(where.peer === undefined ? {} : { peer: where.peer }),
    });
    if (typeof uuid === 'string' && uuid !== '') this.byUuid.set(uuid, messageId);
    this.sent.push({
      message_id: messageId,
      kind: where.kind,
      msg_type: msgType,
      content,
      chat_id: where.chatId,
      at: now,
      ...(typeof uuid === 'string' && uuid !== '' ? { uuid } : {}),
      ...(where.receiveId === undefined ? {} : { receive_id: where.receiveId, receive_id_type: where.receiveIdType }),
      ...(where.parentId === undefined ? {} : { parent_id: where.parentId }),
      ...(where.peer === undefined ? {} : { to: where.peer }),
    });
    return apiOk(response);
  }
}
