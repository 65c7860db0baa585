/** An audio container told by its first bytes, and the extension an upload of it must carry. */
export interface AudioContainer {
  mime: string;
  extension: string;
}

const ascii = (bytes: Uint8Array, text: string, at = 0): boolean =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/**
 * The container of an audio file from its magic bytes, never from its name or the platform's word:
 * WebM/Matroska (EBML `1A 45 DF A3`), MP4/M4A (`ftyp` at byte 4), Ogg, WAV, FLAC, MP3 (ID3 tag or
 * an MPEG frame sync) — what OpenAI-compatible transcription endpoints take. Undefined otherwise.
 */
export function sniffAudio(bytes: Uint8Array): AudioContainer | undefined {
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return { mime: 'audio/webm', extension: 'webm' };
  if (ascii(bytes, 'ftyp', 4)) return { mime: 'audio/mp4', extension: 'mp4' };
  if (ascii(bytes, 'OggS')) return { mime: 'audio/ogg', extension: 'ogg' };
  if (ascii(bytes, 'RIFF') && ascii(bytes, 'WAVE', 8)) return { mime: 'audio/wav', extension: 'wav' };
  if (ascii(bytes, 'fLaC')) return { mime: 'audio/flac', extension: 'flac' };
  if (ascii(bytes, 'ID3') || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0))
    return { mime: 'audio/mpeg', extension: 'mp3' };
  return undefined;
}
