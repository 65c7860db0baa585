import { describe, expect, it } from 'vitest';
import { convertMessageEvent } from './inbound-event.js';

const AT = new Date('2026-05-05T10:00:00.000Z');

/** The flattened event the SDK hands to an `im.message.receive_v1` handler. */
function event(message: Record<string, unknown>, sender: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: '2.0',
    event_type: 'im.message.receive_v1',
    sender: { sender_id: { open_id: 'ou_a' }, sender_type: 'user', ...sender },
    message: {
      message_id: 'om_1',
      chat_id: 'oc_1',
      chat_type: 'p2p',
      message_type: 'text',
      content: '{"text":"hi"}',
      ...message,
    },
  };
}

describe('convertMessageEvent', () => {
  it('builds the InboundMessage of a private text message', () => {
    expect(convertMessageEvent(event({}), AT)).toEqual({
      kind: 'accept',
      message: {
        id: 'feishu:om_1',
        channel: 'feishu',
        platformMessageId: 'om_1',
        userId: 'ou_a',
        chatId: 'oc_1',
        chatType: 'p2p',
        text: 'hi',
        images: [],
        receivedAt: '2026-05-05T10:00:00.000Z',
      },
    });
  });

  it('strips mention keys (listed or not) with their following space, keeping indentation elsewhere', () => {
    const d = convertMessageEvent(
      event({
        content: JSON.stringify({ text: '@_user_1 look:\n    indented @_all code' }),
        mentions: [{ key: '@_user_1', name: 'bot' }],
      }),
      AT,
    );
    expect(d).toMatchObject({ kind: 'accept', message: { text: 'look:\n    indented code' } });
  });

  it('converts image and post messages; a locale-wrapped post too', () => {
    expect(convertMessageEvent(event({ message_type: 'image', content: '{"image_key":"img_1"}' }), AT)).toMatchObject({
      kind: 'accept',
      message: { text: '', images: [{ key: 'img_1' }] },
    });
    const post = {
      zh_cn: {
        title: 'T',
        content: [
          [
            { tag: 'text', text: 'a ' },
            { tag: 'emotion', emoji_type: 'SMILE' },
          ],
          [{ tag: 'code_block', language: 'GO', text: 'x := 1' }],
          [{ tag: 'img', image_key: 'img_2' }],
        ],
      },
    };
    expect(convertMessageEvent(event({ message_type: 'post', content: JSON.stringify(post) }), AT)).toMatchObject({
      kind: 'accept',
      message: { text: 'T\na :SMILE:\n\n```go\nx := 1\n```', images: [{ key: 'img_2' }] },
    });
  });

  it('marks other types unsupported, keeping where to answer', () => {
    expect(convertMessageEvent(event({ message_type: 'sticker', content: '{"file_key":"f"}' }), AT)).toMatchObject({
      kind: 'unsupported',
      messageType: 'sticker',
      message: { id: 'feishu:om_1', userId: 'ou_a', platformMessageId: 'om_1', text: '' },
    });
  });

  it.each([
    ['a group message', event({ chat_type: 'group' }), 'group'],
    ['a message from another app', event({}, { sender_type: 'app' }), 'not-a-user'],
    ['an empty message', event({ content: '{"text":"  @_user_1 "}' }), 'empty'],
    ['content that is not JSON', event({ content: 'not json' }), 'empty'],
    ['no sender', { message: { message_id: 'om_1' } }, 'malformed'],
    ['no message id', event({ message_id: undefined }), 'malformed'],
    ['garbage', 42, 'malformed'],
  ])('ignores %s', (_name, data, reason) => {
    expect(convertMessageEvent(data, AT)).toEqual({ kind: 'ignore', reason });
  });

  it('takes a file message as one file with the name as sent', () => {
    const content = JSON.stringify({ file_key: 'file_v3_1', file_name: '../报告.pdf' });
    expect(convertMessageEvent(event({ message_type: 'file', content }), AT)).toMatchObject({
      kind: 'accept',
      message: { text: '', images: [], files: [{ key: 'file_v3_1', name: '../报告.pdf' }] },
    });
  });

  it('keeps where each file of a post stood in its text', () => {
    const content = JSON.stringify({
      title: '',
      content: [
        [
          { tag: 'text', text: '  compare ' },
          { tag: 'file', file_key: 'f1', file_name: 'a.pdf' },
        ],
        [{ tag: 'text', text: 'with' }],
        [
          { tag: 'file', file_key: 'f2', file_name: 'b.pdf' },
          { tag: 'text', text: 'please' },
        ],
      ],
    });
    const decision = convertMessageEvent(event({ message_type: 'post', content }), AT);
    expect(decision).toMatchObject({ kind: 'accept', message: { text: 'compare \nwith\nplease' } });
    const message = decision.kind === 'accept' ? decision.message : undefined;
    expect(message?.files).toEqual([
      { key: 'f1', name: 'a.pdf', at: 'compare '.length },
      { key: 'f2', name: 'b.pdf', at: 'compare \nwith\n'.length },
    ]);
  });

  it('still answers video and stickers "not supported"', () => {
    for (const type of ['media', 'sticker']) {
      const content = JSON.stringify({ file_key: 'f' });
      expect(convertMessageEvent(event({ message_type: type, content }), AT)).toMatchObject({
        kind: 'unsupported',
        messageType: type,
      });
    }
  });

  it('an audio message is a voice message: its file key and duration, no text', () => {
    const content = JSON.stringify({ file_key: 'file_v3_voice', duration: 2500 });
    expect(convertMessageEvent(event({ message_type: 'audio', content }), AT)).toMatchObject({
      kind: 'accept',
      message: { text: '', images: [], voice: { key: 'file_v3_voice', durationMs: 2500 } },
    });
    // Without a file key there is nothing to transcribe.
    expect(convertMessageEvent(event({ message_type: 'audio', content: '{}' }), AT)).toEqual({
      kind: 'ignore',
      reason: 'empty',
    });
  });
});
