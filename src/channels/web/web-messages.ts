import { defineMessages } from '../../core/i18n.js';

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/**
 * The server-side sentences of the web console (errors, the login page, rendered card chrome), zh
 * (default) and en. The page's own labels live in `ui/i18n.js`, which the browser picks by its
 * language; these are the ones the server must produce itself.
 */
export const webMessages = defineMessages({
  zh: {
    bindRefused: (p) =>
      `拒绝在非本机地址 ${s(p.host)} 上启动 Web 控制台：必须在 config.toml 中同时显式设置 web.host 和 web.token。`,
    portInUse: (p) => `Web 控制台端口 ${s(p.port)} 已被占用。请修改 config.toml 的 web.port，或停止占用该端口的程序。`,
    listenFailed: (p) => `Web 控制台无法监听 ${s(p.host)}:${s(p.port)}：${s(p.reason)}`,
    tokenUnreadable: (p) => `无法读取 Web 控制台令牌文件 ${s(p.file)}：${s(p.reason)}`,
    unauthorized: '未授权：请使用启动时打印的带 token 的链接打开控制台。',
    forbiddenOrigin: '拒绝跨站请求。',
    badHost: '请求的 Host 不是本控制台的地址。',
    notFound: '未找到。',
    methodNotAllowed: '不支持的请求方法。',
    badJson: '请求体不是合法的 JSON。',
    bodyTooLarge: (p) => `请求体过大（上限 ${s(p.max)} 字节）。`,
    needJson: '请求体必须是 application/json。',
    badRequest: (p) => `请求无效：${s(p.reason)}`,
    noBridge: '会话功能未启用（桥接未运行）。',
    chatBusy: '该对话正在运行，请等待完成或先取消。',
    chatNotFound: '对话不存在（服务重启后需新建对话）。',
    unknownProvider: (p) => `未知的模型提供方：${s(p.id)}`,
    internal: '内部错误，详情见日志。',
    loginTitle: 'cc-linker 控制台',
    loginPrompt: '请输入启动时打印的控制台令牌：',
    loginButton: '登录',
    loginWrong: '令牌不正确。',
    streamProcessing: '⏳ 处理中…',
    streamStreaming: '✍️ 回复中…',
    streamThinking: '思考过程',
    streamTool: (p) => `🔧 ${s(p.tool)}`,
    streamElapsed: (p) => `已用 ${s(p.seconds)} 秒 · 工具调用 ${s(p.tools)} 次`,
  },
  en: {
    bindRefused: (p) =>
      `Refusing to start the web console on the non-loopback address ${s(p.host)}: set both web.host and web.token explicitly in config.toml.`,
    portInUse: (p) =>
      `Web console port ${s(p.port)} is already in use. Change web.port in config.toml or stop the program using it.`,
    listenFailed: (p) => `The web console cannot listen on ${s(p.host)}:${s(p.port)}: ${s(p.reason)}`,
    tokenUnreadable: (p) => `Cannot read the web console token file ${s(p.file)}: ${s(p.reason)}`,
    unauthorized: 'Unauthorized: open the console with the link (with its token) printed at start-up.',
    forbiddenOrigin: 'Cross-site request refused.',
    badHost: 'The request Host is not this console’s address.',
    notFound: 'Not found.',
    methodNotAllowed: 'Method not allowed.',
    badJson: 'The request body is not valid JSON.',
    bodyTooLarge: (p) => `Request body too large (limit ${s(p.max)} bytes).`,
    needJson: 'The request body must be application/json.',
    badRequest: (p) => `Invalid request: ${s(p.reason)}`,
    noBridge: 'Sessions are not available (the bridge is not running).',
    chatBusy: 'This chat is running; wait for it to finish or cancel it first.',
    chatNotFound: 'No such chat (start a new one after a restart).',
    unknownProvider: (p) => `Unknown provider: ${s(p.id)}`,
    internal: 'Internal error; see the log for details.',
    loginTitle: 'cc-linker console',
    loginPrompt: 'Enter the console token printed at start-up:',
    loginButton: 'Sign in',
    loginWrong: 'Wrong token.',
    streamProcessing: '⏳ Working…',
    streamStreaming: '✍️ Replying…',
    streamThinking: 'Thinking',
    streamTool: (p) => `🔧 ${s(p.tool)}`,
    streamElapsed: (p) => `${s(p.seconds)} s elapsed · ${s(p.tools)} tool calls`,
  },
});

export type WebMessageKey = Parameters<ReturnType<typeof webMessages>>[0];
