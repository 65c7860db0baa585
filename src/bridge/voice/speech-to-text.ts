/** Samples per second of the PCM every speech-to-text service here takes. */
export const SPEECH_SAMPLE_RATE = 16_000;
/** The longest piece one request may carry (Feishu's `file_recognize` limit), in seconds. */
export const SPEECH_CHUNK_SECONDS = 60;

/**
 * A speech-to-text service, the seam channels use for voice messages (docs/design.md#voice-in):
 * `pcm` is 16 kHz, 16-bit, mono, at most {@link SPEECH_CHUNK_SECONDS} long; the answer is the
 * text heard ('' for silence). Throws an `AppError` whose user message says what to do.
 */
export interface SpeechToText {
  transcribe(pcm: Int16Array, signal?: AbortSignal): Promise<string>;
}
