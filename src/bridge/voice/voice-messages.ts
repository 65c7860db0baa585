import { defineMessages } from '../../core/i18n.js';

/** What the user reads about a voice message (zh default, en). */
export const voiceMessages = defineMessages({
  zh: {
    notOgg: '语音无法识别：收到的不是 Ogg/Opus 音频',
    undecodable: '语音无法识别：音频已损坏或无法解码',
    tooLong: '语音太长（{seconds} 秒），上限 {max} 秒（voice.max_seconds）',
    heardNothing: '🎤 没有听清内容（语音转文字结果为空），这条语音没有发给 agent。请重说一遍或改发文字。',
    failed: '🎤 语音转文字失败：{reason}。这条语音没有发给 agent，请稍后重试或改发文字。',
    disabled: '语音处理已关闭（voice.enabled = false）',
    unavailable:
      '语音输入需要语音识别服务：配置飞书应用并开通 speech_to_text:speech 权限，或在 config.toml 的 [voice] 里设置 api_key（兼容 OpenAI 的转写接口）',
    transcribeError: '语音识别服务出错',
    nothingHeard: '（没有听清内容）',
    title: '🎤 语音消息',
    needPcm: '录音须以 16 kHz 16 位单声道 PCM 发送（application/octet-stream）',
    clipNeedsEndpoint:
      '这段音频（不是 Ogg/Opus 语音）无法用飞书的语音识别转文字；请在 config.toml 的 [voice] 里设置 api_key（兼容 OpenAI 的转写接口）和 service = "openai"',
    clipKept: '{reason}。音频已作为文件保存并交给 agent',
  },
  en: {
    notOgg: 'the voice message could not be read: it is not Ogg/Opus audio',
    undecodable: 'the voice message could not be read: the audio is damaged or cannot be decoded',
    tooLong: 'the voice message is too long ({seconds} s); the limit is {max} s (voice.max_seconds)',
    heardNothing:
      '🎤 Nothing was heard (the transcript is empty), so the voice message was not sent to the agent. Please say it again or type it.',
    failed:
      '🎤 The voice message could not be transcribed: {reason}. It was not sent to the agent; please retry later or type it.',
    disabled: 'voice handling is off (voice.enabled = false)',
    unavailable:
      'voice input needs a speech-to-text service: a Feishu app with the speech_to_text:speech scope, or api_key under [voice] in config.toml (an OpenAI-compatible transcription endpoint)',
    transcribeError: 'the speech recognition service failed',
    nothingHeard: '(nothing was heard)',
    title: '🎤 Voice message',
    needPcm: 'the recording must be sent as 16 kHz 16-bit mono PCM (application/octet-stream)',
    clipNeedsEndpoint:
      'this audio clip (not Ogg/Opus) cannot be transcribed with Feishu\'s speech service; set api_key (an OpenAI-compatible transcription endpoint) and service = "openai" under [voice] in config.toml',
    clipKept: '{reason}. The clip was saved as a file and passed on to the agent',
  },
});
