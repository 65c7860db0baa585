import { defineMessages } from '../../core/i18n.js';

/** What `cc-linker start`, `stop` and `service` print. */
export const startMessages = defineMessages({
  zh: {
    starting: '🚀 cc-linker 正在启动…',
    noFeishu:
      'ℹ️  未配置飞书凭据（feishu_bot.app_id / app_secret），也没有启用其他聊天应用：本次只启动本地控制台。运行 cc-linker setup 连接聊天应用。',
    noFeishuOthers: 'ℹ️  未配置飞书凭据（feishu_bot.app_id / app_secret）：不启动飞书通道。',
    feishuDisabled: 'ℹ️  已按 --no-feishu 跳过飞书通道。',
    feishuConnected: '✅ 飞书机器人已通过长连接接入',
    telegramStarted: '✅ Telegram 机器人已启动（长轮询；连接状态见 /status 与控制台）',
    telegramNoToken:
      '⚠️  telegram.enabled = true，但未设置 bot_token（或 CC_LINKER_TELEGRAM_BOT_TOKEN），跳过 Telegram。',
    telegramStartedWebhook:
      '✅ Telegram 机器人已启动（webhook：在 {listen} 接收 {url} 转发来的更新；连接状态见 /status 与控制台）',
    slackStarted: '✅ Slack 应用已启动（Socket Mode；连接状态见 /status 与控制台）',
    slackNoToken:
      '⚠️  slack.enabled = true，但 bot_token 或 app_token 未设置（或 CC_LINKER_SLACK_BOT_TOKEN / CC_LINKER_SLACK_APP_TOKEN），跳过 Slack。',
    dingtalkStarted: '✅ 钉钉机器人已启动（Stream 模式；连接状态见 /status 与控制台）',
    dingtalkNoCredentials:
      '⚠️  dingtalk.enabled = true，但未设置 client_id / client_secret（或 CC_LINKER_DINGTALK_CLIENT_ID / CC_LINKER_DINGTALK_CLIENT_SECRET），跳过钉钉。',
    web: '✅ 本地控制台：{url}',
    webDisabled: 'ℹ️  本地控制台已关闭（web.enabled = false）。',
    registry: '✅ 会话索引已加载：{n} 个会话',
    ctrlC: '\n按 Ctrl+C 停止',
    stopping: '⏳ 正在停止（最多等待 30 秒完成进行中的消息）…',
    stopped: '👋 已停止。',
    forced: '强制退出；未完成的消息会在下次启动时继续。',
    daemonStarted: '✅ cc-linker 已在后台运行（pid {pid}），日志：{log}',
    daemonFailed: '后台启动失败，请查看日志：{log}',
    notRunning: 'cc-linker 没有在运行。',
    stopSent: '⏳ 已向 pid {pid} 发送停止信号…',
    stopTimeout: 'pid {pid} 在 {s} 秒内没有退出。',
    serviceWritten: '✅ 已写入 {file}',
    serviceEnable: '启用并启动服务：',
    serviceRemoved: '✅ 已删除 {file}',
    serviceMissing: '未安装服务（{file} 不存在）。',
    serviceInstalled: '已安装：{file}',
    serviceOutdated: '{file} 不是当前版本写的服务定义（可能指向已不存在的程序）：请重新运行 cc-linker service install',
    DAEMON_NO_ANSWER:
      '{action}：cc-linker start 正在运行（pid {pid}），但它在 {s} 秒内没有响应本地请求（{socket}）。用 cc-linker status 查看它；若它卡住了，运行 cc-linker stop 后再 cc-linker start',
    DAEMON_LOST: '{action}：cc-linker start（pid {pid}）在完成请求前断开了连接（{reason}）。请查看日志后重试',
  },
  en: {
    starting: '🚀 Starting cc-linker…',
    noFeishu:
      'ℹ️  Feishu credentials are not configured (feishu_bot.app_id / app_secret) and no other chat app is enabled: starting the local console only. Run cc-linker setup to connect a chat app.',
    noFeishuOthers:
      'ℹ️  Feishu credentials are not configured (feishu_bot.app_id / app_secret): the Feishu channel is not started.',
    feishuDisabled: 'ℹ️  Feishu channel skipped (--no-feishu).',
    feishuConnected: '✅ Feishu Bot connected via WebSocket',
    telegramStarted: '✅ Telegram bot started (long polling; its state shows in /status and the console)',
    telegramNoToken:
      '⚠️  telegram.enabled = true but no bot_token (or CC_LINKER_TELEGRAM_BOT_TOKEN) is set; Telegram skipped.',
    telegramStartedWebhook:
      '✅ Telegram bot started (webhook: updates for {url} are taken on {listen}; its state shows in /status and the console)',
    slackStarted: '✅ Slack app started (Socket Mode; its state shows in /status and the console)',
    slackNoToken:
      '⚠️  slack.enabled = true but bot_token or app_token (or CC_LINKER_SLACK_BOT_TOKEN / CC_LINKER_SLACK_APP_TOKEN) is not set; Slack skipped.',
    dingtalkStarted: '✅ DingTalk robot started (Stream mode; its state shows in /status and the console)',
    dingtalkNoCredentials:
      '⚠️  dingtalk.enabled = true but client_id / client_secret (or CC_LINKER_DINGTALK_CLIENT_ID / CC_LINKER_DINGTALK_CLIENT_SECRET) is not set; DingTalk skipped.',
    web: '✅ Local console: {url}',
    webDisabled: 'ℹ️  The local console is off (web.enabled = false).',
    registry: '✅ Registry loaded: {n} sessions',
    ctrlC: '\nPress Ctrl+C to stop',
    stopping: '⏳ Stopping (waiting up to 30 s for messages in progress)…',
    stopped: '👋 Stopped.',
    forced: 'Forced exit; unfinished messages continue at the next start.',
    daemonStarted: '✅ cc-linker is running in the background (pid {pid}); log: {log}',
    daemonFailed: 'Starting in the background failed; see the log: {log}',
    notRunning: 'cc-linker is not running.',
    stopSent: '⏳ Sent the stop signal to pid {pid}…',
    stopTimeout: 'pid {pid} did not exit within {s} s.',
    serviceWritten: '✅ Wrote {file}',
    serviceEnable: 'Enable and start the service with:',
    serviceRemoved: '✅ Removed {file}',
    serviceMissing: 'No service installed ({file} does not exist).',
    serviceInstalled: 'Installed: {file}',
    serviceOutdated:
      '{file} was written by another version (it may start a program that no longer exists): run cc-linker service install again',
    DAEMON_NO_ANSWER:
      '{action}: cc-linker start is running (pid {pid}) but did not answer the local request ({socket}) within {s} s. Check it with cc-linker status; if it is stuck, run cc-linker stop, then cc-linker start',
    DAEMON_LOST:
      '{action}: cc-linker start (pid {pid}) closed the connection before finishing the request ({reason}). See its log and retry',
  },
});
