import { defineMessages } from '../../../core/i18n.js';

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/**
 * The sentences the console's HTTP server produces itself, zh (default) and en: start-up errors
 * (bind address, port, token file), the answers to refused or malformed requests, and the login
 * page. The page's own labels live in `ui/i18n.js`, which the browser picks by its language.
 */
export const httpMessages = defineMessages({
  zh: {
    bindRefused: (p) =>
      `拒绝在非本机地址 ${s(p.host)} 上启动 Web 控制台：必须在 config.toml 中同时显式设置 web.host 和 web.token。`,
    portInUse: (p) => `Web 控制台端口 ${s(p.port)} 已被占用。请修改 config.toml 的 web.port，或停止占用该端口的程序。`,
    listenFailed: (p) => `Web 控制台无法监听 ${s(p.host)}:${s(p.port)}：${s(p.reason)}`,
    tokenUnreadable: (p) => `无法读取 Web 控制台令牌文件 ${s(p.file)}：${s(p.reason)}`,
    unknownMessage: (p) => `控制台里没有消息 ${s(p.messageId)}（可能已被清理），无法更新它。`,
    tokenInConfig: (p) =>
      `控制台令牌由 ${s(p.file)} 中的 web.token 设定，不能用此命令更换：请在该文件中把它改成一个新的随机值，然后重启 cc-linker。`,
    unauthorized: '未授权：请使用启动时打印的带 token 的链接打开控制台。',
    forbiddenOrigin: '拒绝跨站请求。',
    badHost: '请求的 Host 不是本控制台的地址。',
    notFound: '未找到。',
    methodNotAllowed: '不支持的请求方法。',
    badJson: '请求体不是合法的 JSON。',
    bodyTooLarge: (p) => `请求体过大（上限 ${s(p.max)} 字节）。`,
    needJson: '请求体必须是 application/json。',
    internal: '内部错误，详情见日志。',
    loginTitle: 'cc-linker 控制台',
    loginPrompt: '请输入启动时打印的控制台令牌：',
    loginButton: '登录',
    loginWrong: '令牌不正确。',
    loginTokenFile: (p) => `令牌保存在 ${s(p.file)}。`,
    loginTokenConfig: (p) => `令牌是 ${s(p.file)} 中的 web.token。`,
    loginPrintUrl: '在终端运行 cc-linker web url 可打印带令牌的登录地址。',
  },
  en: {
    bindRefused: (p) =>
      `Refusing to start the web console on the non-loopback address ${s(p.host)}: set both web.host and web.token explicitly in config.toml.`,
    portInUse: (p) =>
      `Web console port ${s(p.port)} is already in use. Change web.port in config.toml or stop the program using it.`,
    listenFailed: (p) => `The web console cannot listen on ${s(p.host)}:${s(p.port)}: ${s(p.reason)}`,
    tokenUnreadable: (p) => `Cannot read the web console token file ${s(p.file)}: ${s(p.reason)}`,
    unknownMessage: (p) =>
      `The console has no message ${s(p.messageId)} (it may have been cleaned up), so it cannot be updated.`,
    tokenInConfig: (p) =>
      `The console token is set by web.token in ${s(p.file)}, so this command cannot rotate it: change it there to a new random value, then restart cc-linker.`,
    unauthorized: 'Unauthorized: open the console with the link (with its token) printed at start-up.',
    forbiddenOrigin: 'Cross-site request refused.',
    badHost: 'The request Host is not this console’s address.',
    notFound: 'Not found.',
    methodNotAllowed: 'Method not allowed.',
    badJson: 'The request body is not valid JSON.',
    bodyTooLarge: (p) => `Request body too large (limit ${s(p.max)} bytes).`,
    needJson: 'The request body must be application/json.',
    internal: 'Internal error; see the log for details.',
    loginTitle: 'cc-linker console',
    loginPrompt: 'Enter the console token printed at start-up:',
    loginButton: 'Sign in',
    loginWrong: 'Wrong token.',
    loginTokenFile: (p) => `The token is stored in ${s(p.file)}.`,
    loginTokenConfig: (p) => `The token is web.token in ${s(p.file)}.`,
    loginPrintUrl: 'Run cc-linker web url in a terminal to print the login URL with its token.',
  },
});

export type HttpMessageKey = Parameters<ReturnType<typeof httpMessages>>[0];
