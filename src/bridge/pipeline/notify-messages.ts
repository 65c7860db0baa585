import { defineMessages } from '../../core/i18n.js';

/** The short notifications `TurnNotifier` sends (zh default, en): one line each, read on a lock screen. */
export const notifyMessages = defineMessages({
  zh: {
    done: '✅ 完成：{what}（用时 {took}）',
    failed: '❌ 出错：{what}（用时 {took}）',
    stopped: '⏹ 已停止：{what}（用时 {took}）',
    permission: '⚠️ 等待你的确认：{what}',
    question: '❓ 等待你的回答：{what}',
    seconds: '{s} 秒',
    minutes: '{m} 分 {s} 秒',
    hours: '{h} 小时 {m} 分',
  },
  en: {
    done: '✅ Done: {what} ({took})',
    failed: '❌ Failed: {what} ({took})',
    stopped: '⏹ Stopped: {what} ({took})',
    permission: '⚠️ Waiting for your approval: {what}',
    question: '❓ Waiting for your answer: {what}',
    seconds: '{s} s',
    minutes: '{m} min {s} s',
    hours: '{h} h {m} min',
  },
});
