import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/bridge/inbound-message.js';
import { createFeishuChannel } from '../../src/channels/feishu/feishu-channel.js';
import { bridgeHarness, OWNER, type BridgeHarness } from '../fakes/bridge-harness.js';
import { messageEvent, type FakeFeishu } from '../fakes/fake-feishu/fake-feishu-server.js';
import { concat, encodeOggOpus, tone, toneNote } from '../fakes/voice/ogg-opus-fixture.js';
import { FeishuHarness } from './feishu-harness.js';

// Voice notes on Feishu: the real Lark SDK against the fake Feishu (whose speech recognition checks
// each request and answers from the audio itself), the real bridge with a fake agent. What the
// agent was asked is the fake engine's record; what the user saw is the fake Feishu's.

let b: BridgeHarness;
let f: FeishuHarness;
afterEach(async () => {
  await f?.cleanup();
  await b?.cleanup();
});

const idOf = (event: { event: Record<string, unknown> }): string =>
  (event.event.message as { message_id: string }).message_id;

/** A bridge (English, new sessions in ~/Git/alpha) with a real Feishu channel connected to a fake Feishu. */
async function system(): Promise<{ fake: FakeFeishu; channel: ReturnType<typeof createFeishuChannel> }> {
  b = await bridgeHarness({ bridge: { lang: 'en' } });
  await b.mapping.setPendingNew(OWNER, { cwd: path.join(b.home, 'Git/alpha') });
  f = new FeishuHarness();
  const fake = await f.fake();
  const channel = createFeishuChannel(await f.options(fake, { lang: 'en' }));
  b.bridge.addChannel(channel);
  await channel.start(b.bridge);
  await fake.waitForConnection();
  return { fake, channel };
}

/** Sends `bytes` as the owner's voice message and waits until the bridge has answered it. */
async function sendVoice(fake: FakeFeishu, bytes: Buffer, durationMs: number): Promise<string> {
  const event = messageEvent({
    openId: OWNER,
    messageType: 'audio',
    content: { file_key: 'file_v3_voice', duration: durationMs },
  });
  fake.addFile(idOf(event), 'file_v3_voice', bytes, 'voice.opus');
  const { ack } = await fake.pushEvent(event);
  expect(ack.code).toBe(200);
  const id = `feishu:${idOf(event)}`;
  for (;;) {
    if ((await b.spool.locate(id)) === 'done' || (await b.spool.locate(id)) === 'failed') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await b.bridge.whenIdle();
  return idOf(event);
}

/** Everything the owner was sent, joined, with the cards' markdown entities (`&#38;`) decoded. */
const seen = (fake: FakeFeishu): string =>
  fake
    .messagesTo(OWNER)
    .map((m) => fake.textOf(m).replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))))
    .join('\n---\n');

describe('Feishu voice notes in', () => {
  it('a voice note is transcribed, the transcript is the prompt, and the card shows 🎤 with it', async () => {
    const { fake } = await system();
    await sendVoice(fake, toneNote(440, 3), 3000);

    expect(fake.speech.requests).toHaveLength(1);
    const request = fake.speech.requests[0];
    expect(request?.fileId).toMatch(/^[A-Za-z0-9_]{16}$/);
    expect(request?.samples).toBe(Math.floor((3 * 48_000 - 312) / 3));
    expect(b.engine.requests.map((r) => r.prompt)).toEqual(['[voice message, transcribed] tone 440 Hz']);
    const text = seen(fake);
    expect(text).toContain('🎤 tone 440 Hz');
    expect(text.indexOf('🎤 tone 440 Hz')).toBeLessThan(text.indexOf('echo: [voice message'));
  });

  it(
    'a 130 s note goes out as 3 pieces of at most 60 s, in order, and their texts are joined',
    { timeout: 90_000 },
    async () => {
      const { fake } = await system();
      const audio = concat(tone(300, 50), tone(600, 50), tone(900, 30));
      await sendVoice(fake, encodeOggOpus(audio), 130_000);

      const pieces = fake.speech.requests;
      expect(pieces).toHaveLength(3);
      for (const p of pieces) expect(p.samples).toBeLessThanOrEqual(60 * 16_000);
      expect(pieces.reduce((n, p) => n + p.samples, 0)).toBe(Math.floor((130 * 48_000 - 312) / 3));
      expect(new Set(pieces.map((p) => p.fileId)).size).toBe(3);
      expect(b.engine.requests.map((r) => r.prompt)).toEqual([
        '[voice message, transcribed] tone 300 Hz tone 600 Hz tone 900 Hz',
      ]);
    },
  );

  it('speech-to-text not permitted: the reply says how to grant it, and nothing runs', async () => {
    const { fake } = await system();
    fake.speech.deny = true;
    await sendVoice(fake, toneNote(440, 2), 2000);

    expect(fake.speech.requests.map((r) => r.code)).toEqual([99991672]); // refused once, not retried
    expect(b.engine.requests).toHaveLength(0);
    const text = seen(fake);
    expect(text).toContain('not permitted to use speech-to-text');
    expect(text).toContain('Permissions & Scopes');
    expect(text).toContain('speech_to_text:speech');
    expect(text).toContain('publish a new version');
    expect(text).toContain('It was not sent to the agent');
  });

  it('garbage bytes: a clear reply, no speech request, nothing runs', async () => {
    const { fake } = await system();
    await sendVoice(fake, Buffer.from('this is not audio at all'), 1000);

    expect(fake.speech.requests).toHaveLength(0);
    expect(b.engine.requests).toHaveLength(0);
    expect(seen(fake)).toContain('it is not Ogg/Opus audio');
  });

  it('silence: "nothing was heard", nothing runs', async () => {
    const { fake } = await system();
    await sendVoice(fake, toneNote(0, 2), 2000);

    expect(fake.speech.requests).toHaveLength(1);
    expect(b.engine.requests).toHaveLength(0);
    expect(seen(fake)).toContain('Nothing was heard');
  });

  it('a note longer than voice.max_seconds is refused from its duration, without downloading it', async () => {
    const { fake } = await system();
    await sendVoice(fake, toneNote(440, 1), 400_000);

    expect(fake.requests.some((r) => r.path.includes('/resources/'))).toBe(false);
    expect(fake.speech.requests).toHaveLength(0);
    expect(seen(fake)).toContain('too long (400 s); the limit is 300 s');
  });

  it('a message prepared once is not transcribed again when prepared a second time (a retried record)', async () => {
    const { fake, channel } = await system();
    const event = messageEvent({
      openId: OWNER,
      messageType: 'audio',
      content: { file_key: 'file_k', duration: 1000 },
    });
    fake.addFile(idOf(event), 'file_k', toneNote(500, 1), 'voice.opus');
    const message: InboundMessage = {
      id: `feishu:${idOf(event)}`,
      channel: 'feishu',
      platformMessageId: idOf(event),
      userId: OWNER,
      chatId: 'oc_x',
      chatType: 'p2p',
      text: '',
      images: [],
      voice: { key: 'file_k', durationMs: 1000 },
      receivedAt: new Date().toISOString(),
    };
    const once = await channel.prepare(message);
    expect(once.voice?.transcript).toBe('tone 500 Hz');
    const twice = await channel.prepare(once);
    expect(twice).toEqual(once);
    expect(fake.speech.requests).toHaveLength(1);
  });
});
