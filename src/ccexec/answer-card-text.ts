import { defineMessages, type Language } from '../core/i18n.js';
import type { ChatEvent, TerminalState, ToolCallDecision } from './chat-states.js';

/** One tool call as a summary lists it. */
export interface RunCallSummary {
  readonly commandLine: string;
  readonly decision: ToolCallDecision;
  readonly exitCode: number;
  readonly durationMs: number;
  readonly reason?: string;
}

/** A finished run reduced to what a one-card reply shows: each call, then the answer or the failure. */
export interface RunSummary {
  readonly calls: readonly RunCallSummary[];
  /** The last state seen; `undefined` while the run is still going. */
  readonly state: TerminalState | undefined;
  readonly answer: string;
  /** The FAILED message, when it failed. */
  readonly error?: string;
}

/** Collects the `TOOL_DONE` cards and the terminal state of one run's events. */
export function runSummary(events: readonly ChatEvent[]): RunSummary {
  const calls: RunCallSummary[] = [];
  let state: TerminalState | undefined;
  let answer = '';
  let error: string | undefined;
  for (const ev of events) {
    if (ev.type === 'TOOL_DONE') {
      calls.push({
        commandLine: ev.commandLine,
        decision: ev.decision,
        exitCode: ev.exitCode,
        durationMs: ev.durationMs,
        ...(ev.reason !== undefined ? { reason: ev.reason } : {}),
      });
    } else if (ev.type === 'COMPLETE') {
      state = 'COMPLETE';
      answer = ev.answer;
    } else if (ev.type === 'FAILED') {
      state = 'FAILED';
      error = ev.message;
    } else if (ev.type === 'CANCELLED') state = 'CANCELLED';
  }
  return { calls, state, answer, ...(error !== undefined ? { error } : {}) };
}

const messages = defineMessages({
  zh: {
    ran: '🔧 {command} · exit {exit} · {ms}ms',
    denied: '🚫 {command} · 未允许：{reason}',
    invalid: '⚠️ {command} · 参数无效：{reason}',
    duplicate: '♻️ {command} · 与之前相同，未重复执行',
    skipped: '⏭️ {command} · 未执行（每轮只执行一个调用）',
    failed: '❌ 失败：{message}',
    cancelled: '⏹️ 已取消',
    pending: '…仍在进行',
    noAnswer: '（模型没有给出文字回答）',
  },
  en: {
    ran: '🔧 {command} · exit {exit} · {ms}ms',
    denied: '🚫 {command} · not allowed: {reason}',
    invalid: '⚠️ {command} · invalid arguments: {reason}',
    duplicate: '♻️ {command} · same as before, not run again',
    skipped: '⏭️ {command} · not run (one call per turn)',
    failed: '❌ Failed: {message}',
    cancelled: '⏹️ Cancelled',
    pending: '…still running',
    noAnswer: '(the model gave no text answer)',
  },
});

/**
 * A plain-text summary of a run for the bridge's `/cc` reply card: one line per tool call (command,
 * exit code, duration — or why it did not run), a blank line, then the answer (or the failure).
 * Command lines are model-supplied text: the card renderer must escape them for its markup.
 *
 * @example
 *   summarizeRun(result.events, 'zh')
 *   // '🔧 cc note list --limit 10 · exit 0 · 231ms\n\n你最近的笔记有：…'
 */
export function summarizeRun(events: readonly ChatEvent[], lang: Language = 'zh'): string {
  const t = messages(lang);
  const s = runSummary(events);
  const lines = s.calls.map((c) => {
    const command = c.commandLine;
    const reason = c.reason ?? '';
    switch (c.decision) {
      case 'allowed':
        return t('ran', { command, exit: c.exitCode, ms: Math.round(c.durationMs) });
      case 'denied':
        return t('denied', { command, reason });
      case 'invalid':
      case 'unknown-tool':
        return t('invalid', { command, reason });
      case 'duplicate':
        return t('duplicate', { command });
      case 'skipped':
        return t('skipped', { command });
    }
  });
  const tail =
    s.state === 'COMPLETE'
      ? s.answer.trim() || t('noAnswer')
      : s.state === 'FAILED'
        ? t('failed', { message: s.error ?? '' })
        : s.state === 'CANCELLED'
          ? t('cancelled')
          : t('pending');
  return lines.length > 0 ? `${lines.join('\n')}\n\n${tail}` : tail;
}
