import { defineMessages } from '../../core/i18n.js';

/** Texts the message pipeline itself shows (zh default, en). Command texts live in bridge-messages.ts. */
export const pipelineMessages = defineMessages({
  zh: {
    completeTitle: '✅ Claude',
    errorTitle: '❌ 处理失败',
    emptyAnswer: '（Claude 没有返回文本）',
    turns: '{n} 轮',
    denials: '⚠️ 以下工具被拒绝：{tools}',
    internalError: '处理消息时发生内部错误，请稍后重试。',
    deliveryFailed: '回复发送失败',
  },
  en: {
    completeTitle: '✅ Claude',
    errorTitle: '❌ Failed',
    emptyAnswer: '(Claude returned no text)',
    turns: '{n} turns',
    denials: '⚠️ These tools were denied: {tools}',
    internalError: 'An internal error occurred while handling your message. Please try again.',
    deliveryFailed: 'Could not send the reply',
  },
});
