import { defineMessages } from '../../core/i18n.js';

/** The Telegram channel's own user-facing strings (zh default, en). */
export const telegramMessages = defineMessages({
  zh: {
    continuedBelow: '…（回复较长，其余内容见后续消息）',
    streamCapped: '…（回复较长，完整内容将在结束后发送）',
    waiting: '⏳ 正在思考…',
    actionInvalid: '按钮已失效',
    actionFailed: '操作失败，请重试',
    actionDone: '已处理',
    apiFailed: 'Telegram 接口调用失败（{op}）：「{detail}」',
    fileTooBigForBots: 'Telegram 只允许机器人下载不超过 {size} 的文件，请压缩后重发或改发链接',
    webhookListenFailed: 'Telegram webhook 无法监听 {address}（{reason}），请检查 telegram.webhook_listen',
  },
  en: {
    continuedBelow: '… (long reply — continued in the next messages)',
    streamCapped: '… (long reply — the rest follows when it is done)',
    waiting: '⏳ Thinking…',
    actionInvalid: 'This button has expired',
    actionFailed: 'The action failed, please retry',
    actionDone: 'Done',
    apiFailed: 'Telegram API call failed ({op}): “{detail}”',
    fileTooBigForBots:
      'Telegram lets bots download files up to {size} only; compress it and send it again, or send a link',
    webhookListenFailed: 'The Telegram webhook cannot listen on {address} ({reason}); check telegram.webhook_listen',
  },
});
