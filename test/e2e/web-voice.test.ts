// The console's microphone in a real Chromium with a fake microphone playing a 440 Hz tone: the
// page records, downsamples to 16 kHz and posts the PCM; the console transcribes it with Feishu's
// speech-to-text (the real Lark SDK against the fake Feishu, which answers from the audio) and the
// bridge runs it in the open session like typed text, the reply quoting what was heard.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeFeishu } from '../fakes/fake-feishu/fake-feishu-server.js';
import { FeishuHarness } from './feishu-harness.js';
import { HAS_CHROMIUM, SESSION_ID, startWebHarness, type WebHarness } from './web-harness.js';

/** A 16-bit mono WAV of a `hz` tone (Chromium loops it as the fake microphone). */
function toneWav(file: string, hz: number, seconds: number, rate = 48_000): void {
  const samples = rate * seconds;
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i += 1)
    b.writeInt16LE(Math.round(12_000 * Math.sin((2 * Math.PI * hz * i) / rate)), 44 + i * 2);
  fs.writeFileSync(file, b);
}

describe.skipIf(!HAS_CHROMIUM)('web console: the microphone (chromium, fake microphone)', () => {
  let h: WebHarness;
  let f: FeishuHarness;
  let fake: FakeFeishu;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-voice-'));
    const wav = path.join(dir, 'tone.wav');
    toneWav(wav, 440, 4);
    f = new FeishuHarness();
    fake = await f.fake();
    const { channel } = await f.outboundOnly(fake, { lang: 'en' });
    h = await startWebHarness({
      lang: 'en',
      speechToText: channel.speechToText,
      chromiumArgs: [
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${wav}`,
      ],
    });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    await f?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records, transcribes with Feishu speech-to-text and sends to the open session; the reply quotes 🎤', async () => {
    const { page, context } = await h.page({ locale: 'en-US' });
    await context.grantPermissions(['microphone']);
    await page.goto(`${new URL(h.web.url).origin}/#/sessions/${SESSION_ID}`);
    const mic = page.locator('#voice-button');
    await mic.waitFor();
    expect(await mic.textContent()).toBe('🎤 Voice');
    await mic.click();
    await page.locator('#voice-button[data-state="recording"]').waitFor();
    // Record until the page has 2 s of audio, then stop and send.
    await page.locator('#voice-button', { hasText: /Stop and send [2-9]/ }).waitFor();
    await mic.click();
    await page
      .locator('#s-live .card-complete', { hasText: 'echo: [voice message, transcribed] tone 440 Hz' })
      .waitFor({ timeout: 20_000 });

    expect(fake.speech.requests).toHaveLength(1);
    const piece = fake.speech.requests[0];
    expect(piece?.hz).toBe(440);
    expect(piece?.samples).toBeGreaterThan(16_000);
    const req = h.bh.engine.requests.at(-1);
    expect(req).toMatchObject({ prompt: '[voice message, transcribed] tone 440 Hz', sessionId: SESSION_ID });
    const card = page.locator('#s-live .card-complete').last();
    expect(await card.locator('blockquote').first().textContent()).toContain('🎤 tone 440 Hz');
    expect(await page.locator('#s-live .msg-user').last().textContent()).toBe('🎤 tone 440 Hz');
    await page.locator('#voice-button[data-state="idle"]').waitFor();
    await h.shot(page, 'voice-recorded');
  }, 60_000);
});
