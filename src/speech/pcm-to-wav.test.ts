import { describe, expect, it } from 'vitest';
import { readWav } from '../../test/fakes/fake-transcription/fake-transcription-server.js';
import { pcmToWav } from './pcm-to-wav.js';

describe('pcmToWav', () => {
  it('writes a 16 kHz mono 16-bit header and the samples little-endian', () => {
    const pcm = Int16Array.from([0, 1, -1, 32767, -32768]);
    const wav = pcmToWav(pcm, 16_000);
    expect(wav.length).toBe(44 + 10);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(36 + 10);
    expect(wav.readUInt32LE(24)).toBe(16_000);
    expect(wav.readUInt32LE(28)).toBe(32_000);
    expect(wav.readUInt32LE(40)).toBe(10);
    expect([...wav.subarray(44, 50)]).toEqual([0, 0, 1, 0, 0xff, 0xff]);
    expect(readWav(wav)).toEqual({ pcm, rate: 16_000 });
  });
});
