import type OpenAI from 'openai';
import {
  describeSdkFailure,
  displayURL,
  scrubSecret,
  type ProviderFailure,
} from '../ccexec/providers/provider-error.js';
import type { Language } from '../core/i18n.js';
import { registerSecret } from '../core/redact.js';
import { SPEECH_SAMPLE_RATE, type SpeechToText } from '../bridge/voice/speech-to-text.js';
import { pcmToWav } from './pcm-to-wav.js';
import { SpeechServiceError, type SpeechFailureKind } from './speech-service-error.js';

type Sdk = typeof import('openai');
let sdk: Promise<Sdk> | undefined;
/** Loaded on the first voice message, not at start-up. */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('openai'));

export interface OpenAISpeechOptions {
  /** `voice.api_base`, e.g. `https://api.openai.com/v1` or a local whisper server's `/v1`. */
  baseURL: string;
  apiKey: string;
  /** `voice.model`: `whisper-1`, `gpt-4o-mini-transcribe`, or what the server names its model. */
  model: string;
  lang: Language;
  /** Per-request timeout, default 60 s (a 60 s piece uploads in well under that). */
  timeoutMs?: number;
}

function kindOf(failure: Extract<ProviderFailure, { type: 'http' }>): SpeechFailureKind {
  const s = failure.status ?? 0;
  if (s === 401 || s === 403) return 'auth';
  if (s === 404) return 'notFound';
  if (s === 429 || s === 402) return 'rateLimit';
  if (s >= 400 && s < 500) return 'refused';
  return 'server';
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
    (client ??= new S.default({
      apiKey: o.apiKey,
      baseURL: o.baseURL,
      maxRetries: 1,
      timeout: o.timeoutMs ?? 60_000,
      organization: null,
      project: null,
      webhookSecret: null,
      logLevel: 'off',
    }));
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
      const failure = describeSdkFailure(err, S, (body) => body as { message?: unknown; type?: unknown });
      const params = { base: displayURL(o.baseURL), model: o.model };
      const detail = 'detail' in failure ? scrubSecret(failure.detail, o.apiKey) : undefined;
      const cause = new Error(detail ?? failure.type);
      if (failure.type !== 'http')
        throw new SpeechServiceError('network', o.lang, { ...params, ...(detail ? { detail } : {}) }, cause);
      const kind = kindOf(failure);
      // A wrong key is echoed in part by some servers: never quote them then.
      const quoted = kind === 'auth' ? {} : detail ? { detail } : {};
      throw new SpeechServiceError(kind, o.lang, { ...params, status: failure.status, ...quoted }, cause);
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
