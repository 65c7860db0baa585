import { defineMessages } from '../../../core/i18n.js';

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** The console API's own refusals (bad input, no bridge, busy or unknown chat, unknown session or agent, too many streams), zh (default) and en. */
export const consoleMessages = defineMessages({
  zh: {
    badRequest: (p) => `请求无效：${s(p.reason)}`,
    noBridge: '会话功能未启用（桥接未运行）。',
    chatBusy: '该对话正在运行，请等待完成或先取消。',
    chatNotFound: '对话不存在（服务重启后需新建对话）。',
    unknownProvider: (p) => `未知的模型提供方：${s(p.id)}`,
    unknownAgent: (p) => `未配置的智能体：${s(p.agent)}（可用：${s(p.known)}）`,
    sessionNotFound: (p) => `会话 ${s(p.id)} 不在会话列表中（可能已被删除，或列表尚未刷新）。`,
    tooManyStreams: (p) => `同一登录最多同时打开 ${s(p.max)} 个控制台页面的事件流；请先关闭一些标签页。`,
  },
  en: {
    badRequest: (p) => `Invalid request: ${s(p.reason)}`,
    noBridge: 'Sessions are not available (the bridge is not running).',
    chatBusy: 'This chat is running; wait for it to finish or cancel it first.',
    chatNotFound: 'No such chat (start a new one after a restart).',
    unknownProvider: (p) => `Unknown provider: ${s(p.id)}`,
    unknownAgent: (p) => `No agent named ${s(p.agent)} is configured (available: ${s(p.known)})`,
    sessionNotFound: (p) =>
      `Session ${s(p.id)} is not in the session list (deleted, or the list is not refreshed yet).`,
    tooManyStreams: (p) =>
      `At most ${s(p.max)} console pages of one login may receive live events at once; close some tabs first.`,
  },
});
