/** Bytes of a canonical WAV header (RIFF, `fmt ` chunk for PCM, `data` chunk). */
const HEADER_BYTES = 44;

/**
 * 16-bit mono PCM → a WAV file (little-endian, whatever this machine's byte order), the format every
 * transcription endpoint accepts without a decoder of its own.
 */
export function pcmToWav(pcm: Int16Array, sampleRate: number): Buffer {
  const dataBytes = pcm.length * 2;
  const out = Buffer.alloc(HEADER_BYTES + dataBytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(HEADER_BYTES - 8 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  pcm.forEach((v, i) => out.writeInt16LE(v, HEADER_BYTES + i * 2));
  return out;
}
