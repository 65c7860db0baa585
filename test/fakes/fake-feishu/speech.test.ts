import { describe, expect, it } from 'vitest';
import { FakeSpeech, SPEECH_INVALID } from './speech.js';

const pcmOf = (samples: number, hz = 440): string => {
  const buf = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1)
    buf.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / 16_000)), i * 2);
  return buf.toString('base64');
};
const body = (over: { speech?: unknown; file_id?: unknown; format?: unknown; engine_type?: unknown } = {}) => ({
  speech: { speech: 'speech' in over ? over.speech : pcmOf(16_000) },
  config: {
    file_id: 'file_id' in over ? over.file_id : 'abcdefgh_1234567',
    format: 'format' in over ? over.format : 'pcm',
    engine_type: 'engine_type' in over ? over.engine_type : '16k_auto',
  },
});
const codeOf = (reply: { status: number } & ({ json: unknown } | object)) =>
  'json' in reply ? (reply.json as { code: number }).code : undefined;

describe('the fake speech recognition checks what Feishu checks', () => {
  it('answers a tone from the audio itself', () => {
    const s = new FakeSpeech();
    const reply = s.recognize(body());
    expect(reply).toMatchObject({ status: 200, json: { code: 0, data: { recognition_text: 'tone 440 Hz' } } });
  });

  it.each([
    ['format', { format: 'wav' }],
    ['engine', { engine_type: '8k_en' }],
    ['short file_id', { file_id: 'abc' }],
    ['file_id with a dash', { file_id: 'abcdefgh-1234567' }],
    ['not base64', { speech: 'not base64!' }],
    ['an odd number of bytes', { speech: Buffer.from([1, 2, 3]).toString('base64') }],
    ['more than 60 s', { speech: pcmOf(60 * 16_000 + 1) }],
  ])('refuses %s', (_name, over) => {
    const s = new FakeSpeech();
    expect(codeOf(s.recognize(body(over)))).toBe(SPEECH_INVALID);
  });

  it('refuses a file_id used before, and answers the missing-scope error when denied', () => {
    const s = new FakeSpeech();
    expect(codeOf(s.recognize(body()))).toBe(0);
    expect(codeOf(s.recognize(body()))).toBe(SPEECH_INVALID);
    s.deny = true;
    expect(s.recognize(body({ file_id: 'zzzzzzzzzzzzzzzz' }))).toMatchObject({ status: 400, json: { code: 99991672 } });
  });
});
