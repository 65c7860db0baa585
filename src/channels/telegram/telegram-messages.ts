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
    webhookListenExposed:
      'telegram.webhook_listen = {address} 不是本机回环地址：webhook 在这里收的是明文 HTTP（没有 TLS），网络上的其他机器也能连到。请让它只在你的 HTTPS 反向代理/隧道之后，或改为监听 127.0.0.1:{port}',
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
    webhookListenExposed:
      'telegram.webhook_listen = {address} is not a loopback address: the webhook takes plain HTTP there (no TLS), reachable from other machines. Keep it behind your HTTPS reverse proxy or tunnel only, or listen on 127.0.0.1:{port}',
  },
});
