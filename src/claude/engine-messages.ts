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

/**
 * The Claude engine's user-facing text (zh default, en): one sentence per `EngineError` code that
 * says what happened and what to do, plus the messages Claude sees when a tool is denied.
 */
export const engineMessages = defineMessages({
  zh: {
    SESSION_NOT_FOUND:
      '会话 {session} 已不存在（Claude Code 找不到它的记录），请 /switch 切换到其他会话，或 /new 新建会话',
    CWD_MISSING: (p) =>
      `工作目录不存在：${s(p.cwd)}${p.reason === 'ENOTDIR' ? '（不是目录）' : ''}。请确认路径，或用 /new <目录> 指定一个存在的目录`,
    CLAUDE_NOT_FOUND:
      '找不到 Claude Code 可执行文件（{bin}）。请安装 Claude Code，或在配置中设置 general.claude_bin / sdk.claude_executable',
    RUN_FAILED: 'Claude Code 运行失败：{detail}',
    TIMEOUT_IDLE: (p) =>
      `Claude Code 已 ${duration(p.timeoutMs, 'zh')}没有任何输出，判定为卡死并已终止（runtime.stale_timeout_ms）`,
    TIMEOUT_HARD: (p) => `Claude Code 运行超过 ${duration(p.timeoutMs, 'zh')}的上限，已终止（runtime.hard_timeout_ms）`,
    CANCELLED: '本次运行已取消',
    MESSAGE_TOO_LONG: '消息过长（{length} 字符），上限为 {limit} 字符，请缩短后重新发送',
    SESSION_BUSY: (p) =>
      `会话 ${s(p.session)} 正在处理上一条消息，等待 ${duration(p.timeoutMs, 'zh')}后仍未结束，请稍后再试`,
    deny_disallowed: '该工具已被 cc-linker 配置禁止（claude.disallowed_tools）：{rule}',
    deny_user: '用户拒绝了此操作',
    deny_timeout: '用户在 {seconds} 秒内未响应权限请求，已自动拒绝',
    deny_no_handler: '当前渠道无法进行交互式审批，已拒绝',
    deny_question_cancelled: '用户没有回答这个问题',
    deny_question_not_offered: '回答不是问题给出的选项之一，已拒绝',
  },
  en: {
    SESSION_NOT_FOUND:
      'Session {session} no longer exists (Claude Code has no record of it); use /switch to pick another session or /new to start one',
    CWD_MISSING: (p) =>
      `Working directory not found: ${s(p.cwd)}${p.reason === 'ENOTDIR' ? ' (not a directory)' : ''}. Check the path, or use /new <dir> with a directory that exists`,
    CLAUDE_NOT_FOUND:
      'Claude Code executable not found ({bin}). Install Claude Code, or set general.claude_bin / sdk.claude_executable in the config',
    RUN_FAILED: 'Claude Code failed: {detail}',
    TIMEOUT_IDLE: (p) =>
      `Claude Code produced no output for ${duration(p.timeoutMs, 'en')} and was stopped as stuck (runtime.stale_timeout_ms)`,
    TIMEOUT_HARD: (p) =>
      `Claude Code ran longer than the ${duration(p.timeoutMs, 'en')} limit and was stopped (runtime.hard_timeout_ms)`,
    CANCELLED: 'The run was cancelled',
    MESSAGE_TOO_LONG:
      'The message is too long ({length} characters; the limit is {limit}); shorten it and send it again',
    SESSION_BUSY: (p) =>
      `Session ${s(p.session)} is still busy with the previous message after waiting ${duration(p.timeoutMs, 'en')}; try again later`,
    deny_disallowed: 'This tool is forbidden by the cc-linker config (claude.disallowed_tools): {rule}',
    deny_user: 'The user denied this action',
    deny_timeout: 'The user did not answer the permission request within {seconds} s; denied automatically',
    deny_no_handler: 'This channel cannot approve tools interactively; denied',
    deny_question_cancelled: 'The user did not answer the question',
    deny_question_not_offered: 'The answer was not one of the options the question offered; denied',
  },
});
