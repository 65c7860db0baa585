import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { createOpenAISpeechToText } from '../../speech/openai-speech-to-text.js';

/** Which speech-to-text each part of the daemon uses (docs/design.md#voice-in). */
export interface DaemonSpeech {
  /** For Feishu's channel: undefined = its own speech recognition, null = none, else this one. */
  forFeishu: SpeechToText | null | undefined;
  /** For the other channels and the console, given Feishu's own when a Feishu channel runs. */
  pick(feishu: SpeechToText | undefined): SpeechToText | undefined;
}

/**
 * `voice.service`: `feishu` = Feishu's speech recognition only; `openai` = the OpenAI-compatible
 * endpoint only (`voice.api_key` set), Feishu's voice messages included; `auto` = Feishu's when a
 * Feishu channel runs, else the endpoint. A choice that cannot work is logged once at start; the
 * user who sends a voice message then reads how to set one up.
 */
export function daemonSpeech(config: Config, lang: Language, logger: Logger): DaemonSpeech {
  const v = config.voice;
  const endpoint =
    v.api_key !== ''
      ? createOpenAISpeechToText({ baseURL: v.api_base, apiKey: v.api_key, model: v.model, lang })
      : undefined;
  if (v.enabled && v.service === 'openai' && !endpoint)
    logger.warn('voice.service is "openai" but voice.api_key is empty: voice messages cannot be transcribed');
  return {
    forFeishu: v.service === 'openai' ? (endpoint ?? null) : undefined,
    pick(feishu) {
      const chosen = chosenSpeechService(v, feishu !== undefined);
      return chosen === 'feishu' ? feishu : chosen === 'openai' ? endpoint : undefined;
    },
  };
}

/**
 * Which service transcribes voice for the channels other than Feishu and the console, given whether
 * a Feishu channel runs (its own speech recognition is then at hand): the rule of `daemonSpeech`,
 * also what `doctor` reports. `none` = voice messages are answered with how to set one up.
 */
export function chosenSpeechService(v: Config['voice'], feishuRuns: boolean): 'feishu' | 'openai' | 'none' {
  const endpoint = v.api_key !== '';
  if (v.service === 'feishu') return feishuRuns ? 'feishu' : 'none';
  if (v.service === 'openai') return endpoint ? 'openai' : 'none';
  return feishuRuns ? 'feishu' : endpoint ? 'openai' : 'none';
}
