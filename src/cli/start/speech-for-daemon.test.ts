import { describe, expect, it } from 'vitest';
import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import { defaultConfig } from '../../core/default-config.js';
import { createLogger } from '../../core/logger.js';
import { PassThrough } from 'node:stream';
import { chosenSpeechService, daemonSpeech } from './speech-for-daemon.js';

const feishu: SpeechToText = { transcribe: () => Promise.resolve('feishu') };

function setup(voice: Partial<ReturnType<typeof defaultConfig>['voice']>) {
  const config = defaultConfig();
  Object.assign(config.voice, voice);
  const lines: string[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => lines.push(c.toString()));
  const speech = daemonSpeech(config, 'en', createLogger({ level: 'debug', sink: { stream: sink } }));
  return { speech, lines };
}

describe('daemonSpeech (voice.service)', () => {
  it('auto: Feishu’s own when Feishu runs, else the endpoint when it has a key, else none', () => {
    const none = setup({});
    expect(none.speech.forFeishu).toBeUndefined();
    expect(none.speech.pick(feishu)).toBe(feishu);
    expect(none.speech.pick(undefined)).toBeUndefined();
    const keyed = setup({ api_key: 'sk-auto-0123456789' });
    expect(keyed.speech.pick(feishu)).toBe(feishu);
    expect(keyed.speech.pick(undefined)).toBeDefined();
    expect(keyed.speech.pick(undefined)).not.toBe(feishu);
  });

  it('openai: the endpoint everywhere, Feishu included; without a key none, and the start log says so', () => {
    const keyed = setup({ service: 'openai', api_key: 'sk-openai-0123456789' });
    const endpoint = keyed.speech.pick(feishu);
    expect(endpoint).toBeDefined();
    expect(endpoint).not.toBe(feishu);
    expect(keyed.speech.forFeishu).toBe(endpoint);
    const bare = setup({ service: 'openai' });
    expect(bare.speech.forFeishu).toBeNull();
    expect(bare.speech.pick(feishu)).toBeUndefined();
    expect(bare.lines.join('')).toContain('voice.api_key is empty');
  });

  it('feishu: Feishu’s only, even with a key', () => {
    const s = setup({ service: 'feishu', api_key: 'sk-feishu-0123456789' });
    expect(s.speech.forFeishu).toBeUndefined();
    expect(s.speech.pick(feishu)).toBe(feishu);
    expect(s.speech.pick(undefined)).toBeUndefined();
  });

  it('chosenSpeechService (what doctor reports) names the service pick returns', () => {
    const voice = (service: 'auto' | 'feishu' | 'openai', api_key: string) => ({
      ...defaultConfig().voice,
      service,
      api_key,
    });
    const table = (['auto', 'feishu', 'openai'] as const).flatMap((service) =>
      ['', 'sk-table-0123456789'].flatMap((key) =>
        [true, false].map((feishuRuns) => chosenSpeechService(voice(service, key), feishuRuns)),
      ),
    );
    expect(table).toEqual([
      ...['feishu', 'none', 'feishu', 'openai'],
      ...['feishu', 'none', 'feishu', 'none'],
      ...['none', 'none', 'openai', 'openai'],
    ]);
  });
});
