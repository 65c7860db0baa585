import { hearTone } from '../voice/tone-analysis.js';
import { apiError, apiOk, type ApiReply } from './api-reply.js';

const RATE = 16_000;
const MAX_SECONDS = 60;

/** One `file_recognize` call the fake answered (or refused). */
export interface SpeechRequest {
  fileId: string;
  /** Samples of 16 kHz PCM in the request (0 when refused before decoding). */
  samples: number;
  /** The strongest tone of the piece's first second, on a 10 Hz grid; 0 for silence. */
  hz: number;
  /** What the fake answered: `recognition_text`, or the refusal's code. */
  text?: string;
  code?: number;
}

/** The answer Feishu gives an app without the `speech_to_text:speech` scope (tenant token). */
export const SPEECH_DENIED = {
  status: 400,
  code: 99991672,
  msg: 'Access denied. One of the following scopes is required: [speech_to_text:speech].应用未获取所需的权限：[speech_to_text:speech]',
} as const;

/** stand-in: a speech request whose parameters are wrong (format, engine, file_id, audio). */
export const SPEECH_INVALID = 2_200_001;

/**
 * `POST /open-apis/speech_to_text/v1/speech/file_recognize`, checked like Feishu documents it:
 * `config.format` "pcm", `config.engine_type` "16k_auto", `config.file_id` 16 characters of
 * `[A-Za-z0-9_]`, `speech.speech` base64 of 16-bit PCM (an even number of bytes), 1 sample to 60 s
 * at 16 kHz. The text is derived from the audio, so no test can pass with a fixed string: silence
 * is heard as '', a tone as `tone <Hz> Hz` (its strongest frequency in the first second).
 * `deny = true` answers every call with the missing-scope refusal.
 */
export class FakeSpeech {
  readonly requests: SpeechRequest[] = [];
  deny = false;

  recognize(body: Record<string, unknown>): ApiReply {
    const config = (body.config ?? {}) as Record<string, unknown>;
    const speech = (body.speech ?? {}) as Record<string, unknown>;
    const fileId = typeof config.file_id === 'string' ? config.file_id : '';
    const refuse = (code: number, msg: string, status = 400): ApiReply => {
      this.requests.push({ fileId, samples: 0, hz: 0, code });
      return status === SPEECH_DENIED.status && code === SPEECH_DENIED.code
        ? {
            status,
            json: {
              code,
              msg,
              error: { permission_violations: [{ type: 'action_scope_required', subject: 'speech_to_text:speech' }] },
            },
          }
        : apiError(status, code, msg);
    };
    if (this.deny) return refuse(SPEECH_DENIED.code, SPEECH_DENIED.msg);
    if (config.format !== 'pcm') return refuse(SPEECH_INVALID, 'format must be pcm');
    if (config.engine_type !== '16k_auto') return refuse(SPEECH_INVALID, 'engine_type must be 16k_auto');
    if (!/^[A-Za-z0-9_]{16}$/.test(fileId)) return refuse(SPEECH_INVALID, 'file_id must be 16 characters [A-Za-z0-9_]');
    if (this.requests.some((r) => r.fileId === fileId)) return refuse(SPEECH_INVALID, 'file_id already used');
    const b64 = speech.speech;
    if (typeof b64 !== 'string' || b64.length === 0 || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64))
      return refuse(SPEECH_INVALID, 'speech.speech must be base64');
    const bytes = Buffer.from(b64, 'base64');
    if (bytes.length % 2 !== 0) return refuse(SPEECH_INVALID, 'pcm must be 16-bit samples');
    const samples = bytes.length / 2;
    if (samples > RATE * MAX_SECONDS) return refuse(SPEECH_INVALID, 'audio longer than 60 s');
    const pcm = new Int16Array(samples);
    for (let i = 0; i < samples; i += 1) pcm[i] = bytes.readInt16LE(i * 2);
    const { hz, text } = hearTone(pcm, RATE);
    this.requests.push({ fileId, samples, hz, text });
    return apiOk({ recognition_text: text });
  }
}
