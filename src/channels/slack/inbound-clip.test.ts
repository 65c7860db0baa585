import { describe, expect, it } from 'vitest';
import { convertEvent } from './inbound-event.js';

const now = new Date('2026-01-01T00:00:00Z');
const URL_CLIP = 'https://files.slack.com/files-pri/T1-F0CLIP/download/audio_message.webm';

/** A Slack audio clip's file object as a `file_share` event carries it. */
const clipFile = (over: Record<string, unknown> = {}) => ({
  id: 'F0CLIP',
  name: 'audio_message.webm',
  mimetype: 'audio/webm',
  filetype: 'webm',
  subtype: 'slack_audio',
  size: 48_000,
  duration_ms: 4_200,
  url_private: URL_CLIP,
  url_private_download: URL_CLIP,
  ...over,
});

const share = (files: unknown[], text = '') => ({
  type: 'message',
  subtype: 'file_share',
  channel: 'D0OWNER',
  channel_type: 'im',
  user: 'U0OWNER',
  text,
  ts: '1700000000.000100',
  files,
});

const messageOf = (event: unknown) => {
  const d = convertEvent(event, 'U0BOT', now);
  if (d.kind !== 'message') throw new Error(`ignored: ${d.reason}`);
  return d.message;
};

describe('a Slack audio clip → a voice message', () => {
  it('a clip alone is the voice: its URL, duration_ms, name and announced size; no file, not unsupported', () => {
    const m = messageOf(share([clipFile()]));
    expect(m.voice).toEqual({
      key: URL_CLIP,
      durationMs: 4_200,
      clip: { name: 'audio_message.webm', size: 48_000 },
    });
    expect(m.files).toBeUndefined();
    expect(m.unsupportedType).toBeUndefined();
  });

  it('an mp4 clip without duration_ms; text beside it stays the text; later files stay files', () => {
    const mp4 = clipFile({ name: 'Audio Clip.m4a', mimetype: 'audio/mp4', duration_ms: undefined, size: undefined });
    const pdf = { id: 'F2', name: 'a.pdf', mimetype: 'application/pdf', url_private: 'https://files.slack.com/a' };
    const m = messageOf(share([mp4, pdf], 'and this'));
    expect(m.voice).toEqual({ key: URL_CLIP, clip: { name: 'Audio Clip.m4a' } });
    expect(m.text).toBe('and this');
    expect(m.files).toEqual([{ key: 'https://files.slack.com/a', name: 'a.pdf' }]);
  });

  it('only the first file can be the clip; an audio file that is no clip, or has no URL, is not one', () => {
    const pdf = { id: 'F2', name: 'a.pdf', mimetype: 'application/pdf', url_private: 'https://files.slack.com/a' };
    const second = messageOf(share([pdf, clipFile()]));
    expect(second.voice).toBeUndefined();
    expect(second.files?.map((f) => f.name)).toEqual(['a.pdf', 'audio_message.webm']);
    const upload = messageOf(share([clipFile({ subtype: undefined, name: 'song.mp3', mimetype: 'audio/mpeg' })]));
    expect(upload.voice).toBeUndefined();
    expect(upload.files?.[0]?.name).toBe('song.mp3');
    const pending = messageOf(share([clipFile({ url_private: undefined, url_private_download: undefined })]));
    expect(pending.voice).toBeUndefined();
    expect(pending.unsupportedType).toBe('file');
  });

  it('a nonsense duration or size is dropped, not trusted', () => {
    const m = messageOf(share([clipFile({ duration_ms: -5, size: 1.5 })]));
    expect(m.voice).toEqual({ key: URL_CLIP, clip: { name: 'audio_message.webm' } });
  });
});
