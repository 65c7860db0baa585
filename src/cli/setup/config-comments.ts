import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';

/** One section's comments: `_` heads the section, every other key explains that key. */
type SectionComments<S> = { _: string } & { [K in keyof S]-?: string };

/** A comment for every section and key of `Config` — the type makes a missing one a compile error. */
export type ConfigComments = { [S in keyof Config]: SectionComments<Config[S]> };

/**
 * The comments `cc-linker setup` writes above each key of `config.toml`, zh and en (the file is
 * written in the language the user chose). `\n` separates comment lines. Kept apart from the
 * renderer so wording changes never touch the TOML code.
 */
export const CONFIG_COMMENTS: Record<Language, ConfigComments> = {
  zh: {
    general: {
      _: '通用设置',
      log_level: '日志级别：debug | info | warn | error',
      log_path: '日志文件（cc-linker start 写入，超过 10 MB 轮转，保留 3 个）',
      claude_bin: 'Claude Code CLI 路径；留空 = 在 PATH 中查找 claude，找不到时使用 Agent SDK 自带的版本',
      language: '界面与回复语言：zh | en',
    },
    feishu_bot: {
      _: '飞书 / Lark 机器人。使用长连接（WebSocket）接收事件，不需要公网地址。\n开发者后台的配置步骤见 docs/feishu-setup.md；留空 app_id / app_secret 则 start 只启动本地控制台。',
      app_id: 'App ID：开发者后台 → 凭证与基础信息，形如 cli_ 加 16 位十六进制',
      app_secret:
        'App Secret。不想明文保存时留空，并在运行 cc-linker 的环境里设置 CC_LINKER_FEISHU_APP_SECRET（优先于本文件）',
      owner_open_id:
        '你本人的 open_id（ou_ 开头），只有它的消息会被处理，其他人收到“该 Bot 为个人私有实例”。\n不知道时：cc-linker start 后给机器人发 /whoami，再运行 cc-linker setup --owner <open_id>',
      allow_auto_bind_owner:
        'owner_open_id 为空时，第一个私聊机器人的人自动成为 owner。\n仅在应用可用范围只有你自己时开启；默认 false',
      default_cwd: '/new 未指定目录时使用的工作目录；必须在 security.allowed_roots 之内',
      domain: '平台：feishu（open.feishu.cn）| lark（国际版 open.larksuite.com）| 自定义 base URL',
    },
    telegram: {
      _: 'Telegram 机器人（长轮询，不需要公网地址）；只处理 owner 的私聊。步骤见 README 的 “Telegram” 一节。',
      enabled: '为 true 且设置了 bot_token 时，start 同时启动 Telegram 机器人；默认 false',
      bot_token:
        '@BotFather 给的 token（形如 123456:ABC…）。不想明文保存时留空，并设置 CC_LINKER_TELEGRAM_BOT_TOKEN（优先于本文件）',
      owner_user_id: '你本人的 Telegram 数字 user id，只有它的私聊会被处理。\n不知道时：给机器人发 /whoami',
      allow_auto_bind_owner: 'owner_user_id 为空时，第一个私聊机器人的人自动成为 Telegram 的 owner；默认 false',
      api_root: 'Bot API 地址（不带结尾的 /）；自建 Bot API 服务器时才需要修改',
      webhook_url:
        '留空 = 长轮询（默认）。填公网 https:// 地址时改用 webhook：Telegram 把消息 POST 到这里，\n由你的反向代理/隧道终止 HTTPS 并转发到 webhook_listen',
      webhook_listen:
        'webhook 模式下 cc-linker 自己监听的 host:port（只在 webhook_url 非空时使用）；默认 127.0.0.1:8443',
      webhook_secret:
        'Telegram 随每次 POST 带上的密钥（X-Telegram-Bot-Api-Secret-Token）。留空 = 自动生成并保存在运行目录（0600），\n也可用 CC_LINKER_TELEGRAM_WEBHOOK_SECRET 设置',
    },
    slack: {
      _: 'Slack 应用（Socket Mode，不需要公网地址）；只处理 owner 的私信。步骤见 README 的 “Slack” 一节。',
      enabled: '为 true 且设置了 bot_token 与 app_token 时，start 同时启动 Slack 应用；默认 false',
      bot_token: 'Bot User OAuth Token（xoxb-…）。不想明文保存时留空，并设置 CC_LINKER_SLACK_BOT_TOKEN（优先于本文件）',
      app_token:
        'App-Level Token（xapp-…，权限 connections:write）。不想明文保存时留空，并设置 CC_LINKER_SLACK_APP_TOKEN',
      owner_user_id: '你本人的 Slack member id（U 开头），只有它的私信会被处理。\n不知道时：给应用发 /whoami',
      allow_auto_bind_owner: 'owner_user_id 为空时，第一个私信应用的人自动成为 Slack 的 owner；默认 false',
      api_url: 'Web API 地址（以 / 结尾）；一般不需要修改',
    },
    dingtalk: {
      _: '钉钉机器人（Stream 模式，不需要公网地址）；只处理 owner 的单聊。步骤见 README 的 “钉钉” 一节。',
      enabled: '为 true 且设置了 client_id 与 client_secret 时，start 同时启动钉钉机器人；默认 false',
      client_id: '钉钉应用的 Client ID（原 AppKey），也是机器人的 robotCode',
      client_secret:
        '钉钉应用的 Client Secret（原 AppSecret）。不想明文保存时留空，并设置 CC_LINKER_DINGTALK_CLIENT_SECRET（优先于本文件）',
      owner_staff_id: '你本人在该企业的 staffId（userid），只有它的单聊会被处理。\n不知道时：给机器人发 /whoami',
      allow_auto_bind_owner: 'owner_staff_id 为空时，第一个单聊机器人的人自动成为钉钉的 owner；默认 false',
      api_base: '钉钉开放平台地址（不带结尾的 /）；Stream 网关为 <api_base>/v1.0/gateway/connections/open',
      oapi_base: '钉钉旧版接口地址（不带结尾的 /），用于上传 agent 发送的文件（media/upload）；一般不需要修改',
      card_template_id:
        '可选：应用的 AI 卡片模板 id（在钉钉卡片平台创建）。设置后回复流式写入一张卡片；为空时回复为 markdown 消息',
      card_template_key: 'AI 卡片模板里用于流式 markdown 内容的变量名；默认 content',
    },
    runtime: {
      _: 'Claude Code 进程',
      stale_timeout_ms: '进程持续无输出多久判定为卡住（毫秒）',
      hard_timeout_ms: '单次运行的硬性上限（毫秒）',
      max_concurrent_sessions: '同时运行的 Claude 进程上限',
      idle_timeout_ms: '空闲会话超时（毫秒）',
      session_lock_timeout_ms: '等待会话锁的最长时间（毫秒）',
      warm_idle_ms:
        '会话最后一条消息后，把它的进程保留多久，下一条消息直接写入、无需重新启动（毫秒；0 = 关闭；每个保留的进程约占 200 MB 内存）',
      max_warm: '最多保留几个这样的进程，超出时先结束最久未用的（0 = 关闭）',
      recovery:
        '重启后发现上一轮已被中断（Claude 已经开始做了）时：continue = 从中断处继续（不重发原消息）；\nask = 在原卡片上显示“继续 / 跳过”，等你选择（sdk.timeout_ms 内没选则跳过）',
    },
    queue: {
      _: '消息队列（先落盘再处理，崩溃后可恢复）',
      spool_dir: '队列目录',
      max_pending: '排队消息上限，超出时拒收并提示',
      worker_concurrency: '同时处理的消息数',
      done_retention_hours: '已完成消息的保留时间（小时）',
      done_max_files: '已完成消息最多保留的文件数',
      failed_retention_days: '失败消息的保留时间（天）',
      failed_max_files: '失败消息最多保留的文件数',
      delivery_retention_days: '发送回执的保留时间（天），用于避免重复回复',
      list_snapshot_ttl_minutes: '/list 序号快照的有效期（分钟）',
    },
    cli_proxy: {
      _: 'HTTP 调试端口（设计文档 Phase 2 预留）',
      port: '端口',
      host: '监听地址',
      timeout_ms: '单条消息的兜底超时（毫秒）',
      token: '调试端口的认证 token',
    },
    scanner: {
      _: 'Claude Code 会话文件扫描',
      max_file_size: '超过此大小（字节）的会话文件不解析',
      incremental: '增量扫描（按修改时间缓存）',
    },
    sdk: {
      _: 'Agent SDK 模式：Claude 执行工具前可在飞书卡片里审批',
      enabled: '启用 Agent SDK 模式',
      timeout_ms: '等待审批的最长时间（毫秒）',
      permission_mode: 'SDK 模式的工具权限模式：default | acceptEdits | bypassPermissions | plan | dontAsk',
      claude_executable: 'SDK 使用的 Claude Code 可执行文件；留空 = 自动选择',
    },
    claude: {
      _: 'Claude Code 调用方式与工具权限',
      mode: '调用方式：auto | sdk | stream-json | json',
      permission_mode: '工具权限模式：default | acceptEdits | bypassPermissions | plan | dontAsk',
      allowed_tools: '无需审批、自动允许的工具',
      disallowed_tools: '始终拒绝的工具',
      models: '模型别名（/model 使用），例如 { sonnet = "claude-sonnet-4-5" }',
      default_model: '默认模型（别名或完整名称）；留空 = Claude Code 的默认模型',
      env_allow:
        '额外传给 Claude Code（及它运行的命令）的环境变量：完整名称或 PREFIX_*，例如 ["JAVA_HOME", "GOPATH"]。\n默认只传 Claude Code 运行所需的变量；AWS / Google 凭证仅在设置了 CLAUDE_CODE_USE_BEDROCK / CLAUDE_CODE_USE_VERTEX 时传入。\nCC_LINKER_* 和 cc_exec 模型服务的 key 变量即使列在这里也不会传入',
    },
    stream: {
      _: '流式回复卡片',
      enabled: '边生成边更新回复卡片',
      throttle_ms: '整卡更新的最小间隔（毫秒）；CardKit 流式卡片可以更快',
      show_thinking: '以引用形式显示思考过程',
      max_card_bytes: '卡片超过此字节数后改为分段文本',
      fallback_to_text: '卡片发送失败时改发纯文本',
      show_action_buttons: '在回复卡片上显示快捷操作按钮',
      keep_processing_card: '保留“处理中”卡片（false = 完成后替换为结果卡片）',
    },
    images: {
      _: '图片消息',
      enabled: '下载用户发送的图片并交给 Claude',
      max_size_bytes: '单张图片大小上限（字节）',
      cleanup_max_age_hours: '图片保留时间（小时），过期自动清理',
    },
    files: {
      _: '文件：用户发来的文件，以及智能体发送的文件（mcp__cc-linker__send_file）',
      enabled: '下载用户发送的文件（任意类型）并把路径交给 Agent',
      max_size_bytes: '单个文件大小上限（字节），收发都适用',
      cleanup_max_age_hours: '文件保留时间（小时），过期自动清理',
      send_without_prompt: '智能体发送文件无需逐次确认',
    },
    voice: {
      _: '语音消息：转成文字后作为提示词（飞书语音识别，或兼容 OpenAI 的转写接口）',
      enabled: '转写语音消息；关闭时回复“语音处理已关闭”',
      max_seconds: '单条语音的时长上限（秒）',
      service:
        '用哪个语音识别："auto"（配置了飞书应用就用飞书的，需要权限 speech_to_text:speech；否则用下面的转写接口）、"feishu"、"openai"',
      api_base: '兼容 OpenAI 的转写接口地址（OpenAI、Groq、本地 whisper 服务……），不带结尾斜杠',
      api_key: '转写接口的 API key（也可用环境变量 CC_LINKER_VOICE_API_KEY）；留空则不用转写接口',
      model: '转写模型，如 whisper-1、gpt-4o-mini-transcribe',
    },
    security: {
      _: '目录安全：飞书里的 /new 只能使用这些目录',
      allowed_roots: '允许的根目录（含子目录）；空数组 = 不限制（不推荐）',
      denied_roots: '禁止的目录；~、/ 以及允许根目录的上级目录只禁止其本身，其余连同子目录一起禁止',
      confirm_risky_actions: '高风险操作前要求二次确认',
    },
    web: {
      _: '本地网页控制台（仅本机访问，需 token）',
      enabled: '启用本地控制台',
      host: '监听地址；保持 127.0.0.1',
      port: '端口',
      token: '访问 token；留空 = 自动生成并保存在 ~/.cc-linker/web-token',
    },
    notify: {
      _: '提醒：较长的一轮结束、或权限确认等了一会儿时，发一条新消息（飞书里回复在卡片下，手机会响；控制台里是浏览器通知和标题角标）',
      enabled: '开启提醒；false = 从不提醒',
      after_s: '一轮运行超过这么多秒才在结束（完成、出错或停止）时提醒',
      permission_after_s: '权限确认或提问等待这么多秒还没回答时提醒一次',
    },
    ccexec: {
      _: 'cc_exec：AI 对话中只读调用 ChainlessChain CLI',
      cli: 'CLI 命令（参数数组）：["chainlesschain"]（在 PATH 中查找）、绝对路径，或 ["node", "/path/to/chainlesschain/bin/chainlesschain.js"]。\n不能写 "cc"（Linux 和 macOS 上那是 C 编译器）或其他只有名字的程序',
      cwd: '运行 CLI 的工作目录',
      timeout_ms: '单条命令的超时（毫秒）',
      default_provider: '默认模型服务（[ccexec.providers.<名字>] 中的名字）',
      env_allow: '额外允许传给 CLI 的环境变量名',
      providers:
        '模型服务，每个一个表，例如：\n[ccexec.providers.openai]\nkind = "openai"  # openai | anthropic | doubao | openai-compatible\nbase_url = ""  # 留空 = 官方地址\napi_key_env = "OPENAI_API_KEY"  # 保存 key 的环境变量名（key 本身不写进本文件）\nmodel = "gpt-4o-mini"',
    },
    agents: {
      _: '编程 agent：claude（内置的 Claude Code 引擎）与通过 ACP 运行的 agent（内置：codex、gemini、qwen、opencode）',
      default: '/new 未指定 agent 时使用的 agent：claude、内置的 agent 或下面配置的名字',
      profiles:
        'agent 配置，每个一个表；内置 agent 只需写要改的键，其他 agent 必须写 command，例如：\n[agents.codex]\ncommand = ["codex-acp"]  # 参数数组；只写名字时在 PATH 中查找\nenv = { CODEX_HOME = "~/.codex" }  # 额外的环境变量（值中的 ~ 会展开；不能写密钥）\nenv_pass = ["OPENAI_API_KEY"]  # 从 cc-linker 的环境复制给 agent 的变量名（密钥只能这样传）',
    },
  },
  en: {
    general: {
      _: 'General',
      log_level: 'Log level: debug | info | warn | error',
      log_path: 'Log file (written by cc-linker start; rotated at 10 MB, 3 kept)',
      claude_bin: 'Path of the Claude Code CLI; empty = claude on PATH, else the one bundled with the Agent SDK',
      language: 'Language of messages and replies: zh | en',
    },
    feishu_bot: {
      _: 'Feishu / Lark bot. Events arrive over a long connection (WebSocket): no public address needed.\nSetting up the app in the developer console: docs/feishu-setup.md. With app_id / app_secret empty, start runs the local console only.',
      app_id: 'App ID: developer console → Credentials & Basic Info (凭证与基础信息), "cli_" + 16 hex digits',
      app_secret:
        'App Secret. To keep it out of this file, leave it empty and set CC_LINKER_FEISHU_APP_SECRET where cc-linker runs (it wins over this file)',
      owner_open_id:
        'Your own open_id (ou_...). Only its messages are handled; anyone else gets "该 Bot 为个人私有实例".\nDon\'t know it? cc-linker start, send /whoami to the bot, then cc-linker setup --owner <open_id>',
      allow_auto_bind_owner:
        "With owner_open_id empty, the first person to message the bot becomes the owner.\nOnly when the app's availability is limited to you; default false",
      default_cwd: 'Working directory for /new without a directory; must lie inside security.allowed_roots',
      domain: 'Platform: feishu (open.feishu.cn) | lark (international, open.larksuite.com) | a custom base URL',
    },
    telegram: {
      _: 'Telegram bot (long polling: no public address needed); only the owner\'s private chat is handled. Setup: the README\'s "Telegram" section.',
      enabled: 'With true and a bot_token, start runs the Telegram bot too; default false',
      bot_token:
        'The token from @BotFather (123456:ABC…). To keep it out of this file, leave it empty and set CC_LINKER_TELEGRAM_BOT_TOKEN (it wins over this file)',
      owner_user_id:
        "Your own numeric Telegram user id; only its private chat is handled.\nDon't know it? Send /whoami to the bot",
      allow_auto_bind_owner:
        'With owner_user_id empty, the first person to message the bot privately becomes the Telegram owner; default false',
      api_root: 'Bot API base URL (no trailing /); change it only for a self-hosted Bot API server',
      webhook_url:
        'Empty = long polling (the default). A public https:// URL switches to a webhook: Telegram POSTs updates there,\nyour reverse proxy / tunnel terminates HTTPS and forwards to webhook_listen',
      webhook_listen:
        'host:port cc-linker itself listens on in webhook mode (used only when webhook_url is set); default 127.0.0.1:8443',
      webhook_secret:
        'The secret Telegram sends with every POST (X-Telegram-Bot-Api-Secret-Token). Empty = generated and kept in the runtime folder (0600);\nor set CC_LINKER_TELEGRAM_WEBHOOK_SECRET',
    },
    slack: {
      _: 'Slack app (Socket Mode: no public address needed); only the owner\'s direct messages are handled. Setup: the README\'s "Slack" section.',
      enabled: 'With true and both tokens, start runs the Slack app too; default false',
      bot_token:
        'The Bot User OAuth Token (xoxb-…). To keep it out of this file, leave it empty and set CC_LINKER_SLACK_BOT_TOKEN (it wins over this file)',
      app_token:
        'The App-Level Token (xapp-…, scope connections:write). To keep it out of this file, leave it empty and set CC_LINKER_SLACK_APP_TOKEN',
      owner_user_id:
        "Your own Slack member id (U…); only its direct messages are handled.\nDon't know it? Send /whoami to the app",
      allow_auto_bind_owner:
        'With owner_user_id empty, the first person to message the app directly becomes the Slack owner; default false',
      api_url: 'Web API base URL (ending in /); normally left as it is',
    },
    dingtalk: {
      _: 'DingTalk robot (Stream mode: no public address needed); only the owner\'s single chat is handled. Setup: the README\'s "DingTalk" section.',
      enabled: 'With true and client_id + client_secret, start runs the DingTalk robot too; default false',
      client_id: "The DingTalk app's Client ID (formerly AppKey); also the robot's robotCode",
      client_secret:
        "The DingTalk app's Client Secret (formerly AppSecret). To keep it out of this file, leave it empty and set CC_LINKER_DINGTALK_CLIENT_SECRET (it wins over this file)",
      owner_staff_id:
        "Your own staffId (userid) in the organisation; only its single chat is handled.\nDon't know it? Send /whoami to the robot",
      allow_auto_bind_owner:
        'With owner_staff_id empty, the first person to message the robot in a single chat becomes the DingTalk owner; default false',
      api_base:
        'DingTalk OpenAPI base URL (no trailing /); the Stream gateway is <api_base>/v1.0/gateway/connections/open',
      oapi_base:
        "DingTalk's legacy API base URL (no trailing /), where files the agent sends are uploaded (media/upload); normally left as it is",
      card_template_id:
        "Optional: an AI card template id of the app (made on DingTalk's card platform). Set, replies stream into one card; empty, replies are markdown messages",
      card_template_key: "The template's variable that holds the streamed markdown; default content",
    },
    runtime: {
      _: 'Claude Code processes',
      stale_timeout_ms: 'A process silent this long is considered stuck (ms)',
      hard_timeout_ms: 'Hard limit of one run (ms)',
      max_concurrent_sessions: 'Claude processes running at the same time, at most',
      idle_timeout_ms: 'Idle session timeout (ms)',
      session_lock_timeout_ms: 'Longest wait for a session lock (ms)',
      warm_idle_ms:
        "How long a session's process is kept after its last message, so the next one is written to it without a start-up (ms; 0 = off; each kept process holds about 200 MB)",
      max_warm: 'Kept processes at most; the least recently used is ended first (0 = off)',
      recovery:
        'A turn a restart interrupted after Claude had started: continue = resume it where it stopped (the message is not sent again);\nask = show Continue / Skip on its card and wait (skipped when nobody chooses within sdk.timeout_ms)',
    },
    queue: {
      _: 'Message queue (persisted before processing, recovered after a crash)',
      spool_dir: 'Queue directory',
      max_pending: 'Queued messages at most; more are refused with a notice',
      worker_concurrency: 'Messages processed at the same time',
      done_retention_hours: 'How long finished messages are kept (hours)',
      done_max_files: 'Finished messages kept, at most',
      failed_retention_days: 'How long failed messages are kept (days)',
      failed_max_files: 'Failed messages kept, at most',
      delivery_retention_days: 'How long delivery receipts are kept (days); they prevent duplicate replies',
      list_snapshot_ttl_minutes: 'How long the numbers of a /list stay valid (minutes)',
    },
    cli_proxy: {
      _: 'HTTP debug port (reserved by the design, Phase 2)',
      port: 'Port',
      host: 'Listen address',
      timeout_ms: 'Fallback timeout of one message (ms)',
      token: 'Token of the debug port',
    },
    scanner: {
      _: 'Scanning Claude Code session files',
      max_file_size: 'Session files larger than this (bytes) are not parsed',
      incremental: 'Incremental scans (cached by modification time)',
    },
    sdk: {
      _: "Agent SDK mode: approve Claude's tool calls from a Feishu card",
      enabled: 'Use the Agent SDK mode',
      timeout_ms: 'Longest wait for an approval (ms)',
      permission_mode: 'Tool permission mode in SDK mode: default | acceptEdits | bypassPermissions | plan | dontAsk',
      claude_executable: 'Claude Code executable the SDK runs; empty = chosen automatically',
    },
    claude: {
      _: 'How Claude Code is run, and tool permissions',
      mode: 'Mode: auto | sdk | stream-json | json',
      permission_mode: 'Tool permission mode: default | acceptEdits | bypassPermissions | plan | dontAsk',
      allowed_tools: 'Tools allowed without asking',
      disallowed_tools: 'Tools always refused',
      models: 'Model aliases for /model, e.g. { sonnet = "claude-sonnet-4-5" }',
      default_model: "Default model (alias or full name); empty = Claude Code's default",
      env_allow:
        'More environment variables Claude Code (and the commands it runs) may see: exact names or PREFIX_*, e.g. ["JAVA_HOME", "GOPATH"].\nBy default only what Claude Code needs to run is passed; AWS / Google credentials only when CLAUDE_CODE_USE_BEDROCK / CLAUDE_CODE_USE_VERTEX is set.\nCC_LINKER_* and the cc_exec providers\' key variables are never passed, even when listed here',
    },
    stream: {
      _: 'Streaming reply cards',
      enabled: 'Update the reply card while Claude writes',
      throttle_ms: 'Minimum interval between whole-card updates (ms); CardKit streaming cards go faster',
      show_thinking: 'Show thinking as quotes',
      max_card_bytes: 'Past this size (bytes) a reply continues as text chunks',
      fallback_to_text: 'Send plain text when a card cannot be sent',
      show_action_buttons: 'Show quick action buttons on reply cards',
      keep_processing_card: 'Keep the "processing" card (false = replace it with the result card)',
    },
    images: {
      _: 'Image messages',
      enabled: 'Download images the user sends and give them to Claude',
      max_size_bytes: 'Largest image accepted (bytes)',
      cleanup_max_age_hours: 'How long images are kept (hours) before cleanup',
    },
    files: {
      _: 'Files: those the user sends, and those the agent sends (mcp__cc-linker__send_file)',
      enabled: 'Download files the user sends (any type) and give their paths to the agent',
      max_size_bytes: 'Largest file accepted or sent (bytes)',
      cleanup_max_age_hours: 'How long files are kept (hours) before cleanup',
      send_without_prompt: 'The agent sends files without asking each time',
    },
    voice: {
      _: "Voice messages: turned into text and sent as the prompt (Feishu's speech recognition, or an OpenAI-compatible transcription endpoint)",
      enabled: 'Transcribe voice messages; when off they are answered "voice is off"',
      max_seconds: 'Longest voice message accepted (seconds)',
      service:
        'Which speech recognition: "auto" (Feishu\'s when a Feishu app is set up — it needs the speech_to_text:speech scope — else the endpoint below), "feishu", "openai"',
      api_base:
        'OpenAI-compatible transcription endpoint (OpenAI, Groq, a local whisper server …), without a trailing slash',
      api_key: 'API key of that endpoint (or the CC_LINKER_VOICE_API_KEY variable); empty = the endpoint is not used',
      model: 'Transcription model, e.g. whisper-1, gpt-4o-mini-transcribe',
    },
    security: {
      _: 'Directory safety: /new from chat may only use these directories',
      allowed_roots: 'Allowed root directories (with their subdirectories); [] = unrestricted (not recommended)',
      denied_roots:
        'Denied directories; ~, / and parents of an allowed root deny only themselves, the others their whole subtree',
      confirm_risky_actions: 'Ask again before risky actions',
    },
    web: {
      _: 'Local web console (this machine only, token required)',
      enabled: 'Serve the local console',
      host: 'Listen address; keep 127.0.0.1',
      port: 'Port',
      token: 'Access token; empty = generated once and kept in ~/.cc-linker/web-token',
    },
    notify: {
      _: 'Notifications: one new message when a long turn ends or a prompt has waited (Feishu: a reply under the card, so the phone rings; console: a browser notification and a title badge)',
      enabled: 'Send notifications; false = never',
      after_s: 'A turn that ran longer than this many seconds notifies when it ends (done, failed or stopped)',
      permission_after_s: 'A permission prompt or question still unanswered after this many seconds notifies once',
    },
    ccexec: {
      _: 'cc_exec: read-only ChainlessChain CLI calls from an AI chat',
      cli: 'CLI command (argv array): ["chainlesschain"] (found on PATH), an absolute path, or ["node", "/path/to/chainlesschain/bin/chainlesschain.js"].\nNever "cc" (on Linux and macOS that is the C compiler) or another bare program name',
      cwd: 'Working directory of the CLI',
      timeout_ms: 'Timeout of one command (ms)',
      default_provider: 'Default model service (a name from [ccexec.providers.<name>])',
      env_allow: 'Extra environment variable names passed to the CLI',
      providers:
        'Model services, one table each, e.g.:\n[ccexec.providers.openai]\nkind = "openai"  # openai | anthropic | doubao | openai-compatible\nbase_url = ""  # empty = the official endpoint\napi_key_env = "OPENAI_API_KEY"  # name of the variable holding the key (never the key itself)\nmodel = "gpt-4o-mini"',
    },
    agents: {
      _: 'Coding agents: claude (the built-in Claude Code engine) and agents run over ACP (built in: codex, gemini, qwen, opencode)',
      default: 'The agent /new uses when none is named: claude, a built-in agent or a name configured below',
      profiles:
        'Agent profiles, one table each; a built-in agent needs only the keys you change, any other agent needs command, e.g.:\n[agents.codex]\ncommand = ["codex-acp"]  # argv; a bare name is looked up on PATH\nenv = { CODEX_HOME = "~/.codex" }  # extra variables (~ expanded in values; never secrets)\nenv_pass = ["OPENAI_API_KEY"]  # names of variables copied from cc-linker\'s environment (the only way a key gets there)',
    },
  },
};
