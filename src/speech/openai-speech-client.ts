import type OpenAI from 'openai';
import {
  describeSdkFailure,
  displayURL,
  scrubSecret,
  type ProviderFailure,
} from '../ccexec/providers/provider-error.js';
import type { Language } from '../core/i18n.js';
import { SpeechServiceError, type SpeechFailureKind } from './speech-service-error.js';

export type SpeechSdk = typeof import('openai');
let sdk: Promise<SpeechSdk> | undefined;
/** The `openai` module, loaded on first use (a voice message, `doctor`), not at start-up. */
export const loadSpeechSdk = (): Promise<SpeechSdk> => (sdk ??= import('openai'));

/** Where the OpenAI-compatible transcription endpoint is and who we are to it (`[voice]`). */
export interface SpeechEndpoint {
  /** `voice.api_base`, e.g. `https://api.openai.com/v1` or a local whisper server's `/v1`. */
  baseURL: string;
  apiKey: string;
  /** `voice.model`: `whisper-1`, `gpt-4o-mini-transcribe`, or what the server names its model. */
  model: string;
  lang: Language;
}

/**
 * The official client for the endpoint: it never reads `OPENAI_*` variables (organization, project
 * and webhook secret set to null) and never logs.
 */
export function speechClient(S: SpeechSdk, e: SpeechEndpoint, o: { maxRetries: number; timeoutMs: number }): OpenAI {
  return new S.default({
    apiKey: e.apiKey,
    baseURL: e.baseURL,
    maxRetries: o.maxRetries,
    timeout: o.timeoutMs,
    organization: null,
    project: null,
    webhookSecret: null,
    logLevel: 'off',
  });
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
 * What the client threw, as a `SpeechServiceError` whose message never holds the key: the
 * server's wording is scrubbed of it, and dropped altogether for a refused key (some servers echo
 * part of a wrong key).
 */
export function speechFailure(err: unknown, S: SpeechSdk, e: SpeechEndpoint): SpeechServiceError {
  const failure = describeSdkFailure(err, S, (body) => body as { message?: unknown; type?: unknown });
  const params = { base: displayURL(e.baseURL), model: e.model };
  const detail = 'detail' in failure ? scrubSecret(failure.detail, e.apiKey) : undefined;
  const cause = new Error(detail ?? failure.type);
  if (failure.type !== 'http')
    return new SpeechServiceError('network', e.lang, { ...params, ...(detail ? { detail } : {}) }, cause);
  const kind = kindOf(failure);
  const quoted = kind === 'auth' ? {} : detail ? { detail } : {};
  return new SpeechServiceError(kind, e.lang, { ...params, status: failure.status, ...quoted }, cause);
}
