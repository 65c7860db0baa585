import type { InboundFile, InboundMessage, InboundVoice } from '../../bridge/inbound-message.js';
import { messageRef } from './telegram-api.js';

/** What one Bot API update means to the channel. */
export type UpdateDecision =
  | { kind: 'message'; message: InboundMessage }
  | { kind: 'click'; queryId: string; userId: string; data?: string; messageId?: string }
  | { kind: 'ignore'; reason: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined);

/** Message kinds we name when they are not supported yet (the bridge answers the owner so). */
const UNSUPPORTED = ['video_note', 'sticker', 'animation', 'location', 'contact', 'poll'];

/** Message kinds that carry one file the agent gets as an attachment (photos are images). */
const FILE_KINDS = ['document', 'audio', 'video'] as const;

/** The file a `document`, `audio` or `video` message carries, with its name and announced size. */
function fileOf(msg: Obj, messageId: number): InboundFile[] {
  for (const kind of FILE_KINDS) {
    const f = msg[kind];
    if (!isObj(f) || typeof f.file_id !== 'string') continue;
    const name = typeof f.file_name === 'string' && f.file_name !== '' ? f.file_name : `${kind}-${messageId}`;
    const size = num(f.file_size);
    return [{ key: f.file_id, name, ...(size !== undefined ? { size } : {}) }];
  }
  return [];
}

/** A voice note (Ogg/Opus), transcribed at processing time; its length as Telegram reports it. */
function voiceOf(msg: Obj): InboundVoice | undefined {
  const v = msg.voice;
  if (!isObj(v) || typeof v.file_id !== 'string') return undefined;
  const seconds = num(v.duration);
  return { key: v.file_id, ...(seconds !== undefined && seconds >= 0 ? { durationMs: seconds * 1000 } : {}) };
}

/**
 * One update → an `InboundMessage` (a private chat's text, a voice note, or a photo, document,
 * audio or video with its caption), a button
 * click, or nothing (groups and channels, bots, edits, service messages). The id is
 * `telegram:<chat id>:<message id>`: the same on every re-delivery of the update and unique for
 * good, where `update_id` restarts at a random value after a week without updates. A
 * `/command@our_bot` loses its `@our_bot`.
 */
export function convertUpdate(update: unknown, botUsername: string, now: Date): UpdateDecision {
  if (!isObj(update)) return { kind: 'ignore', reason: 'not an update' };
  const query = update.callback_query;
  if (isObj(query)) {
    const from = isObj(query.from) ? num(query.from.id) : undefined;
    if (typeof query.id !== 'string' || from === undefined) return { kind: 'ignore', reason: 'bad callback' };
    const msg = isObj(query.message) ? query.message : undefined;
    const chat = msg && isObj(msg.chat) ? num(msg.chat.id) : undefined;
    const mid = msg ? num(msg.message_id) : undefined;
    return {
      kind: 'click',
      queryId: query.id,
      userId: String(from),
      ...(typeof query.data === 'string' ? { data: query.data } : {}),
      ...(chat !== undefined && mid !== undefined ? { messageId: messageRef(chat, mid) } : {}),
    };
  }
  const msg = update.message;
  if (!isObj(msg)) return { kind: 'ignore', reason: 'not a new message' };
  const chat = isObj(msg.chat) ? msg.chat : undefined;
  const from = isObj(msg.from) ? msg.from : undefined;
  const chatId = chat ? num(chat.id) : undefined;
  const messageId = num(msg.message_id);
  const userId = from ? num(from.id) : undefined;
  if (chat?.type !== 'private') return { kind: 'ignore', reason: 'not a private chat' };
  if (chatId === undefined || messageId === undefined || userId === undefined)
    return { kind: 'ignore', reason: 'incomplete' };
  if (from?.is_bot === true) return { kind: 'ignore', reason: 'from a bot' };
  let text = typeof msg.text === 'string' ? msg.text : typeof msg.caption === 'string' ? msg.caption : '';
  if (botUsername) text = text.replace(new RegExp(`^(/\\w+)@${botUsername}\\b`, 'i'), '$1');
  const photos = Array.isArray(msg.photo) ? msg.photo.filter(isObj) : [];
  // Telegram sends each photo in several sizes, smallest first: the largest is the last.
  const largest = photos[photos.length - 1];
  const images = largest && typeof largest.file_id === 'string' ? [{ key: largest.file_id }] : [];
  const files = fileOf(msg, messageId);
  const voice = voiceOf(msg);
  const ref = messageRef(chatId, messageId);
  const message: InboundMessage = {
    id: `telegram:${ref}`,
    channel: 'telegram',
    platformMessageId: ref,
    userId: String(userId),
    chatId: String(chatId),
    chatType: 'p2p',
    text,
    images,
    ...(files.length > 0 ? { files } : {}),
    ...(voice ? { voice } : {}),
    receivedAt: now.toISOString(),
  };
  if (typeof msg.text !== 'string' && images.length === 0 && files.length === 0 && !voice) {
    const type = UNSUPPORTED.find((k) => k in msg);
    if (!type) return { kind: 'ignore', reason: 'service message' };
    message.unsupportedType = type;
  }
  return { kind: 'message', message };
}
