// Slack audio clips (real Bolt against the fake Slack): a clip (`slack_audio`, webm/mp4) is fetched
// with the bot token and sent whole to the OpenAI-compatible endpoint (the real `openai` client
// against a local fake) — or refused unfetched when too long, or kept as a file when the speech
// service takes PCM only (Feishu's), the user told why each time.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import type { SpeechToText } from '../../src/bridge/voice/speech-to-text.js';
import { voiceRefusal, withHeardQuote } from '../../src/bridge/voice/voice-turn.js';
import { createOpenAISpeechToText } from '../../src/speech/openai-speech-to-text.js';
import type { FakeSlack } from '../fakes/fake-slack/fake-slack-server.js';
import { startFakeTranscription } from '../fakes/fake-transcription/fake-transcription-server.js';
import { mp4Clip, webmClip } from '../fakes/voice/audio-clip-fixture.js';
import { OWNER, SlackHarness } from './slack-harness.js';
import { until } from './telegram-harness.js';

const KEY = 'sk-slack-voice-0123456789';
let h: SlackHarness;
afterEach(async () => {
  await h.cleanup();
});

/** Shares a Slack audio clip in the owner's DM, as Slack's `file_share` event carries one. */
function pushClip(fake: FakeSlack, id: string, bytes: Buffer, over: Record<string, unknown> = {}) {
  const file = fake.addFile(id, 'audio_message.webm', 'audio/webm', bytes);
  return fake.pushMessage(OWNER, '', {
    subtype: 'file_share',
    files: [{ ...file, subtype: 'slack_audio', filetype: 'webm', duration_ms: 3_400, ...over }],
  });
}

/** A final answer card, before the channel quotes what was heard. */
const answer: CardReply = { kind: 'card', title: 'done', status: 'complete', sections: [] };

const endpoint = (baseURL: string, apiKey = KEY) =>
  createOpenAISpeechToText({ baseURL, apiKey, model: 'whisper-1', lang: 'en' });

describe('Slack audio clips', () => {
  it('a clip is sent whole to the endpoint and its transcript kept; prepared again, nothing is paid twice', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const stt = await startFakeTranscription(KEY);
    try {
      const { channel, bridge } = await h.channel(fake, { speechToText: endpoint(stt.baseURL) });
      await until(() => channel.status().connected, 'connected');
      pushClip(fake, 'F0CLIP', webmClip(640));
      // Slack calls it webm, but it is an mp4 inside: the upload is named by the bytes.
      pushClip(fake, 'F0MP4', mp4Clip(320), { name: 'Audio Clip.webm', duration_ms: undefined });
      await until(() => bridge.accepted.length === 2, 'both clips accepted');
      const accepted = bridge.accepted[0]!;
      expect(accepted.unsupportedType).toBeUndefined();
      expect(accepted.files).toBeUndefined();
      expect(accepted.voice).toMatchObject({ durationMs: 3_400, clip: { name: 'audio_message.webm', size: 640 } });
      const prepared = await channel.prepare(accepted);
      expect(prepared.voice?.transcript).toBe('webm clip, 640 bytes');
      const second = await channel.prepare(bridge.accepted[1]!);
      expect(second.voice?.transcript).toBe('mp4 clip, 320 bytes');
      expect(stt.requests).toEqual([
        expect.objectContaining({ filename: 'voice.webm', bytes: 640, text: 'webm clip, 640 bytes' }),
        expect.objectContaining({ filename: 'voice.mp4', bytes: 320, text: 'mp4 clip, 320 bytes' }),
      ]);
      expect(fake.downloads).toEqual(['F0CLIP', 'F0MP4']);
      // The answer starts with what was heard.
      const card = withHeardQuote(answer, prepared, 'en');
      expect(card.sections[0]).toEqual({ type: 'quote', text: '🎤 webm clip, 640 bytes' });
      expect(await channel.prepare(prepared)).toEqual(prepared);
      expect(fake.downloads).toHaveLength(2);
      expect(stt.requests).toHaveLength(2);
      expect(h.logs.join('')).not.toContain(KEY);
      expect(h.logs.join('')).not.toContain(fake.botToken);
    } finally {
      await stt.close();
    }
  });

  it('a clip longer than voice.max_seconds (duration_ms) is refused before any download', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const stt = await startFakeTranscription(KEY);
    try {
      const { channel, bridge } = await h.channel(fake, {
        speechToText: endpoint(stt.baseURL),
        voice: { enabled: true, max_seconds: 30 },
      });
      await until(() => channel.status().connected, 'connected');
      pushClip(fake, 'F0LONG', webmClip(), { duration_ms: 95_000 });
      await until(() => bridge.accepted.length === 1, 'accepted');
      const prepared = await channel.prepare(bridge.accepted[0]!);
      expect(prepared.voice?.error).toBe('the voice message is too long (95 s); the limit is 30 s (voice.max_seconds)');
      expect(prepared.files).toBeUndefined();
      expect(fake.downloads).toEqual([]);
      expect(stt.requests).toEqual([]);
      expect(voiceRefusal(prepared, 'en')?.code).toBe('VOICE_FAILED');
    } finally {
      await stt.close();
    }
  });

  it("with a PCM-only speech service (Feishu's) the clip is kept as a file, and the user told why", async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const pieces: Int16Array[] = [];
    const feishuLike: SpeechToText = {
      transcribe: async (pcm) => {
        pieces.push(pcm);
        return 'never';
      },
    };
    const { channel, bridge } = await h.channel(fake, { speechToText: feishuLike, lang: 'en' });
    await until(() => channel.status().connected, 'connected');
    const clip = webmClip(900);
    pushClip(fake, 'F0KEEP', clip);
    await until(() => bridge.accepted.length === 1, 'accepted');
    const prepared = await channel.prepare(bridge.accepted[0]!);
    const why = prepared.voice?.error ?? '';
    expect(why).toContain(
      'cannot be transcribed with Feishu\'s speech service; set api_key (an OpenAI-compatible transcription endpoint) and service = "openai"',
    );

    const file = prepared.files?.[0];
    expect(file).toMatchObject({ name: 'audio_message.webm', size: 900 });
    expect(await readFile(file?.localPath ?? '')).toEqual(clip);
    expect(fake.downloads).toEqual(['F0KEEP']);
    expect(pieces).toEqual([]);
    // Nothing lost: the message runs with the file, and the answer quotes why it was not heard.
    expect(voiceRefusal(prepared, 'en')).toBeUndefined();
    const card = withHeardQuote(answer, prepared, 'en');
    expect(card.sections[0]).toEqual({
      type: 'quote',
      text: `🎤 ${why}. The clip was saved as a file and passed on to the agent`,
    });
    expect(await channel.prepare(prepared)).toEqual(prepared);
    expect(fake.downloads).toHaveLength(1);
  });

  it('a refused key reaches the user as a clear sentence, never the key', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const stt = await startFakeTranscription(KEY);
    const wrong = 'sk-not-the-slack-key-77';
    try {
      const { channel, bridge } = await h.channel(fake, { speechToText: endpoint(stt.baseURL, wrong) });
      await until(() => channel.status().connected, 'connected');
      pushClip(fake, 'F0AUTH', webmClip());
      await until(() => bridge.accepted.length === 1, 'accepted');
      const prepared = await channel.prepare(bridge.accepted[0]!);
      expect(prepared.voice?.error).toContain('rejected the API key (HTTP 401); check voice.api_key');
      expect(JSON.stringify(prepared)).not.toContain('sk-not');
      expect(h.logs.join('')).not.toContain(wrong);
      expect(voiceRefusal(prepared, 'en')?.reply.sections[0]).toMatchObject({
        text: expect.stringContaining('rejected the API key'),
      });
    } finally {
      await stt.close();
    }
  });
});
