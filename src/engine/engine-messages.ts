import { defineMessages } from '../core/i18n.js';

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** `300000` → `5 分钟` / `5 min`; under a minute in seconds. */
function duration(ms: string | number | undefined, lang: 'zh' | 'en'): string {
  const n = Number(ms);
  if (!Number.isFinite(n)) return s(ms);
  if (n >= 60_000) {
    const min = Math.round(n / 6000) / 10;
    return lang === 'zh' ? `${min} 分钟` : `${min} min`;
  }
  const sec = Math.round(n / 100) / 10;
  return lang === 'zh' ? `${sec} 秒` : `${sec} s`;
}

/** The agent's display name in a message: `agent` when the engine named it, else Claude Code. */
const who = (p: Record<string, string | number>): string => (p.agent === undefined ? 'Claude Code' : String(p.agent));

/**
 * The engines' user-facing text (zh default, en): one sentence per `EngineError` code that
 * says what happened and what to do, plus the messages Claude sees when a tool is denied.
 */
export const engineMessages = defineMessages({
  zh: {
    SESSION_NOT_FOUND: (p) =>
      `会话 ${s(p.session)} 已不存在（${who(p)} 找不到它的记录），请 /switch 切换到其他会话，或 /new 新建会话`,
    CWD_MISSING: (p) =>
      `工作目录不存在：${s(p.cwd)}${p.reason === 'ENOTDIR' ? '（不是目录）' : ''}。请确认路径，或用 /new <目录> 指定一个存在的目录`,
    CLAUDE_NOT_FOUND:
      '找不到 Claude Code 可执行文件（{bin}）。请安装 Claude Code，或在配置中设置 general.claude_bin / sdk.claude_executable',
    RUN_FAILED: (p) => `${who(p)} 运行失败：「${s(p.detail)}」`, // the agent's own words, quoted (docs/design.md#language)
    TIMEOUT_IDLE: (p) =>
      `${who(p)} 已 ${duration(p.timeoutMs, 'zh')}没有任何输出，判定为卡死并已终止（runtime.stale_timeout_ms）`,
    TIMEOUT_HARD: (p) => `${who(p)} 运行超过 ${duration(p.timeoutMs, 'zh')}的上限，已终止（runtime.hard_timeout_ms）`,
    AGENT_NOT_FOUND: (p) =>
      `找不到 ${who(p)} 的启动命令（${s(p.command)}）。安装：${s(p.install)}，或在配置 [agents.${s(p.name)}] 中设置 command`,
    AGENT_UNKNOWN: (p) => `没有名为 “${s(p.name)}” 的智能体。可用：${s(p.known)}`,
    LOAD_UNSUPPORTED: (p) => `${who(p)} 不支持继续已有会话（session/load），请用 /new 新建会话`,
    CANCELLED: '本次运行已取消',
    MESSAGE_TOO_LONG: '消息过长（{length} 字符），上限为 {limit} 字符，请缩短后重新发送',
    SESSION_BUSY: (p) =>
      `会话 ${s(p.session)} 正在处理上一条消息，等待 ${duration(p.timeoutMs, 'zh')}后仍未结束，请稍后再试`,
    deny_disallowed: '该工具已被 cc-linker 配置禁止（claude.disallowed_tools）：{rule}',
    deny_user: '用户拒绝了此操作',
    deny_timeout: '用户在 {seconds} 秒内未响应权限请求，已自动拒绝',
    deny_no_handler: '当前渠道无法进行交互式审批，已拒绝',
    file_no_sender: '未发送：本轮对话无法向聊天发送文件。',
    file_token_unknown: '未发送：这个 cc-linker 文件通道已失效（它所属的对话已结束），或不是 cc-linker 启动的。',
    deny_question_cancelled: '用户没有回答这个问题',
    deny_question_not_offered: '回答不是问题给出的选项之一，已拒绝',
  },
  en: {
    SESSION_NOT_FOUND: (p) =>
      `Session ${s(p.session)} no longer exists (${who(p)} has no record of it); use /switch to pick another session or /new to start one`,
    CWD_MISSING: (p) =>
      `Working directory not found: ${s(p.cwd)}${p.reason === 'ENOTDIR' ? ' (not a directory)' : ''}. Check the path, or use /new <dir> with a directory that exists`,
    CLAUDE_NOT_FOUND:
      'Claude Code executable not found ({bin}). Install Claude Code, or set general.claude_bin / sdk.claude_executable in the config',
    RUN_FAILED: (p) => `${who(p)} failed: “${s(p.detail)}”`,
    TIMEOUT_IDLE: (p) =>
      `${who(p)} produced no output for ${duration(p.timeoutMs, 'en')} and was stopped as stuck (runtime.stale_timeout_ms)`,
    TIMEOUT_HARD: (p) =>
      `${who(p)} ran longer than the ${duration(p.timeoutMs, 'en')} limit and was stopped (runtime.hard_timeout_ms)`,
    AGENT_NOT_FOUND: (p) =>
      `${who(p)} is not installed here: its command (${s(p.command)}) was not found. Install it with ${s(p.install)}, or set command in [agents.${s(p.name)}]`,
    AGENT_UNKNOWN: (p) => `There is no agent named "${s(p.name)}". Available: ${s(p.known)}`,
    LOAD_UNSUPPORTED: (p) => `${who(p)} cannot continue an existing session (no session/load); start one with /new`,
    CANCELLED: 'The run was cancelled',
    MESSAGE_TOO_LONG:
      'The message is too long ({length} characters; the limit is {limit}); shorten it and send it again',
    SESSION_BUSY: (p) =>
      `Session ${s(p.session)} is still busy with the previous message after waiting ${duration(p.timeoutMs, 'en')}; try again later`,
    deny_disallowed: 'This tool is forbidden by the cc-linker config (claude.disallowed_tools): {rule}',
    deny_user: 'The user denied this action',
    deny_timeout: 'The user did not answer the permission request within {seconds} s; denied automatically',
    deny_no_handler: 'This channel cannot approve tools interactively; denied',
    file_no_sender: 'Not sent: this turn cannot send files into a chat.',
    file_token_unknown:
      'Not sent: this cc-linker file channel is no longer valid (the run it belonged to has ended), or it was not started by cc-linker.',
    deny_question_cancelled: 'The user did not answer the question',
    deny_question_not_offered: 'The answer was not one of the options the question offered; denied',
  },
});
