import { defineMessages } from '../../core/i18n.js';

/** The Slack channel's own user-facing strings (zh default, en). */
export const slackMessages = defineMessages({
  zh: {
    continuedBelow: '…（回复较长，其余内容见后续消息）',
    streamCapped: '…（回复较长，完整内容将在结束后发送）',
    waiting: '⏳ 正在思考…',
    apiFailed: 'Slack 接口调用失败（{op}）：「{detail}」',
  },
  en: {
    continuedBelow: '… (long reply — continued in the next messages)',
    streamCapped: '… (long reply — the rest follows when it is done)',
    waiting: '⏳ Thinking…',
    apiFailed: 'Slack API call failed ({op}): “{detail}”',
  },
});
