import { defineMessages } from '../../core/i18n.js';

/**
 * Text of setup's Telegram question "how does the bot receive messages" (long polling or a
 * webhook), zh (default) and en. No message takes the bot token or the webhook secret.
 */
export const telegramReceiveMessages = defineMessages({
  zh: {
    intro:
      '\n机器人怎样收消息：\n  1) 长轮询（推荐）：cc-linker 主动向 Telegram 取消息，在 NAT/家庭网络后面也能用，不需要暴露任何端口；\n  2) webhook：Telegram 把消息 POST 到你的公网 https:// 地址，由你的反向代理或隧道转发给 cc-linker（适合有公网域名的服务器）。',
    askMode: '收消息方式（1 = 长轮询，2 = webhook）',
    polling: '长轮询',
    webhook: 'webhook',
    invalidMode: '请输入 1（长轮询）或 2（webhook）',
    askUrl: 'webhook 的公网地址（https://…，Telegram 会把消息 POST 到这里）',
    urlRequired: 'webhook 模式需要一个公网 https:// 地址',
    urlNotHttps: 'Telegram 只向 https:// 地址推送消息；请在反向代理或隧道上配置 HTTPS，再填 https:// 地址',
    invalidUrl: '地址应形如 https://your.host/some/secret-path（不含空格、? 或 #）',
    askListen: 'cc-linker 本机监听的 host:port（反向代理转发到这里，纯 HTTP）',
    invalidListen: '应为 host:port，例如 127.0.0.1:8443（端口 1-65535）',
    registeredPolling:
      'ℹ️ Telegram 目前为这个机器人登记了 webhook（{url}）；选择长轮询没问题，cc-linker start 会删除它。',
    registeredOther: 'ℹ️ Telegram 目前登记的是另一个 webhook（{url}）；cc-linker start 会换成你填写的地址。',
    registeredSame: 'ℹ️ Telegram 已经登记了这个 webhook 地址。',
    sumReceive: 'Telegram 收消息方式',
    sumPolling: '长轮询',
    sumWebhook: 'webhook {url}（本机监听 {listen}）',
    nextWebhook:
      '下一步（Telegram webhook）：让反向代理或隧道把 {url} 转发到 http://{listen}；cc-linker start 会向 Telegram 登记它，cc-linker doctor 可以检查投递是否成功。',
  },
  en: {
    intro:
      '\nHow the bot receives messages:\n  1) long polling (recommended): cc-linker fetches messages from Telegram — works behind NAT or a home router, nothing to expose;\n  2) webhook: Telegram POSTs messages to your public https:// address, and your reverse proxy or tunnel forwards them to cc-linker (for a server with a public name).',
    askMode: 'Receive messages by (1 = long polling, 2 = webhook)',
    polling: 'long polling',
    webhook: 'webhook',
    invalidMode: 'Answer 1 (long polling) or 2 (webhook)',
    askUrl: 'Public webhook URL (https://…, where Telegram POSTs messages)',
    urlRequired: 'Webhook mode needs a public https:// URL',
    urlNotHttps:
      'Telegram only posts to https:// addresses; set up HTTPS on your reverse proxy or tunnel and give its https:// URL',
    invalidUrl: 'Expected a URL like https://your.host/some/secret-path (no spaces, ? or #)',
    askListen: 'host:port cc-linker listens on locally (your reverse proxy forwards there, plain HTTP)',
    invalidListen: 'Expected host:port, e.g. 127.0.0.1:8443 (port 1-65535)',
    registeredPolling:
      'ℹ️ Telegram has a webhook registered for this bot now ({url}); long polling is fine — cc-linker start deletes it.',
    registeredOther:
      'ℹ️ Telegram has a different webhook registered now ({url}); cc-linker start replaces it with yours.',
    registeredSame: 'ℹ️ Telegram already has this webhook URL registered.',
    sumReceive: 'Telegram receives by',
    sumPolling: 'long polling',
    sumWebhook: 'webhook {url} (listening on {listen})',
    nextWebhook:
      'Next (Telegram webhook): make your reverse proxy or tunnel forward {url} to http://{listen}; cc-linker start registers it with Telegram, and cc-linker doctor checks that deliveries arrive.',
  },
});

/** The keys of the Telegram receive-mode catalog. */
export type TelegramReceiveMessageKey = Parameters<ReturnType<typeof telegramReceiveMessages>>[0];
