import { defineMessages } from '../core/i18n.js';

/** What the user reads when the transcription endpoint fails (zh default, en). */
export const speechMessages = defineMessages({
  zh: {
    auth: '语音转写服务（{base}）拒绝了 API key（HTTP {status}），请检查 voice.api_key',
    notFound: '语音转写服务（{base}）没有模型 {model}（HTTP 404），请检查 voice.model 和 voice.api_base',
    rateLimit: '语音转写服务限流或额度不足（HTTP {status}），请稍后再试',
    network: '连不上语音转写服务（{base}）：{detail}',
    refused: '语音转写服务拒绝了这段录音（HTTP {status}）：{detail}',
    server: '语音转写服务出错（{status}）：{detail}',
  },
  en: {
    auth: 'the transcription service ({base}) rejected the API key (HTTP {status}); check voice.api_key',
    notFound:
      'the transcription service ({base}) has no model {model} (HTTP 404); check voice.model and voice.api_base',
    rateLimit: 'the transcription service is rate-limiting or out of quota (HTTP {status}); try again later',
    network: 'cannot reach the transcription service ({base}): {detail}',
    refused: 'the transcription service refused the recording (HTTP {status}): {detail}',
    server: 'the transcription service failed ({status}): {detail}',
  },
});
