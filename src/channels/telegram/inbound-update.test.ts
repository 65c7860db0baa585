import { describe, expect, it } from 'vitest';
import { convertUpdate } from './inbound-update.js';

const now = new Date('2026-01-01T00:00:00Z');
const msg = (over: Record<string, unknown> = {}) => ({
  update_id: 7,
  message: {
    message_id: 3,
    date: 1,
    chat: { id: 42, type: 'private' },
    from: { id: 42, is_bot: false, first_name: 'a' },
    text: 'hi',
    ...over,
  },
});

describe('convertUpdate', () => {
  it('names a message by chat and message id (stable across re-delivery, unlike update_id)', () => {
    const d = convertUpdate(msg(), 'bot', now);
    expect(d).toMatchObject({
      kind: 'message',
      message: { id: 'telegram:42:3', userId: '42', chatId: '42', text: 'hi' },
    });
    const again = convertUpdate({ ...msg(), update_id: 99 }, 'bot', now);
    expect(again.kind === 'message' && again.message.id).toBe('telegram:42:3');
  });

  it('strips our @username from a command only', () => {
    const d = convertUpdate(msg({ text: '/new@Bot ~/x' }), 'bot', now);
    expect(d.kind === 'message' && d.message.text).toBe('/new ~/x');
    const other = convertUpdate(msg({ text: '/new@other ~/x' }), 'bot', now);
    expect(other.kind === 'message' && other.message.text).toBe('/new@other ~/x');
  });

  it('takes the largest size of a photo and its caption', () => {
    const d = convertUpdate(
      msg({ text: undefined, caption: 'look', photo: [{ file_id: 's' }, { file_id: 'l' }] }),
      '',
      now,
    );
    expect(d).toMatchObject({ kind: 'message', message: { text: 'look', images: [{ key: 'l' }] } });
  });

  it('takes a document, audio or video as one file with its name and announced size', () => {
    const doc = convertUpdate(
      msg({ text: undefined, caption: 'read', document: { file_id: 'd', file_name: 'a.pdf', file_size: 12 } }),
      '',
      now,
    );
    expect(doc).toMatchObject({
      kind: 'message',
      message: { text: 'read', files: [{ key: 'd', name: 'a.pdf', size: 12 }] },
    });
    expect(doc.kind === 'message' && doc.message.unsupportedType).toBeUndefined();
    const audio = convertUpdate(msg({ text: undefined, audio: { file_id: 'm', duration: 3 } }), '', now);
    expect(audio).toMatchObject({ kind: 'message', message: { text: '', files: [{ key: 'm', name: 'audio-3' }] } });
  });

  it('ignores groups, channels, bots and service messages; names unsupported kinds', () => {
    expect(convertUpdate(msg({ chat: { id: -1, type: 'supergroup' } }), '', now).kind).toBe('ignore');
    expect(convertUpdate(msg({ from: { id: 5, is_bot: true } }), '', now).kind).toBe('ignore');
    expect(convertUpdate({ update_id: 1, channel_post: {} }, '', now).kind).toBe('ignore');
    expect(convertUpdate(msg({ text: undefined, new_chat_title: 'x' }), '', now).kind).toBe('ignore');
    const sticker = convertUpdate(msg({ text: undefined, sticker: { file_id: 's' } }), '', now);
    expect(sticker.kind === 'message' && sticker.message.unsupportedType).toBe('sticker');
  });

  it('takes a voice note as the message’s voice, with the length Telegram reports', () => {
    const voice = convertUpdate(msg({ text: undefined, voice: { file_id: 'v', duration: 7 } }), '', now);
    expect(voice).toMatchObject({ kind: 'message', message: { text: '', voice: { key: 'v', durationMs: 7000 } } });
    expect(voice.kind === 'message' && voice.message.unsupportedType).toBeUndefined();
    const bare = convertUpdate(msg({ text: undefined, voice: { file_id: 'w' } }), '', now);
    expect(bare.kind === 'message' && bare.message.voice).toEqual({ key: 'w' });
  });

  it('reads a button click: the clicker, the data and the message it sits on', () => {
    const d = convertUpdate(
      {
        update_id: 8,
        callback_query: { id: 'q', from: { id: 42 }, data: 'a:x', message: { message_id: 9, chat: { id: 42 } } },
      },
      '',
      now,
    );
    expect(d).toEqual({ kind: 'click', queryId: 'q', userId: '42', data: 'a:x', messageId: '42:9' });
  });
});
