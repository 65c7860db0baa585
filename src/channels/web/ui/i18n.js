// The page's own labels, zh-CN and en. The language is `general.language` unless the user switched
// it in this browser (kept in localStorage). Server-rendered replies come in the bridge's language.

const MESSAGES = {
  zh: {
    tabChat: 'AI 对话',
    tabSessions: '会话',
    tabStatus: '状态',
    langToggle: 'English',
    notifyOff: '🔔 提醒我',
    notifyOn: '🔔 提醒：开',
    notifyDenied: '浏览器已禁止本站通知；请在网站设置里允许。标题上的计数照常显示。',
    notifyUnsupported: '这个浏览器不能显示通知；标题上的计数照常显示。',
    loginTitle: '登录',
    logout: '退出登录',
    logoutHint: '退出后，需要控制台令牌才能再次登录。',
    logoutFailed: '退出登录失败：{msg}',
    provider: '模型',
    model: '模型名（可选）',
    newChat: '新对话',
    chatHistory: '对话记录',
    auditTitle: '工具调用审计',
    auditRefresh: '刷新',
    inputPlaceholder: '输入问题，Enter 发送，Shift+Enter 换行',
    send: '发送',
    cancel: '取消',
    cancelHint: 'Esc 取消',
    badgeAvailable: '🔧 工具调用：可用',
    badgeNoTools: '🔧 工具调用：当前模型不支持（切换模型可启用）',
    badgeTooOld: '🔧 工具调用：CLI 版本过旧',
    badgeNotFound: '🔧 工具调用：未找到 CLI',
    badgeBroken: '🔧 工具调用：CLI 无法运行',
    badgeUnknown: '🔧 工具调用：不可用',
    badgeNoProvider: '未配置模型提供方（config.toml 的 [ccexec.providers]）',
    phaseTHINKING: '正在思考…',
    phaseTOOL_CALLED: '准备执行工具…',
    phaseTOOL_RUNNING: '执行中…',
    phaseTOOL_DONE: '工具已完成',
    phaseFINALIZING: '整理结果…',
    endCOMPLETE: '完成',
    endFAILED: '失败',
    endCANCELLED: '已取消',
    toolCalled: '已调用',
    toolRunning: '执行中…',
    toolDone: '完成',
    toolDenied: '已拒绝',
    toolCancelled: '已取消',
    toolTimedOut: '已超时',
    toolNotRun: '未能运行',
    toolExpand: '展开',
    toolCollapse: '收起',
    toolStderr: '标准错误输出',
    toolNoOutput: '（无输出）',
    decision_denied: '白名单拒绝',
    decision_invalid: '参数无效',
    'decision_unknown-tool': '未知工具',
    decision_duplicate: '重复调用（复用上次结果）',
    decision_skipped: '已跳过',
    noChat: '选择模型后直接输入问题。',
    noProviders: '没有可用的模型提供方。',
    auditTime: '时间',
    auditCommand: '命令',
    auditDecision: '决定',
    auditExit: '退出码',
    auditDuration: '耗时',
    auditEmpty: '暂无记录',
    sSearch: '搜索标题、预览、项目…',
    sAgentAll: '全部智能体',
    sAgent: '智能体',
    sOriginAll: '全部来源',
    sOriginCli: '终端',
    sOriginFeishu: '飞书',
    sOriginWeb: '网页控制台',
    sStatusAll: '全部状态',
    sProject: '项目名',
    sRefresh: '刷新',
    sEmpty: '没有匹配的会话',
    sSparse: '以下 {n} 个会话为空、无标题或已损坏',
    status_active: '活跃',
    status_archived: '已归档',
    status_degraded: '降级',
    status_corrupted: '损坏',
    status_provisioning: '创建中',
    sMessages: '{n} 条',
    sContinue: '在此会话中继续',
    sRecent: '最近对话',
    sNoTurns: '（没有可显示的对话）',
    sCwd: '目录',
    newTitle: '新建会话',
    newDir: '工作目录',
    newBrowse: '浏览',
    newRoots: '允许的根目录',
    newUp: '上一级',
    newUse: '使用',
    newAgent: '智能体',
    agentNotInstalled: '{label}（未安装）',
    newPrompt: '首条消息（可选）',
    newStart: '创建会话',
    convTitle: '会话对话',
    convPlaceholder: '发送给当前会话的消息（也可输入 /help 等命令）',
    convEmpty: '还没有消息。选择一个会话继续，或新建会话。',
    stQueue: '队列',
    stPending: '等待',
    stProcessing: '处理中',
    stFailed: '失败',
    stRunning: '运行中',
    stPrompts: '待确认',
    stChannels: '通道',
    stConnected: '已连接',
    stDisconnected: '未连接',
    stCli: 'ChainlessChain CLI',
    stModel: 'AI 对话模型',
    stNoBridge: '桥接未运行（仅 AI 对话可用）',
    you: '你',
    offline: '连接已断开，正在重连…',
    stopping: 'cc-linker 正在停止：不再接收新消息，正在运行的回合完成后退出；未完成的会在下次启动后继续。',
    stoppingUntil: 'cc-linker 正在停止：不再接收新消息，正在运行的回合最迟到 {time} 完成；未完成的会在下次启动后继续。',
    error: '出错了：{msg}',
    copied: '已复制',
  },
  en: {
    tabChat: 'AI chat',
    tabSessions: 'Sessions',
    tabStatus: 'Status',
    langToggle: '中文',
    notifyOff: '🔔 Notify me',
    notifyOn: '🔔 Notifying',
    notifyDenied:
      'Notifications are blocked for this site; allow them in the site settings. The count in the title still shows.',
    notifyUnsupported: 'This browser cannot show notifications; the count in the title still shows.',
    loginTitle: 'Login',
    logout: 'Log out',
    logoutHint: 'After logging out, the console token is needed to log in again.',
    logoutFailed: 'Logging out failed: {msg}',
    provider: 'Model',
    model: 'Model name (optional)',
    newChat: 'New chat',
    chatHistory: 'Chats',
    auditTitle: 'Tool call audit',
    auditRefresh: 'Refresh',
    inputPlaceholder: 'Ask something. Enter sends, Shift+Enter adds a line',
    send: 'Send',
    cancel: 'Cancel',
    cancelHint: 'Esc cancels',
    badgeAvailable: '🔧 Tools: available',
    badgeNoTools: '🔧 Tools: this model has no tools (switch model to enable)',
    badgeTooOld: '🔧 Tools: CLI too old',
    badgeNotFound: '🔧 Tools: CLI not found',
    badgeBroken: '🔧 Tools: CLI does not run',
    badgeUnknown: '🔧 Tools: unavailable',
    badgeNoProvider: 'No chat provider configured ([ccexec.providers] in config.toml)',
    phaseTHINKING: 'Thinking…',
    phaseTOOL_CALLED: 'Preparing the tool…',
    phaseTOOL_RUNNING: 'Running…',
    phaseTOOL_DONE: 'Tool finished',
    phaseFINALIZING: 'Putting the answer together…',
    endCOMPLETE: 'Done',
    endFAILED: 'Failed',
    endCANCELLED: 'Cancelled',
    toolCalled: 'Called',
    toolRunning: 'Running…',
    toolDone: 'Done',
    toolDenied: 'Refused',
    toolCancelled: 'Cancelled',
    toolTimedOut: 'Timed out',
    toolNotRun: 'Did not run',
    toolExpand: 'Expand',
    toolCollapse: 'Collapse',
    toolStderr: 'stderr',
    toolNoOutput: '(no output)',
    decision_denied: 'Refused by the allowlist',
    decision_invalid: 'Invalid arguments',
    'decision_unknown-tool': 'Unknown tool',
    decision_duplicate: 'Repeated call (earlier result reused)',
    decision_skipped: 'Skipped',
    noChat: 'Pick a model and ask a question.',
    noProviders: 'No chat provider available.',
    auditTime: 'Time',
    auditCommand: 'Command',
    auditDecision: 'Decision',
    auditExit: 'Exit',
    auditDuration: 'Duration',
    auditEmpty: 'No records yet',
    sSearch: 'Search titles, previews, projects…',
    sAgentAll: 'All agents',
    sAgent: 'Agent',
    sOriginAll: 'All origins',
    sOriginCli: 'Terminal',
    sOriginFeishu: 'Feishu',
    sOriginWeb: 'Web console',
    sStatusAll: 'All statuses',
    sProject: 'Project',
    sRefresh: 'Refresh',
    sEmpty: 'No matching sessions',
    sSparse: '{n} empty, untitled or corrupted sessions below',
    status_active: 'active',
    status_archived: 'archived',
    status_degraded: 'degraded',
    status_corrupted: 'corrupted',
    status_provisioning: 'provisioning',
    sMessages: '{n} messages',
    sContinue: 'Continue this session',
    sRecent: 'Recent turns',
    sNoTurns: '(nothing to show)',
    sCwd: 'Directory',
    newTitle: 'New session',
    newDir: 'Working directory',
    newBrowse: 'Browse',
    newRoots: 'Allowed roots',
    newUp: 'Up',
    newUse: 'Use',
    newAgent: 'Agent',
    agentNotInstalled: '{label} (not installed)',
    newPrompt: 'First message (optional)',
    newStart: 'Start session',
    convTitle: 'Conversation',
    convPlaceholder: 'Message to the current session (or a command such as /help)',
    convEmpty: 'No messages yet. Continue a session or start a new one.',
    stQueue: 'Queue',
    stPending: 'Pending',
    stProcessing: 'Processing',
    stFailed: 'Failed',
    stRunning: 'Running',
    stPrompts: 'Awaiting you',
    stChannels: 'Channels',
    stConnected: 'connected',
    stDisconnected: 'disconnected',
    stCli: 'ChainlessChain CLI',
    stModel: 'AI chat model',
    stNoBridge: 'The bridge is not running (AI chat only)',
    you: 'You',
    offline: 'Connection lost, reconnecting…',
    stopping:
      'cc-linker is stopping: no new messages are taken; running turns finish first, the rest resume after the next start.',
    stoppingUntil:
      'cc-linker is stopping: no new messages are taken; running turns have until {time}, the rest resume after the next start.',
    error: 'Error: {msg}',
    copied: 'Copied',
  },
};

let lang = pickLanguage();

/**
 * The page's language: the browser's saved choice (the toggle), else `general.language` as the
 * server last said it (`/api/settings`, kept so a reload shows no flash), else zh. Never the
 * browser's locale (docs/design.md#language).
 */
export function pickLanguage(store = safeStorage()) {
  for (const key of ['ccl-lang', 'ccl-default-lang']) {
    const value = store?.getItem(key);
    if (value === 'zh' || value === 'en') return value;
  }
  return 'zh';
}

function safeStorage() {
  try {
    return localStorage;
  } catch {
    return null; // private mode: nothing is remembered
  }
}

function remember(key, value) {
  try {
    safeStorage()?.setItem(key, value);
  } catch {
    /* storage full or refused: the choice lasts for this page only */
  }
}

/** The current language: 'zh' or 'en'. */
export function currentLang() {
  return lang;
}

/** Switches the language, remembers it (and tells the login page by cookie), and relabels the static page. */
export function setLang(next) {
  lang = next === 'en' ? 'en' : 'zh';
  remember('ccl-lang', lang);
  document.cookie = `ccl-lang=${lang}; path=/; max-age=31536000; samesite=strict`;
  applyI18n(document);
}

/**
 * Takes the server's `general.language` as the default; returns true when the page's language
 * changed (no saved choice and a default other than the one shown).
 */
export function adoptDefaultLang(serverLang) {
  if (serverLang !== 'zh' && serverLang !== 'en') return false;
  remember('ccl-default-lang', serverLang);
  const next = pickLanguage();
  if (next === lang) return false;
  lang = next;
  applyI18n(document);
  return true;
}

/**
 * Adds a view's own texts (`{ zh: {...}, en: {...} }`), so each view keeps its strings in its own
 * `<view>-i18n.js` instead of this file. A key already here is not overridden.
 */
export function addMessages(messages) {
  for (const code of ['zh', 'en']) for (const [k, v] of Object.entries(messages[code] ?? {})) MESSAGES[code][k] ??= v;
}

/** `t('sMessages', {n: 3})` in the current language. */
export function t(key, params = {}) {
  const template = MESSAGES[lang][key] ?? MESSAGES.zh[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Fills `data-i18n` (text), `data-i18n-placeholder` and `data-i18n-label` (aria-label) under `root`. */
export function applyI18n(root) {
  document.documentElement.lang = lang === 'en' ? 'en' : 'zh-CN';
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}
