import { defineMessages } from '../../core/i18n.js';

/**
 * Text of the Slack part of `cc-linker setup`, zh (default) and en. No message ever takes a token
 * as a parameter; `{detail}` is Slack's error code.
 */
export const slackSetupMessages = defineMessages({
  zh: {
    intro:
      '\n【Slack 应用】\n还没有应用？在 https://api.slack.com/apps 用下面的应用清单创建（Create New App → From a manifest），再生成 app-level token（xapp-…，权限 connections:write），安装到工作区后复制 Bot User OAuth Token（xoxb-…）。',
    manifest: 'Slack 应用清单（https://api.slack.com/apps → Create New App → From a manifest，粘贴其内容）：{path}',
    askUseEnvBot: '检测到环境变量 CC_LINKER_SLACK_BOT_TOKEN，继续使用它（不写入配置文件）？',
    askUseEnvApp: '检测到环境变量 CC_LINKER_SLACK_APP_TOKEN，继续使用它（不写入配置文件）？',
    askBot: 'Bot token xoxb-…（输入不显示）',
    askBotKeep: 'Bot token xoxb-…（输入不显示；直接回车保留配置文件中现有的）',
    askApp: 'App-level token xapp-…（输入不显示）',
    askAppKeep: 'App-level token xapp-…（输入不显示；直接回车保留配置文件中现有的）',
    botRequired: 'Bot token 不能为空',
    appRequired: 'App-level token 不能为空',
    invalidBot: 'Bot token 以 xoxb- 开头（OAuth & Permissions 页的 Bot User OAuth Token）',
    invalidApp: 'App-level token 以 xapp- 开头（Basic Information → App-Level Tokens，权限 connections:write）',
    invalidApiUrl: 'Slack Web API 地址应以 http:// 或 https:// 开头',
    checking: '正在向 {host} 验证两个 Slack token…',
    checkOk: '✅ token 有效，应用是 @{name}（工作区 {team}）',
    checkSkipped: '⚠️ 未验证 Slack token（--no-check）',
    checkUnreachable:
      '⚠️ 无法连接 {host} 验证 Slack token（{detail}）。token 照样保存；cc-linker start 会持续重试，cc-linker doctor 可以再次检查。',
    refusedBot: 'bot token（{detail}）',
    refusedApp: 'app-level token（{detail}）',
    and: '和',
    checkRefused: '❌ Slack 拒绝了 {which}。请在应用设置页重新复制；重新生成过的要用新的。',
    askRetry: '重新输入被拒绝的 token？',
    scopesMissing: '⚠️ Slack：{detail}token 仍会写入。',
    tokenRefused: 'Slack 拒绝了 {which}，未写入任何文件。请在 https://api.slack.com/apps 的应用设置页重新复制',
    ownerIntro:
      '\nowner_user_id 是你本人的 Slack member id（U 开头），只有它的私信会被处理，其他人只会收到“该 Bot 为个人私有实例”。\n在 Slack 里点你的头像 → 个人资料 → ⋮ → 复制成员 ID。也可以先留空：保存后运行 cc-linker start，在与应用的私信里输入 /cc whoami，它会回复你的 id；或者开启自动绑定：第一个私信应用的人成为 owner。',
    askOwner: 'owner_user_id（U 开头；不知道就直接回车留空）',
    invalidOwner: 'member id 形如 U012ABCDEF（大写字母和数字，以 U 或 W 开头）',
    askAutoBind: '开启自动绑定（第一个私信应用的人成为 owner）？',
    autoBindWarning:
      '⚠️ 开启自动绑定后，工作区里第一个给应用发私信的人会成为 owner，可以操作这台电脑上的 Claude Code。设置后请马上自己先发一条私信，绑定后建议填写 owner_user_id 并关闭自动绑定。',
    sumBot: 'Slack bot token',
    sumApp: 'Slack app-level token',
    sumName: 'Slack 应用',
    sumOwner: 'Slack owner_user_id',
    sumAutoBind: 'Slack 自动绑定 owner',
    fromEnvBot: '（来自环境变量 CC_LINKER_SLACK_BOT_TOKEN，不写入文件）',
    fromEnvApp: '（来自环境变量 CC_LINKER_SLACK_APP_TOKEN，不写入文件）',
    notChecked: '（未验证）',
    nextStart: '下一步（Slack）：运行 cc-linker start，然后在 Slack 里给 {app} 发私信。',
    nextWhoami:
      '下一步（Slack）：运行 cc-linker start，在与 {app} 的私信里输入 /cc whoami，再运行 cc-linker setup --slack-owner-user-id <id>。',
    nextAutoBind: '下一步（Slack）：运行 cc-linker start，然后马上给 {app} 发第一条私信，你会被绑定为 owner。',
    yourApp: '你的应用',
  },
  en: {
    intro:
      '\n[The Slack app]\nNo app yet? Create it at https://api.slack.com/apps from the manifest below (Create New App → From a manifest), then create an app-level token (xapp-…, scope connections:write), install it to your workspace and copy the Bot User OAuth Token (xoxb-…).',
    manifest: 'Slack app manifest (paste it at https://api.slack.com/apps → Create New App → From a manifest): {path}',
    askUseEnvBot: 'CC_LINKER_SLACK_BOT_TOKEN is set: keep using it (not written to the file)?',
    askUseEnvApp: 'CC_LINKER_SLACK_APP_TOKEN is set: keep using it (not written to the file)?',
    askBot: 'Bot token xoxb-… (not shown while you type)',
    askBotKeep: 'Bot token xoxb-… (not shown while you type; Enter keeps the one in the file)',
    askApp: 'App-level token xapp-… (not shown while you type)',
    askAppKeep: 'App-level token xapp-… (not shown while you type; Enter keeps the one in the file)',
    botRequired: 'The bot token cannot be empty',
    appRequired: 'The app-level token cannot be empty',
    invalidBot: 'A bot token starts with xoxb- (the Bot User OAuth Token on the OAuth & Permissions page)',
    invalidApp: 'An app-level token starts with xapp- (Basic Information → App-Level Tokens, scope connections:write)',
    invalidApiUrl: 'The Slack Web API address starts with http:// or https://',
    checking: 'Checking both Slack tokens with {host}…',
    checkOk: '✅ Tokens accepted: the app is @{name} (workspace {team})',
    checkSkipped: '⚠️ Slack tokens not checked (--no-check)',
    checkUnreachable:
      '⚠️ Could not reach {host} to check the Slack tokens ({detail}). They are saved anyway; cc-linker start keeps retrying and cc-linker doctor checks them again.',
    refusedBot: 'the bot token ({detail})',
    refusedApp: 'the app-level token ({detail})',
    and: ' and ',
    checkRefused:
      "❌ Slack refused {which}. Copy it again from the app's settings; after regenerating it, use the new one.",
    askRetry: 'Enter the refused token again?',
    scopesMissing: '⚠️ Slack: {detail} The tokens are written anyway.',
    tokenRefused:
      "Slack refused {which}; nothing was written. Copy it again from the app's settings at https://api.slack.com/apps",
    ownerIntro:
      '\nowner_user_id is your own Slack member id (starts with U). Only its direct messages are handled; anyone else only gets "该 Bot 为个人私有实例" (a private bot).\nIn Slack: your profile picture → Profile → ⋮ → Copy member ID. Or leave it empty: after saving, run cc-linker start and type "/cc whoami" in your direct message with the app — it replies with your id; or turn on auto-bind: the first person to message the app directly becomes the owner.',
    askOwner: 'owner_user_id (starts with U; press Enter to leave it empty)',
    invalidOwner: 'A member id looks like U012ABCDEF (capital letters and digits, starting with U or W)',
    askAutoBind: 'Turn on auto-bind (the first person to message the app directly becomes the owner)?',
    autoBindWarning:
      '⚠️ With auto-bind on, the first person in the workspace to message the app directly becomes the owner and can drive Claude Code on this machine. Message it yourself right after starting; once bound, set owner_user_id and turn auto-bind off.',
    sumBot: 'Slack bot token',
    sumApp: 'Slack app-level token',
    sumName: 'Slack app',
    sumOwner: 'Slack owner_user_id',
    sumAutoBind: 'Slack auto-bind owner',
    fromEnvBot: '(from CC_LINKER_SLACK_BOT_TOKEN, not written to the file)',
    fromEnvApp: '(from CC_LINKER_SLACK_APP_TOKEN, not written to the file)',
    notChecked: '(not checked)',
    nextStart: 'Next (Slack): run cc-linker start, then message {app} directly in Slack.',
    nextWhoami:
      'Next (Slack): run cc-linker start, type "/cc whoami" in your direct message with {app}, then run cc-linker setup --slack-owner-user-id <id>.',
    nextAutoBind:
      'Next (Slack): run cc-linker start and send {app} a first direct message at once — you become its owner.',
    yourApp: 'your app',
  },
});

/** The keys of the Slack setup catalog. */
export type SlackSetupMessageKey = Parameters<ReturnType<typeof slackSetupMessages>>[0];
