import { defineMessages, type Language } from '../core/i18n.js';
import type { StreamState } from './channel.js';

/** A running tool or plan longer than this is cut with `…` (the line is a heartbeat, not a log). */
const MAX_PART_CHARS = 80;

const messages = defineMessages({
  zh: {
    processing: '⏳ 正在处理 · {s}s',
    elapsed: '⏱ {s}s',
    tools: '已调用 {n} 个工具',
  },
  en: {
    processing: '⏳ Processing · {s}s',
    elapsed: '⏱ {s}s',
    tools: '{n} tool calls',
  },
});

const cap = (text: string) => (text.length <= MAX_PART_CHARS ? text : `${text.slice(0, MAX_PART_CHARS)}…`);

/**
 * The heartbeat line of a running reply, the same in every chat app: the seconds since the run
 * started ("processing" until the agent writes), the tool running now, the plan, the tools used.
 * Plain text parts in the user's language; each channel escapes and joins them for its format.
 *
 * @example streamStatusParts({ phase: 'streaming', text: 'hi', thinking: '', toolCount: 2, elapsedMs: 5200 }, 'en')
 *   // ['⏱ 5s', '2 tool calls']
 */
export function streamStatusParts(state: StreamState, lang: Language): string[] {
  const t = messages(lang);
  const s = Math.floor(state.elapsedMs / 1000);
  const parts = [state.phase === 'processing' && state.text === '' ? t('processing', { s }) : t('elapsed', { s })];
  if (state.activeTool) parts.push(`🔧 ${cap(state.activeTool.replace(/\s+/g, ' '))}`);
  if (state.plan) parts.push(cap(state.plan));
  if (state.toolCount > 0) parts.push(t('tools', { n: state.toolCount }));
  return parts;
}
