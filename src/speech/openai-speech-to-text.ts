import type OpenAI from 'openai';
import { registerSecret } from '../core/redact.js';
import { SPEECH_SAMPLE_RATE, type SpeechToText } from '../bridge/voice/speech-to-text.js';
import { pcmToWav } from './pcm-to-wav.js';
import {
  loadSpeechSdk as loadSdk,
  speechClient,
  speechFailure,
  type SpeechEndpoint,
  type SpeechSdk as Sdk,
} from './openai-speech-client.js';

export interface OpenAISpeechOptions extends SpeechEndpoint {
  /** Per-request timeout, default 60 s (a 60 s piece uploads in well under that). */
  timeoutMs?: number;
}

/**
 * An OpenAI-compatible transcription endpoint (`POST {api_base}/audio/transcriptions`: OpenAI,
 * Groq, a local whisper server …) as the bridge's `SpeechToText`, through the official `openai`
 * client: each ≤ 60 s piece is sent as a 16 kHz mono WAV, and an audio clip (webm, mp4 …) whole
 * under the name it is given (`transcribeFile`); one retry on 429/5xx (the SDK's own backoff).
 * Failures become a `SpeechServiceError` whose message never holds the key; the SDK never reads
 * `OPENAI_*` variables and never logs.
 */
export function createOpenAISpeechToText(o: OpenAISpeechOptions): SpeechToText {
  registerSecret(o.apiKey);
  let client: OpenAI | undefined;
  const clientOf = (S: Sdk): OpenAI =>
    (client ??= speechClient(S, o, { maxRetries: 1, timeoutMs: o.timeoutMs ?? 60_000 }));
  /** One upload to `/audio/transcriptions`; the text heard, or a `SpeechServiceError`. */
  async function send(S: Sdk, file: Awaited<ReturnType<Sdk['toFile']>>, signal?: AbortSignal): Promise<string> {
    try {
      const answer = await clientOf(S).audio.transcriptions.create(
        { file, model: o.model, response_format: 'json' },
        signal ? { signal } : {},
      );
      return typeof answer.text === 'string' ? answer.text : '';
    } catch (err) {
      signal?.throwIfAborted();
      throw speechFailure(err, S, o);
    }
  }
  return {
    async transcribe(pcm, signal) {
      signal?.throwIfAborted();
      const S = await loadSdk();
      return send(S, await S.toFile(pcmToWav(pcm, SPEECH_SAMPLE_RATE), 'voice.wav', { type: 'audio/wav' }), signal);
    },
    async transcribeFile(bytes, file, signal) {
      signal?.throwIfAborted();
      const S = await loadSdk();
      return send(S, await S.toFile(bytes, file.filename, { type: file.mime }), signal);
    },
  };
}
