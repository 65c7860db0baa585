import { defineMessages } from '../../core/i18n.js';

/**
 * Text of the Telegram part of `cc-linker setup`, zh (default) and en. No message ever takes the
 * bot token as a parameter.
 */
export const telegramSetupMessages = defineMessages({
  zh: {
    intro:
      '\n【Telegram 机器人】\n还没有机器人？在 Telegram 里给 @BotFather 发送 /newbot，按提示取名后它会给你一个 token（形如 123456789:AAH…）。',
    askUseEnvToken: '检测到环境变量 CC_LINKER_TELEGRAM_BOT_TOKEN，继续使用它（不写入配置文件）？',
    askToken: 'Bot token（输入不显示）',
    askTokenKeep: 'Bot token（输入不显示；直接回车保留配置文件中现有的）',
    tokenRequired: 'Bot token 不能为空',
    invalidToken:
      'Bot token 的格式是数字、冒号，再加至少 20 个字母、数字、_ 或 -（@BotFather 给的，形如 123456789:AAH…）',
    invalidApiRoot: 'Bot API 地址应以 http:// 或 https:// 开头',
    checking: '正在向 {host} 验证 bot token…',
    checkOk: '✅ token 有效，机器人是 @{bot}',
    checkSkipped: '⚠️ 未验证 bot token（--no-check）',
    checkUnreachable:
      '⚠️ 无法连接 {host} 验证 bot token（{detail}）。token 照样保存；cc-linker start 会持续重试，cc-linker doctor 可以再次检查。',
    checkRefused:
      '❌ Telegram 拒绝了这个 token（{detail}）。请在 @BotFather 里用 /mybots → API Token 重新复制；重新生成过的要用新的。',
    askRetryToken: '重新输入 bot token？',
    tokenRefused:
      'Telegram 拒绝了这个 bot token（{detail}），未写入任何文件。请在 @BotFather 里用 /mybots → API Token 重新复制',
    ownerIntro:
      '\nowner_user_id 是你本人的 Telegram 数字 user id，只有它的私聊会被处理，其他人只会收到“该 Bot 为个人私有实例”。\n不知道？先留空：保存后运行 cc-linker start，给机器人发送 /whoami，它会回复你的 user id；然后运行 cc-linker setup --telegram-owner-user-id <id>。也可以开启自动绑定：第一个私聊机器人的人成为 owner。',
    askOwner: 'owner_user_id（数字；不知道就直接回车留空）',
    invalidOwner: 'user id 只含数字，例如 123456789（给机器人发送 /whoami 可以看到）',
    askAutoBind: '开启自动绑定（第一个私聊机器人的人成为 owner）？',
    autoBindWarning:
      '⚠️ 开启自动绑定后，第一个给机器人发私聊的人会成为 owner，可以操作这台电脑上的 Claude Code。机器人的用户名是公开可搜的：设置后请马上自己先发一条消息，绑定后建议填写 owner_user_id 并关闭自动绑定。',
    sumToken: 'Telegram bot token',
    sumBot: 'Telegram 机器人',
    sumOwner: 'Telegram owner_user_id',
    sumAutoBind: 'Telegram 自动绑定 owner',
    tokenFromEnv: '（来自环境变量 CC_LINKER_TELEGRAM_BOT_TOKEN，不写入文件）',
    notChecked: '（未验证）',
    nextStart: '下一步（Telegram）：运行 cc-linker start，然后在 Telegram 里给 {bot} 发消息。',
    nextWhoami:
      '下一步（Telegram）：运行 cc-linker start，给 {bot} 发送 /whoami，再运行 cc-linker setup --telegram-owner-user-id <id>。',
    nextAutoBind: '下一步（Telegram）：运行 cc-linker start，然后马上给 {bot} 发第一条私聊，你会被绑定为 owner。',
    yourBot: '你的机器人',
  },
  en: {
    intro:
      '\n[The Telegram bot]\nNo bot yet? In Telegram, send /newbot to @BotFather and pick a name: it answers with a token like 123456789:AAH….',
    askUseEnvToken: 'CC_LINKER_TELEGRAM_BOT_TOKEN is set: keep using it (not written to the file)?',
    askToken: 'Bot token (not shown while you type)',
    askTokenKeep: 'Bot token (not shown while you type; Enter keeps the one in the file)',
    tokenRequired: 'The bot token cannot be empty',
    invalidToken:
      'A bot token is digits, a colon, then at least 20 letters, digits, _ or - (the one @BotFather gave you, like 123456789:AAH…)',
    invalidApiRoot: 'The Bot API address starts with http:// or https://',
    checking: 'Checking the bot token with {host}…',
    checkOk: '✅ Token accepted: the bot is @{bot}',
    checkSkipped: '⚠️ Bot token not checked (--no-check)',
    checkUnreachable:
      '⚠️ Could not reach {host} to check the bot token ({detail}). It is saved anyway; cc-linker start keeps retrying and cc-linker doctor checks it again.',
    checkRefused:
      '❌ Telegram refused this token ({detail}). Copy it again from @BotFather (/mybots → API Token); after revoking it, use the new one.',
    askRetryToken: 'Enter the bot token again?',
    tokenRefused:
      'Telegram refused the bot token ({detail}); nothing was written. Copy it again from @BotFather (/mybots → API Token)',
    ownerIntro:
      '\nowner_user_id is your own numeric Telegram user id. Only its private chat is handled; anyone else only gets "该 Bot 为个人私有实例" (a private bot).\nDon\'t know it? Leave it empty: after saving, run cc-linker start and send /whoami to the bot — it replies with your user id; then run cc-linker setup --telegram-owner-user-id <id>. Or turn on auto-bind: the first person to message the bot privately becomes the owner.',
    askOwner: 'owner_user_id (digits; press Enter to leave it empty)',
    invalidOwner: 'A user id is digits only, e.g. 123456789 (send /whoami to the bot to see yours)',
    askAutoBind: 'Turn on auto-bind (the first person to message the bot privately becomes the owner)?',
    autoBindWarning:
      '⚠️ With auto-bind on, the first person to message the bot privately becomes the owner and can drive Claude Code on this machine. Bot usernames can be searched: message it yourself right after starting; once bound, set owner_user_id and turn auto-bind off.',
    sumToken: 'Telegram bot token',
    sumBot: 'Telegram bot',
    sumOwner: 'Telegram owner_user_id',
    sumAutoBind: 'Telegram auto-bind owner',
    tokenFromEnv: '(from CC_LINKER_TELEGRAM_BOT_TOKEN, not written to the file)',
    notChecked: '(not checked)',
    nextStart: 'Next (Telegram): run cc-linker start, then message {bot} in Telegram.',
    nextWhoami:
      'Next (Telegram): run cc-linker start, send /whoami to {bot}, then run cc-linker setup --telegram-owner-user-id <id>.',
    nextAutoBind:
      'Next (Telegram): run cc-linker start and send {bot} a first private message at once — you become its owner.',
    yourBot: 'your bot',
  },
});

/** The keys of the Telegram setup catalog. */
export type TelegramSetupMessageKey = Parameters<ReturnType<typeof telegramSetupMessages>>[0];
