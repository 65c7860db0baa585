import { describe, expect, it } from 'vitest';
import { convertEvent, parseChatAddress, parseMessageRef, slackTextToPlain } from './inbound-event.js';

const now = new Date('2026-01-01T00:00:00Z');
const dm = (over: Record<string, unknown> = {}) => ({
  type: 'message',
  channel: 'D0OWNER',
  channel_type: 'im',
  user: 'U0OWNER',
  text: 'hello',
  ts: '1700000000.000100',
  ...over,
});

describe('a Slack message event → InboundMessage', () => {
  it('takes a direct message with an id stable across re-sends', () => {
    const d = convertEvent(dm(), 'U0BOT', now);
    expect(d).toMatchObject({
      kind: 'message',
      message: {
        id: 'slack:D0OWNER:1700000000.000100',
        channel: 'slack',
        userId: 'U0OWNER',
        chatId: 'D0OWNER',
        chatType: 'p2p',
        text: 'hello',
        images: [],
      },
    });
    expect(parseMessageRef('D0OWNER:1700000000.000100')).toEqual({ channel: 'D0OWNER', ts: '1700000000.000100' });
  });

  it.each([
    ['a channel message', { channel_type: 'channel', channel: 'C1' }, 'not a direct message'],
    ['a group DM', { channel_type: 'mpim' }, 'not a direct message'],
    ['an edit', { subtype: 'message_changed' }, 'subtype message_changed'],
    ['a join', { subtype: 'channel_join' }, 'subtype channel_join'],
    ['another bot', { bot_id: 'B9' }, 'from a bot'],
    ['the bot itself', { user: 'U0BOT' }, 'from a bot'],
    ['no user', { user: undefined }, 'incomplete'],
  ])('ignores %s', (_, over, reason) => {
    expect(convertEvent(dm(over), 'U0BOT', now)).toEqual({ kind: 'ignore', reason });
  });

  it('decodes Slack entities and links, and keeps shared images by their private URL', () => {
    expect(
      slackTextToPlain('a &lt;b&gt; &amp; <https://x.test|x.test> <https://y.test|docs> <mailto:a@b.c|a@b.c>'),
    ).toBe('a <b> & x.test docs (https://y.test) a@b.c');
    const d = convertEvent(
      dm({
        subtype: 'file_share',
        text: '',
        files: [
          { id: 'F1', mimetype: 'image/png', url_private_download: 'https://files.test/F1?download=1' },
          { id: 'F2', mimetype: 'application/pdf', url_private_download: 'https://files.test/F2' },
        ],
      }),
      'U0BOT',
      now,
    );
    expect(d).toMatchObject({ kind: 'message', message: { images: [{ key: 'https://files.test/F1?download=1' }] } });
    expect(d.kind === 'message' && d.message.files?.map((f) => f.name)).toEqual(['F2']);
    const onlyPdf = convertEvent(
      dm({ subtype: 'file_share', text: '', files: [{ mimetype: 'application/pdf' }] }),
      'U0BOT',
      now,
    );
    expect(onlyPdf).toMatchObject({ kind: 'message', message: { unsupportedType: 'file' } });
  });

  it('keeps other shared files as files: private URL, the name as sent, the size Slack announces', () => {
    const d = convertEvent(
      dm({
        subtype: 'file_share',
        text: 'read this',
        files: [
          {
            id: 'F2',
            name: '../report.pdf',
            mimetype: 'application/pdf',
            size: 1234,
            url_private_download: 'https://f/2',
          },
          { id: 'F3', title: 'notes', mimetype: 'text/plain', url_private: 'https://f/3' },
          { id: 'F4', mimetype: 'application/zip', file_access: 'check_file_info' },
        ],
      }),
      'U0BOT',
      now,
    );
    expect(d).toMatchObject({
      kind: 'message',
      message: {
        text: 'read this',
        images: [],
        files: [
          { key: 'https://f/2', name: '../report.pdf', size: 1234 },
          { key: 'https://f/3', name: 'notes' },
        ],
      },
    });
    expect(d.kind === 'message' && d.message.unsupportedType).toBeUndefined();
  });

  it('addresses a reply inside a thread to that thread; a thread’s own first message stays top-level', () => {
    const base = { type: 'message', channel: 'D1', channel_type: 'im', user: 'U1', text: 'x' };
    const reply = convertEvent({ ...base, ts: '2.000200', thread_ts: '1.000100' }, 'UBOT', now);
    expect(reply.kind === 'message' && reply.message.chatId).toBe('D1/1.000100');
    const head = convertEvent({ ...base, ts: '1.000100', thread_ts: '1.000100' }, 'UBOT', now);
    expect(head.kind === 'message' && head.message.chatId).toBe('D1');
    expect(parseChatAddress('D1/1.000100')).toEqual({ channel: 'D1', threadTs: '1.000100' });
    expect(parseChatAddress('D1')).toEqual({ channel: 'D1' });
  });
});
