/** Samples per second of the PCM every speech-to-text service here takes. */
export const SPEECH_SAMPLE_RATE = 16_000;
/** The longest piece one request may carry (Feishu's `file_recognize` limit), in seconds. */
export const SPEECH_CHUNK_SECONDS = 60;
/** The largest audio file `transcribeFile` is given (OpenAI's transcription upload limit, 25 MB). */
export const SPEECH_FILE_MAX_BYTES = 25 * 1024 * 1024;

/** What an audio file sent whole is: its sniffed type and the name it is uploaded under (the extension matters). */
export interface SpeechFile {
  /** e.g. `audio/webm`, `audio/mp4`. */
  mime: string;
  /** e.g. `clip.webm`: endpoints pick the decoder by the extension. */
  filename: string;
}

/**
 * A speech-to-text service, the seam channels use for voice messages (docs/design.md#voice-in):
 * `pcm` is 16 kHz, 16-bit, mono, at most {@link SPEECH_CHUNK_SECONDS} long; the answer is the
 * text heard ('' for silence). Throws an `AppError` whose user message says what to do.
 *
 * `transcribeFile`, when the service has it, takes a compressed audio file whole (webm, mp4/m4a,
 * mp3, ogg, wav; at most {@link SPEECH_FILE_MAX_BYTES}) — the audio clips our decoder cannot read
 * (Slack's). A service without it (Feishu's, PCM only) cannot transcribe those.
 */
export interface SpeechToText {
  transcribe(pcm: Int16Array, signal?: AbortSignal): Promise<string>;
  transcribeFile?(bytes: Uint8Array, file: SpeechFile, signal?: AbortSignal): Promise<string>;
}
