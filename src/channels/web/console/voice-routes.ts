import type { IncomingMessage, ServerResponse } from 'node:http';
import { splitPcm } from '../../../bridge/voice/split-pcm.js';
import { SPEECH_CHUNK_SECONDS, SPEECH_SAMPLE_RATE, type SpeechToText } from '../../../bridge/voice/speech-to-text.js';
import { voiceMessages } from '../../../bridge/voice/voice-messages.js';
import type { InboundVoice } from '../../../bridge/inbound-message.js';
import { isAppError } from '../../../core/app-error.js';
import type { Language } from '../../../core/i18n.js';
import { HttpError, readRawBody, sendJson } from '../http/http-io.js';
import { httpMessages } from '../http/http-messages.js';
import { WebChannel } from '../web-channel.js';
import type { ApiContext } from './api-routes.js';
import { consoleMessages } from './console-messages.js';
import { requireUuid } from './request-params.js';

/** What the console's voice routes need besides the API context. */
export interface VoiceContext {
  api: ApiContext;
  /** Absent: voice is off or no speech service is configured (the page hides its microphone). */
  stt?: SpeechToText;
}

const SESSION_ID = /^[0-9a-zA-Z-]{1,64}$/;

/** The longest recording accepted, in bytes of 16 kHz 16-bit PCM (`voice.max_seconds`). */
export function maxVoiceBytes(ctx: ApiContext): number {
  return ctx.config.voice.max_seconds * SPEECH_SAMPLE_RATE * 2;
}

/** The raw PCM body, or 413 as soon as it (or its declared length) passes `max`. */
function readPcm(req: IncomingMessage, max: number, lang: Language): Promise<Buffer> {
  return readRawBody(req, 'application/octet-stream', max, {
    badType: voiceMessages(lang)('needPcm'),
    tooLarge: httpMessages(lang)('bodyTooLarge', { max }),
  });
}

/** Little-endian 16-bit samples as an `Int16Array` of their own (aligned, whatever the machine). */
function samplesOf(bytes: Buffer): Int16Array {
  const out = new Int16Array(bytes.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = bytes.readInt16LE(i * 2);
  return out;
}

/** The recording as text, or why not (the speech service's message, in the page's language). */
async function transcribe(stt: SpeechToText, pcm: Int16Array, lang: Language): Promise<Partial<InboundVoice>> {
  try {
    const texts: string[] = [];
    for (const piece of splitPcm(pcm, SPEECH_SAMPLE_RATE, SPEECH_CHUNK_SECONDS))
      texts.push((await stt.transcribe(piece)).trim());
    return { transcript: texts.filter((t) => t !== '').join(' ') };
  } catch (err) {
    return { error: isAppError(err) ? err.localize(lang) : voiceMessages(lang)('transcribeError') };
  }
}

/**
 * The console's microphone (`ui/voice-recorder.js`), two routes behind the console's login and
 * same-origin check like every `/api/` route:
 * - `GET /api/voice` → `{available, maxSeconds}`: whether the page shows its microphone;
 * - `POST /api/voice/messages?id=<page uuid>[&session=<id>]`, body the recording as 16 kHz 16-bit LE
 *   mono PCM (`application/octet-stream`, at most `voice.max_seconds`): transcribed in ≤ 60 s pieces
 *   with the daemon's speech service, then sent like typed text (pinned to the session when given)
 *   as a voice message, so the bridge quotes `🎤 <transcript>` on the reply, or answers "nothing
 *   heard" / the failure and runs nothing. Without a speech service: 503 saying what is needed.
 * Returns false for any other path.
 */
export async function handleVoice(
  v: VoiceContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  lang: Language,
): Promise<boolean> {
  const ctx = v.api;
  if (url.pathname === '/api/voice' && req.method === 'GET') {
    sendJson(res, 200, { available: Boolean(v.stt && ctx.bridge), maxSeconds: ctx.config.voice.max_seconds });
    return true;
  }
  if (url.pathname !== '/api/voice/messages') return false;
  if (req.method !== 'POST') throw new HttpError(405, httpMessages(lang)('methodNotAllowed'));
  if (!v.stt) throw new HttpError(503, voiceMessages(lang)('unavailable'));
  if (!ctx.bridge) throw new HttpError(503, consoleMessages(lang)('noBridge'));
  const uuid = requireUuid(url.searchParams.get('id'), lang);
  const sessionId = url.searchParams.get('session') || undefined;
  if (sessionId !== undefined && !SESSION_ID.test(sessionId))
    throw new HttpError(400, consoleMessages(lang)('badRequest', { reason: 'session' }));
  const bytes = await readPcm(req, maxVoiceBytes(ctx), lang);
  if (bytes.length < 2 || bytes.length % 2 !== 0)
    throw new HttpError(400, consoleMessages(lang)('badRequest', { reason: 'audio' }));
  if (sessionId && !(await ctx.sessions.get(sessionId)))
    throw new HttpError(404, consoleMessages(lang)('sessionNotFound', { id: sessionId }));
  const pcm = samplesOf(bytes);
  const voice: InboundVoice = {
    durationMs: Math.round((pcm.length / SPEECH_SAMPLE_RATE) * 1000),
    ...(await transcribe(v.stt, pcm, lang)),
  };
  const message = { ...WebChannel.message(uuid, '', new Date(), sessionId), voice };
  const shown = `🎤 ${voice.transcript || voice.error || voiceMessages(lang)('nothingHeard')}`;
  const view = await ctx.outbox.recordUser(message.id, shown, sessionId);
  const result = await ctx.bridge.accept(message);
  sendJson(res, 200, { message: view, result, transcript: voice.transcript ?? null });
  return true;
}
