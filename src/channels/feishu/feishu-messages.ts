import { defineMessages } from '../../core/i18n.js';

/** The Feishu channel's own user-facing strings (zh default, en). */
export const feishuMessages = defineMessages({
  zh: {
    truncated: '…（内容过长，已截断）',
    continuedBelow: '…（回复较长，其余内容见后续消息）',
    streamCapped: '…（回复较长，完整内容将在结束后发送）',
    streamTitle: '⏳ 处理中',
    streamSummary: '正在回复…',
    waiting: '⏳ 正在思考…',
    actionInvalid: '无法识别的按钮操作',
    actionPending: '正在处理…',
    actionFailed: '操作失败，请重试',
    apiFailed: '飞书接口调用失败（{op}）：「{detail}」',
    speechDenied:
      '飞书应用没有语音识别权限。开通方法：飞书开发者后台 → 你的应用 → 权限管理 → 搜索并开通「语音识别」（speech_to_text:speech）→ 版本管理与发布 → 创建并发布新版本，之后重新发送语音',
  },
  en: {
    truncated: '… (too long, truncated)',
    continuedBelow: '… (long reply — continued in the next messages)',
    streamCapped: '… (long reply — the rest follows when it is done)',
    streamTitle: '⏳ Working',
    streamSummary: 'Replying…',
    waiting: '⏳ Thinking…',
    actionInvalid: 'Unrecognised button action',
    actionPending: 'Working on it…',
    actionFailed: 'The action failed, please retry',
    apiFailed: 'Feishu API call failed ({op}): “{detail}”',
    speechDenied:
      'the Feishu app is not permitted to use speech-to-text. To grant it: Feishu developer console → your app → Permissions & Scopes → add the speech-to-text scope (speech_to_text:speech) → Version Management & Release → publish a new version, then send the voice message again',
  },
});
