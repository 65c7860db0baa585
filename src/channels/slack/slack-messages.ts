import { defineMessages } from '../../core/i18n.js';

/** The Slack channel's own user-facing strings (zh default, en). */
export const slackMessages = defineMessages({
  zh: {
    continuedBelow: '…（回复较长，其余内容见后续消息）',
    streamCapped: '…（回复较长，完整内容将在结束后发送）',
    waiting: '⏳ 正在思考…',
    apiFailed: 'Slack 接口调用失败（{op}）：「{detail}」',
    commandOutsideDm: '请在与本应用的私信里使用 {command}（应用 → 本应用 → 消息）；这里什么都没有执行。',
    commandNoScope:
      '本应用缺少权限 {scope}，无法确认这是与它的私信，什么都没有执行。请用 docs/slack-app-manifest.yaml 重新创建应用，或添加该权限后重新安装。',
    commandNotTaken: 'cc-linker 暂时无法接收「{text}」（正在重启或无法保存），什么都没有执行，请稍后重新发送。',
    scopesMissing:
      '应用缺少 bot 权限：{list}。请在 api.slack.com/apps → 本应用 → OAuth & Permissions → Bot Token Scopes 添加，然后重新安装应用（Install App）；或用 docs/slack-app-manifest.yaml 重新创建应用。',
    statusScopesMissing: '缺少权限：{list}',
  },
  en: {
    continuedBelow: '… (long reply — continued in the next messages)',
    streamCapped: '… (long reply — the rest follows when it is done)',
    waiting: '⏳ Thinking…',
    apiFailed: 'Slack API call failed ({op}): “{detail}”',
    commandOutsideDm:
      'Use {command} in your direct message with the app (Apps → the app → Messages); nothing ran here.',
    commandNoScope:
      'The app lacks the {scope} scope, so it cannot tell this is your DM with it; nothing ran. Recreate the app from docs/slack-app-manifest.yaml, or add the scope and reinstall.',
    commandNotTaken:
      'cc-linker could not take “{text}” just now (it is restarting or could not save it); nothing ran — send it again in a moment.',
    scopesMissing:
      'the app lacks bot scopes: {list}. Add them at api.slack.com/apps → the app → OAuth & Permissions → Bot Token Scopes, then reinstall the app (Install App) — or recreate it from docs/slack-app-manifest.yaml.',
    statusScopesMissing: 'missing scopes: {list}',
  },
});
