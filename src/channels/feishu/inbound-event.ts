import type { InboundFile, InboundImage, InboundMessage, InboundVoice } from '../../bridge/inbound-message.js';

/** What to do with one `im.message.receive_v1` event. */
export type InboundDecision =
  | { kind: 'accept'; message: InboundMessage }
  /** A type we cannot handle yet: answer with a short notice (the message carries the reply target). */
  | { kind: 'unsupported'; message: InboundMessage; messageType: string }
  | { kind: 'ignore'; reason: 'malformed' | 'group' | 'not-a-user' | 'empty' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function parseContent(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Removes mention placeholders (`@_user_1`, `@_all`, and any key listed in `mentions`) with the
 * one space that follows each; the rest of the text (indentation included) is untouched.
 */
function stripMentions(text: string, mentions: unknown): string {
  let out = text;
  if (Array.isArray(mentions)) {
    for (const m of mentions) {
      const key = isRecord(m) ? str(m.key) : undefined;
      if (key) out = out.split(`${key} `).join('').split(key).join('');
    }
  }
  return out.replace(/@_(?:user_\d+|all)\b ?/g, '').trim();
}

/**
 * Text, image keys and files of a `post` (rich text), with or without a locale wrapper
 * (`{zh_cn: {…}}`). Each file remembers where it stood in the text (`at`), so the prompt keeps
 * the order the user wrote.
 */
function postContent(content: Record<string, unknown>): { text: string; imageKeys: string[]; files: InboundFile[] } {
  const body = 'content' in content || 'title' in content ? content : Object.values(content).find(isRecord);
  if (!isRecord(body)) return { text: '', imageKeys: [], files: [] };
  const lines: string[] = [];
  const imageKeys: string[] = [];
  // Files with their offset in the untrimmed text: the lines so far, a newline each, and `line`.
  const placed: Array<{ file: InboundFile; offset: number }> = [];
  const offsetNow = (line: string): number => lines.reduce((n, l) => n + l.length + 1, 0) + line.length;
  const title = str(body.title);
  if (title) lines.push(title);
  for (const paragraph of Array.isArray(body.content) ? body.content : []) {
    if (!Array.isArray(paragraph)) continue;
    let line = '';
    for (const el of paragraph) {
      if (!isRecord(el)) continue;
      const text = typeof el.text === 'string' ? el.text : '';
      switch (el.tag) {
        case 'text':
        case 'md':
          line += text;
          break;
        case 'a': {
          const href = str(el.href);
          line += href && href !== text ? `${text} (${href})` : text;
          break;
        }
        case 'at':
          line += `@${str(el.user_name) ?? str(el.user_id) ?? ''}`;
          break;
        case 'emotion':
          line += str(el.emoji_type) ? `:${String(el.emoji_type)}:` : '';
          break;
        case 'code_block':
          line += `\n\`\`\`${str(el.language)?.toLowerCase() ?? ''}\n${text}\n\`\`\`\n`;
          break;
        case 'hr':
          line += '---';
          break;
        case 'img': {
          const key = str(el.image_key);
          if (key) imageKeys.push(key);
          break;
        }
        case 'file': {
          const key = str(el.file_key);
          if (key) placed.push({ file: { key, name: str(el.file_name) ?? key }, offset: offsetNow(line) });
          break;
        }
        default:
          line += text;
      }
    }
    lines.push(line);
  }
  const full = lines.join('\n');
  const text = full.trim();
  const lead = full.length - full.trimStart().length;
  const files = placed.map(({ file, offset }) => ({ ...file, at: Math.min(Math.max(offset - lead, 0), text.length) }));
  return { text, imageKeys, files };
}

/**
 * Validates and converts the (flattened) `im.message.receive_v1` event the SDK hands to the
 * handler into an `InboundMessage` (id `feishu:<message_id>`). Private chats only; `text` loses
 * its mention keys, `image` becomes one image, `file` one file, `post` its text, images and files
 * (in place), `audio` a voice message; other types (media, sticker, …) are `unsupported`. Pure and synchronous: this runs inside Feishu's 3-second window.
 */
export function convertMessageEvent(data: unknown, receivedAt: Date): InboundDecision {
  if (!isRecord(data) || !isRecord(data.message) || !isRecord(data.sender))
    return { kind: 'ignore', reason: 'malformed' };
  const message = data.message;
  const sender = data.sender;
  const messageId = str(message.message_id);
  const chatId = str(message.chat_id);
  const openId = isRecord(sender.sender_id) ? str(sender.sender_id.open_id) : undefined;
  const messageType = str(message.message_type);
  if (!messageId || !chatId || !openId || !messageType) return { kind: 'ignore', reason: 'malformed' };
  if (message.chat_type !== 'p2p') return { kind: 'ignore', reason: 'group' };
  if (sender.sender_type !== undefined && sender.sender_type !== 'user')
    return { kind: 'ignore', reason: 'not-a-user' };
  const base = {
    id: `feishu:${messageId}`,
    channel: 'feishu',
    platformMessageId: messageId,
    userId: openId,
    chatId,
    chatType: 'p2p' as const,
    receivedAt: receivedAt.toISOString(),
  };
  const content = parseContent(message.content);
  let text = '';
  let images: InboundImage[] = [];
  let files: InboundFile[] = [];
  let voice: InboundVoice | undefined;
  switch (messageType) {
    case 'text':
      text = stripMentions(typeof content.text === 'string' ? content.text : '', message.mentions);
      break;
    case 'image': {
      const key = str(content.image_key);
      images = key ? [{ key }] : [];
      break;
    }
    case 'post': {
      const post = postContent(content);
      text = post.text;
      images = post.imageKeys.map((key) => ({ key }));
      files = post.files;
      break;
    }
    case 'file': {
      const key = str(content.file_key);
      files = key ? [{ key, name: str(content.file_name) ?? key }] : [];
      break;
    }
    case 'audio': {
      // A voice message (Opus): transcribed at processing time (`transcribe-voice-message.ts`).
      const key = str(content.file_key);
      const duration = typeof content.duration === 'number' && content.duration >= 0 ? content.duration : undefined;
      voice = key ? { key, ...(duration === undefined ? {} : { durationMs: duration }) } : undefined;
      break;
    }
    default:
      return { kind: 'unsupported', messageType, message: { ...base, text: '', images: [] } };
  }
  if (text === '' && images.length === 0 && files.length === 0 && !voice) return { kind: 'ignore', reason: 'empty' };
  return {
    kind: 'accept',
    message: { ...base, text, images, ...(files.length > 0 ? { files } : {}), ...(voice ? { voice } : {}) },
  };
}
