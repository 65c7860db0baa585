import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { AppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import { FeishuApiError } from './feishu-api-error.js';
import type { FeishuApi } from './feishu-api.js';
import { feishuMessages } from './feishu-messages.js';

/**
 * Feishu's "access denied" codes: 99991672 — the app lacks a scope (tenant token); 99991679 — the
 * same for a user token. The `msg` names the missing scope.
 */
const DENIED_CODES = new Set([99991672, 99991679]);

/** Speech-to-text refused because the app has no `speech_to_text:speech` scope; says how to grant it. */
export class FeishuSpeechDenied extends AppError {
  constructor(lang: Language, cause: unknown) {
    super('FEISHU_SPEECH_DENIED', feishuMessages(lang)('speechDenied'), { cause });
  }

  override localize(lang: Language): string {
    return feishuMessages(lang)('speechDenied');
  }
}

/** 16 random characters of `[A-Za-z0-9_]`, the shape `file_recognize` wants for `file_id`. */
export function speechFileId(): string {
  return randomBytes(12).toString('base64url').replace(/-/g, '_');
}

/** Samples as 16-bit little-endian bytes, whatever this machine's byte order. */
function littleEndian(pcm: Int16Array): Buffer {
  if (os.endianness() === 'LE') return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const out = Buffer.alloc(pcm.length * 2);
  pcm.forEach((v, i) => out.writeInt16LE(v, i * 2));
  return out;
}

/**
 * Feishu's speech recognition as the bridge's `SpeechToText`: each piece is one
 * `file_recognize` call (base64 PCM, a fresh `file_id`), through the shared retry policy. A
 * missing scope becomes `FeishuSpeechDenied`; any other failure stays a `FeishuApiError`.
 */
export function createFeishuSpeechToText(api: Pick<FeishuApi, 'recognizeSpeech'>, lang: Language): SpeechToText {
  return {
    async transcribe(pcm, signal) {
      signal?.throwIfAborted();
      try {
        return await api.recognizeSpeech(littleEndian(pcm).toString('base64'), speechFileId());
      } catch (err) {
        if (err instanceof FeishuApiError && err.failure.code !== undefined && DENIED_CODES.has(err.failure.code))
          throw new FeishuSpeechDenied(lang, err);
        throw err;
      }
    },
  };
}
