import { registerSecret } from '../core/redact.js';
import { loadSpeechSdk, speechClient, speechFailure, type SpeechEndpoint } from './openai-speech-client.js';
import type { SpeechServiceError } from './speech-service-error.js';

/**
 * What one look at the endpoint found: the key accepted and the model known; `unchecked` when the
 * models route answered a bare 404 (a local whisper server may have no `/models`: a model lookup is
 * not universal); else the failure — a model the server says it does not have included — in
 * `SpeechServiceError`'s words (never the key).
 */
export type SpeechEndpointCheck =
  { state: 'ok' } | { state: 'unchecked'; status: number } | { state: 'failed'; error: SpeechServiceError };

/**
 * One cheap request to the OpenAI-compatible endpoint — `GET {api_base}/models/{model}`, which
 * OpenAI, Groq and OpenAI-style whisper servers answer — through the official client, without
 * retries and within `timeoutMs` (default 10 s). Nothing is uploaded or billed.
 */
export async function checkOpenAISpeech(e: SpeechEndpoint, timeoutMs = 10_000): Promise<SpeechEndpointCheck> {
  registerSecret(e.apiKey);
  const S = await loadSpeechSdk();
  try {
    await speechClient(S, e, { maxRetries: 0, timeoutMs }).models.retrieve(e.model);
    return { state: 'ok' };
  } catch (err) {
    const error = speechFailure(err, S, e);
    // OpenAI and Groq say `model_not_found` for a model they do not have; a bare 404 is a route
    // the server lacks, which says nothing about the model.
    const noSuchModel = err instanceof S.APIError && err.code === 'model_not_found';
    if (error.kind === 'notFound' && !noSuchModel) return { state: 'unchecked', status: 404 };
    return { state: 'failed', error };
  }
}
