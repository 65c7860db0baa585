import { defineMessages } from '../../core/i18n.js';

/**
 * Text of the DingTalk part of `cc-linker setup`, zh (default) and en. No message ever takes the
 * client secret as a parameter; `{detail}` — the HTTP status and DingTalk's own code and message,
 * in DingTalk's language — is always quoted (docs/design.md#language).
 */
export const dingtalkSetupMessages = defineMessages({
  zh: {
    intro:
      '\n【钉钉机器人】\n还没有应用？按 README 的 “From DingTalk” 一节，在钉钉开发者后台 https://open-dev.dingtalk.com 创建企业内部应用，添加机器人并选择 Stream 模式（不需要公网地址），再从应用的凭证信息里复制 Client ID 和 Client Secret（原 AppKey / AppSecret）。',
    askClientId: 'Client ID（原 AppKey，形如 dingxxxxxxxxxxxxxxxx）',
    invalidClientId: 'Client ID 只含字母、数字、_、. 或 -（应用凭证信息里的 Client ID，原 AppKey）',
    askUseEnvSecret: '检测到环境变量 CC_LINKER_DINGTALK_CLIENT_SECRET，继续使用它（不写入配置文件）？',
    askSecret: 'Client Secret（原 AppSecret；输入不显示）',
    askSecretKeep: 'Client Secret（原 AppSecret；输入不显示；直接回车保留配置文件中现有的）',
    secretRequired: 'Client Secret 不能为空',
    invalidSecret: 'Client Secret 由可打印的 ASCII 字符组成，不含空格（应用凭证信息里的 Client Secret，原 AppSecret）',
    invalidApiBase: '钉钉开放平台地址应以 http:// 或 https:// 开头',
    checking: '正在向 {host} 验证钉钉的 Client ID 和 Client Secret…',
    checkOk: '✅ 钉钉接受了 Client ID 和 Client Secret（已取得 access token）',
    checkSkipped: '⚠️ 未验证钉钉凭据（--no-check）',
    checkUnreachable:
      '⚠️ 无法连接 {host} 验证钉钉凭据（「{detail}」）。凭据照样保存；cc-linker start 会持续重试，cc-linker doctor 可以再次检查。',
    checkRefused:
      '❌ 钉钉拒绝了这组 Client ID / Client Secret（钉钉答复「{detail}」）。请在开发者后台的应用凭证信息里重新复制；重置过 Secret 的要用新的。',
    askRetry: '重新输入 Client ID 和 Client Secret？',
    credentialsRefused:
      '钉钉拒绝了这组 Client ID / Client Secret（钉钉答复「{detail}」），未写入任何文件。请在 https://open-dev.dingtalk.com 的应用凭证信息里重新复制',
    ownerIntro:
      '\nowner_staff_id 是你本人在该企业的 staffId（userid），只有你与机器人的单聊会被处理，其他人只会收到“该 Bot 为个人私有实例”。\n管理后台的成员详情里能看到它。也可以先留空：保存后运行 cc-linker start，在单聊里给机器人发 /whoami，它会回复你的 staffId；或者开启自动绑定：第一个单聊机器人的人成为 owner。',
    askOwner: 'owner_staff_id（不知道就直接回车留空）',
    invalidOwner: 'staffId 只含字母、数字、_ 或 -，形如 manager4521',
    askAutoBind: '开启自动绑定（第一个单聊机器人的人成为 owner）？',
    autoBindWarning:
      '⚠️ 开启自动绑定后，企业里第一个单聊机器人的人会成为 owner，可以操作这台电脑上的 Claude Code。启动后请马上自己先发一条消息，绑定后建议填写 owner_staff_id 并关闭自动绑定。',
    cardIntro:
      '\n可选：AI 卡片模板 id。留空时回复是 markdown 消息（开始时一条“处理中”，完成后一条答案）；填写后回复在一张卡片里实时流式更新——模板要在钉钉卡片平台创建（含 markdown 变量 content 和 flowStatus），应用还需要 Card.Streaming.Write 和 Card.Instance.Write 权限。',
    askCard: 'card_template_id（不用 AI 卡片就直接回车留空）',
    invalidCard: 'AI 卡片模板 id 只含字母、数字、_、. 或 -',
    sumClientId: '钉钉 Client ID',
    sumSecret: '钉钉 Client Secret',
    sumCheck: '钉钉凭据',
    accepted: '有效',
    notChecked: '（未验证）',
    sumOwner: '钉钉 owner_staff_id',
    sumAutoBind: '钉钉自动绑定 owner',
    sumReplies: '钉钉回复方式',
    repliesCard: 'AI 卡片（模板 {id}）',
    repliesMarkdown: 'markdown 消息（无 AI 卡片）',
    secretFromEnv: '（来自环境变量 CC_LINKER_DINGTALK_CLIENT_SECRET，不写入文件）',
    nextStart: '下一步（钉钉）：运行 cc-linker start，然后在钉钉里与机器人单聊。',
    nextWhoami:
      '下一步（钉钉）：运行 cc-linker start，在单聊里给机器人发 /whoami，再运行 cc-linker setup --dingtalk-owner-staff-id <staffId>。',
    nextAutoBind: '下一步（钉钉）：运行 cc-linker start，然后马上在单聊里给机器人发第一条消息，你会被绑定为 owner。',
  },
  en: {
    intro:
      '\n[The DingTalk robot]\nNo app yet? As the README\'s "From DingTalk" section says: in the DingTalk developer console https://open-dev.dingtalk.com create an internal app, add the robot and choose Stream mode (no public address needed), then copy the Client ID and Client Secret (formerly AppKey / AppSecret) from the app\'s credentials.',
    askClientId: 'Client ID (formerly AppKey, like dingxxxxxxxxxxxxxxxx)',
    invalidClientId:
      "A Client ID has only letters, digits, _, . or - (the Client ID in the app's credentials, formerly AppKey)",
    askUseEnvSecret: 'CC_LINKER_DINGTALK_CLIENT_SECRET is set: keep using it (not written to the file)?',
    askSecret: 'Client Secret (formerly AppSecret; not shown while you type)',
    askSecretKeep: 'Client Secret (formerly AppSecret; not shown while you type; Enter keeps the one in the file)',
    secretRequired: 'The Client Secret cannot be empty',
    invalidSecret:
      "A Client Secret is printable ASCII without spaces (the Client Secret in the app's credentials, formerly AppSecret)",
    invalidApiBase: 'The DingTalk OpenAPI address starts with http:// or https://',
    checking: 'Checking the DingTalk Client ID and Client Secret with {host}…',
    checkOk: '✅ DingTalk accepted the Client ID and Client Secret (an access token was issued)',
    checkSkipped: '⚠️ DingTalk credentials not checked (--no-check)',
    checkUnreachable:
      '⚠️ Could not reach {host} to check the DingTalk credentials (“{detail}”). They are saved anyway; cc-linker start keeps retrying and cc-linker doctor checks them again.',
    checkRefused:
      "❌ DingTalk refused this Client ID / Client Secret (DingTalk said “{detail}”). Copy them again from the app's credentials in the developer console; after resetting the secret, use the new one.",
    askRetry: 'Enter the Client ID and Client Secret again?',
    credentialsRefused:
      "DingTalk refused this Client ID / Client Secret (DingTalk said “{detail}”); nothing was written. Copy them again from the app's credentials at https://open-dev.dingtalk.com",
    ownerIntro:
      '\nowner_staff_id is your own staffId (userid) in the organisation. Only your single chat with the robot is handled; anyone else only gets "该 Bot 为个人私有实例" (a private bot).\nThe admin console\'s member details show it. Or leave it empty: after saving, run cc-linker start and send /whoami to the robot in a single chat — it replies with your staffId; or turn on auto-bind: the first person to message the robot in a single chat becomes the owner.',
    askOwner: 'owner_staff_id (press Enter to leave it empty)',
    invalidOwner: 'A staffId has only letters, digits, _ or -, like manager4521',
    askAutoBind: 'Turn on auto-bind (the first person to message the robot in a single chat becomes the owner)?',
    autoBindWarning:
      '⚠️ With auto-bind on, the first person in the organisation to message the robot in a single chat becomes the owner and can drive Claude Code on this machine. Message it yourself right after starting; once bound, set owner_staff_id and turn auto-bind off.',
    cardIntro:
      '\nOptional: an AI card template id. Left empty, replies are markdown messages (a "working on it" message when a run starts, then the answer); set, each reply streams live into one card — the template is made on DingTalk\'s card platform (with a markdown variable content and a flowStatus variable) and the app also needs the Card.Streaming.Write and Card.Instance.Write permissions.',
    askCard: 'card_template_id (press Enter to leave it empty: no AI card)',
    invalidCard: 'An AI card template id has only letters, digits, _, . or -',
    sumClientId: 'DingTalk Client ID',
    sumSecret: 'DingTalk Client Secret',
    sumCheck: 'DingTalk credentials',
    accepted: 'accepted',
    notChecked: '(not checked)',
    sumOwner: 'DingTalk owner_staff_id',
    sumAutoBind: 'DingTalk auto-bind owner',
    sumReplies: 'DingTalk replies',
    repliesCard: 'AI card (template {id})',
    repliesMarkdown: 'markdown messages (no AI card)',
    secretFromEnv: '(from CC_LINKER_DINGTALK_CLIENT_SECRET, not written to the file)',
    nextStart: 'Next (DingTalk): run cc-linker start, then message the robot in a single chat in DingTalk.',
    nextWhoami:
      'Next (DingTalk): run cc-linker start, send /whoami to the robot in a single chat, then run cc-linker setup --dingtalk-owner-staff-id <staffId>.',
    nextAutoBind:
      'Next (DingTalk): run cc-linker start and send the robot a first message in a single chat at once — you become its owner.',
  },
});

/** The keys of the DingTalk setup catalog. */
export type DingTalkSetupMessageKey = Parameters<ReturnType<typeof dingtalkSetupMessages>>[0];
