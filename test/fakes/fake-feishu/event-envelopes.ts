import { createHash, randomBytes } from 'node:crypto';

/**
 * A schema-2.0 event as Feishu pushes it over the long connection (before the SDK flattens it
 * into `{schema, ...header, ...event}` for the EventDispatcher handler).
 */
export interface FeishuEventEnvelope {
  schema: '2.0';
  header: {
    event_id: string;
    event_type: string;
    create_time: string;
    token: string;
    app_id: string;
    tenant_key: string;
  };
  event: Record<string, unknown>;
}

/** Options every message-event builder accepts. */
export interface MessageEventBase {
  /** Sender's open_id (`ou_…`). */
  openId: string;
  /** `p2p` (private chat, default) or `group`. */
  chatType?: 'p2p' | 'group';
  /** Defaults to a fresh `om_…`. */
  messageId?: string;
  /** Defaults to a stable `oc_…` per (openId, chatType), like Feishu's one p2p chat per user. */
  chatId?: string;
  /** Defaults to the fake's default app id; set it when the app id matters to the handler. */
  appId?: string;
  /** `mentions` array of the message (e.g. `[{key:'@_user_1', id:{open_id}, name}]`). */
  mentions?: Array<{ key: string; id: { open_id?: string; user_id?: string; union_id?: string }; name: string }>;
}

/** One element of a `post` (rich text) paragraph as users send it. */
export type PostElement =
  | { tag: 'text'; text: string; style?: string[] }
  | { tag: 'a'; text: string; href: string }
  | { tag: 'at'; user_id: string; user_name?: string }
  | { tag: 'img'; image_key: string; width?: number; height?: number }
  | { tag: 'file'; file_key: string; file_name: string };

/** App id stamped on envelopes when the caller gives none. */
export const DEFAULT_APP_ID = 'cli_0123456789abcdef';
/** Tenant key stamped on every envelope. */
export const FAKE_TENANT_KEY = 'fake_tenant_2ca1d211';
/** Verification token stamped in `header.token` (not checked over the long connection). */
export const FAKE_VERIFICATION_TOKEN = 'fake-verification-token';

/** A Feishu-looking id: `prefix` + 32 hex chars. */
export function newFeishuId(prefix: string): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

/** The stable chat id of `openId`'s chat of `chatType` (Feishu has exactly one p2p chat per user and bot). */
export function chatIdFor(openId: string, chatType: 'p2p' | 'group' = 'p2p'): string {
  return `oc_${createHash('sha256').update(`${chatType}:${openId}`).digest('hex').slice(0, 32)}`;
}

function header(eventType: string, appId: string | undefined): FeishuEventEnvelope['header'] {
  return {
    event_id: randomBytes(16).toString('hex'),
    event_type: eventType,
    create_time: String(Date.now()),
    token: FAKE_VERIFICATION_TOKEN,
    app_id: appId ?? DEFAULT_APP_ID,
    tenant_key: FAKE_TENANT_KEY,
  };
}

function sender(openId: string): Record<string, unknown> {
  return {
    sender_id: { open_id: openId, user_id: `u_${openId.slice(3, 11)}`, union_id: `on_${openId.slice(3)}` },
    sender_type: 'user',
    tenant_key: FAKE_TENANT_KEY,
  };
}

/**
 * `im.message.receive_v1` of any `message_type` with `content` (an object, serialised to the JSON
 * string Feishu sends). The other builders are shorthands; use this one for `audio`, `sticker`, …
 */
export function messageEvent(opts: MessageEventBase & { messageType: string; content: unknown }): FeishuEventEnvelope {
  const chatType = opts.chatType ?? 'p2p';
  const now = String(Date.now());
  const message: Record<string, unknown> = {
    message_id: opts.messageId ?? newFeishuId('om_'),
    create_time: now,
    update_time: now,
    chat_id: opts.chatId ?? chatIdFor(opts.openId, chatType),
    chat_type: chatType,
    message_type: opts.messageType,
    content: JSON.stringify(opts.content),
    user_agent: 'Mozilla/5.0 (fake-feishu) Feishu/7.30',
  };
  if (opts.mentions) message.mentions = opts.mentions.map((m) => ({ ...m, tenant_key: FAKE_TENANT_KEY }));
  return {
    schema: '2.0',
    header: header('im.message.receive_v1', opts.appId),
    event: { sender: sender(opts.openId), message },
  };
}

/** A `text` message: content `{"text": text}` (mention keys such as `@_user_1` stay in the text). */
export function textMessageEvent(opts: MessageEventBase & { text: string }): FeishuEventEnvelope {
  return messageEvent({ ...opts, messageType: 'text', content: { text: opts.text } });
}

/** An `image` message: content `{"image_key": imageKey}`; serve its bytes with `fake.addImage`. */
export function imageMessageEvent(opts: MessageEventBase & { imageKey: string }): FeishuEventEnvelope {
  return messageEvent({ ...opts, messageType: 'image', content: { image_key: opts.imageKey } });
}

/**
 * A `post` (rich text) message as the bot receives it: `{"title", "content": [[element…]…]}`
 * (received posts carry no locale wrapper, unlike posts the bot sends).
 */
export function postMessageEvent(
  opts: MessageEventBase & { title?: string; paragraphs: PostElement[][] },
): FeishuEventEnvelope {
  return messageEvent({ ...opts, messageType: 'post', content: { title: opts.title ?? '', content: opts.paragraphs } });
}

/** A `file` message: content `{"file_key", "file_name"}`. */
export function fileMessageEvent(opts: MessageEventBase & { fileKey: string; fileName: string }): FeishuEventEnvelope {
  return messageEvent({ ...opts, messageType: 'file', content: { file_key: opts.fileKey, file_name: opts.fileName } });
}

/**
 * `card.action.trigger` (schema 2.0 card callback) for a click on a button whose `value` is
 * `value`, on the card message `messageId`:
 * `event = {operator:{open_id,user_id,union_id,tenant_key}, token, action:{value,tag,name?,timezone},
 * host:'im_message', context:{open_message_id, open_chat_id}}`.
 */
export function cardActionEvent(opts: {
  openId: string;
  value: unknown;
  messageId?: string;
  chatId?: string;
  /** The card's update token (`c-…`), defaults to a fresh one. */
  token?: string;
  /** Component tag, default `button`. */
  tag?: string;
  /** Component `name`, when the card gave it one. */
  name?: string;
  appId?: string;
}): FeishuEventEnvelope {
  const action: Record<string, unknown> = { value: opts.value, tag: opts.tag ?? 'button', timezone: 'Asia/Shanghai' };
  if (opts.name !== undefined) action.name = opts.name;
  return {
    schema: '2.0',
    header: header('card.action.trigger', opts.appId),
    event: {
      operator: {
        tenant_key: FAKE_TENANT_KEY,
        open_id: opts.openId,
        user_id: `u_${opts.openId.slice(3, 11)}`,
        union_id: `on_${opts.openId.slice(3)}`,
      },
      token: opts.token ?? newFeishuId('c-'),
      action,
      host: 'im_message',
      context: {
        open_message_id: opts.messageId ?? newFeishuId('om_'),
        open_chat_id: opts.chatId ?? chatIdFor(opts.openId, 'p2p'),
      },
    },
  };
}
