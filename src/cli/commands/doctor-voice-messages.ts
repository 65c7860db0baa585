import { defineMessages } from '../../core/i18n.js';

/** What `doctor`'s voice check says (zh default, en); `{error}` is a `SpeechServiceError`'s sentence. */
export const doctorVoiceMessages = defineMessages({
  zh: {
    off: '语音: 已关闭（voice.enabled = false），语音消息会回复"语音处理已关闭"',
    noneAuto:
      '语音: 没有可用的语音转写服务，语音消息会收到如何配置的说明；请设置 [voice] api_key（或 CC_LINKER_VOICE_API_KEY，OpenAI 兼容接口）或配置飞书应用',
    noneFeishu:
      '语音: voice.service = "feishu"，但没有配置飞书应用（feishu_bot.app_id / app_secret），语音消息会收到如何配置的说明',
    noneOpenai:
      '语音: voice.service = "openai"，但 [voice] api_key（或 CC_LINKER_VOICE_API_KEY）为空，语音消息会收到如何配置的说明',
    feishu: '语音: 使用飞书语音识别（应用需要 speech_to_text:speech 权限）',
    slackClipsNoKey:
      '语音: Slack 的音频片段（webm/mp4）会保存为文件：飞书语音识别只接受原始音频；要转写它们，请设置 [voice] api_key 和 service = "openai"',
    slackClipsKey:
      '语音: Slack 的音频片段（webm/mp4）会保存为文件：飞书语音识别只接受原始音频；要转写它们，请设置 [voice] service = "openai"',
    openai: '语音: 转写服务 {base} 接受了 API key，模型 {model}',
    unchecked:
      '语音: 转写服务 {base} 可以连接，但无法查询模型 {model}（/models 返回 HTTP {status}），第一条语音消息会见分晓',
    failed: '语音: {error}',
  },
  en: {
    off: 'Voice: off (voice.enabled = false); voice messages are answered "voice handling is off"',
    noneAuto:
      'Voice: no speech service set up; voice messages will be answered with how to set one up — set [voice] api_key (or CC_LINKER_VOICE_API_KEY, an OpenAI-compatible endpoint) or a Feishu app',
    noneFeishu:
      'Voice: voice.service is "feishu" but no Feishu app is set up (feishu_bot.app_id / app_secret); voice messages will be answered with how to set one up',
    noneOpenai:
      'Voice: voice.service is "openai" but [voice] api_key (or CC_LINKER_VOICE_API_KEY) is empty; voice messages will be answered with how to set one up',
    feishu: "Voice: Feishu's speech recognition (the app needs the speech_to_text:speech scope)",
    slackClipsNoKey:
      'Voice: Slack audio clips (webm/mp4) will be kept as files: Feishu\'s speech recognition takes raw audio only; set [voice] api_key and service = "openai" to transcribe them',
    slackClipsKey:
      'Voice: Slack audio clips (webm/mp4) will be kept as files: Feishu\'s speech recognition takes raw audio only; set [voice] service = "openai" to transcribe them',
    openai: 'Voice: the transcription service {base} accepted the API key, model {model}',
    unchecked:
      'Voice: the transcription service {base} answered, but the model {model} could not be checked (HTTP {status} on /models); the first voice message will tell',
    failed: 'Voice: {error}',
  },
});
