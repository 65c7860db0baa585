import path from 'node:path';
import type { Language } from '../../core/i18n.js';
import { statusOf, type SessionEntry } from '../registry/registry-schema.js';
import { sessionsMessages } from '../sessions-messages.js';
import { isReadableAgent, type AgentName, type ReadableAgent } from '../scan/agent-files/agent-name.js';

/**
 * Human formatting of sessions shared by the terminal commands and chat replies: relative times
 * ("刚刚", "3 分钟前"), the first column label (终端 / 飞书 / 降级 …), short ids, titles, local
 * date-times, and the list layout (title, short id, then source | messages | when | project):
 *
 *     1. Improve README and create...
 *        ID: 8c4b1297
 *        终端 | 230条 | 刚刚 | cc-linker
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "刚刚", "5 分钟前", "3 小时前", "2 天前", "4 个月前", "1 年前" relative to `now`. */
export function formatRelativeTime(iso: string, now: Date, lang: Language): string {
  const t = sessionsMessages(lang);
  const ms = now.getTime() - Date.parse(iso);
  if (!Number.isFinite(ms) || ms < MINUTE) return t('just_now');
  if (ms < HOUR) return t('minutes_ago', { n: Math.floor(ms / MINUTE) });
  if (ms < DAY) return t('hours_ago', { n: Math.floor(ms / HOUR) });
  if (ms < 30 * DAY) return t('days_ago', { n: Math.floor(ms / DAY) });
  if (ms < 365 * DAY) return t('months_ago', { n: Math.floor(ms / (30 * DAY)) });
  return t('years_ago', { n: Math.floor(ms / (365 * DAY)) });
}

/** The message key of an origin's label (终端 / 飞书 / 网页控制台). */
function originKey(origin: SessionEntry['origin']): 'origin_cli' | 'origin_feishu' | 'origin_web' {
  return origin === 'feishu' ? 'origin_feishu' : origin === 'web' ? 'origin_web' : 'origin_cli';
}

/** The first column: the status when it is not plain active, else the origin (终端 / 飞书 / 网页控制台). */
export function sessionLabel(entry: Pick<SessionEntry, 'status' | 'origin'>, lang: Language): string {
  const t = sessionsMessages(lang);
  const status = statusOf(entry);
  if (status !== 'active') return t(`status_${status}`);
  return t(originKey(entry.origin));
}

/** A session's status as a word of the reader's language (活跃 / 归档 …), never the raw registry value. */
export function statusLabel(entry: Pick<SessionEntry, 'status'>, lang: Language): string {
  return sessionsMessages(lang)(`status_${statusOf(entry)}`);
}

/** The origin alone (终端 / 飞书 / 网页控制台), for the detail view. */
export function originLabel(entry: SessionEntry, lang: Language): string {
  return sessionsMessages(lang)(originKey(entry.origin));
}

/** The 8-character id users see and type. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** The title, or "Untitled". */
export function titleOf(entry: Pick<SessionEntry, 'title'>, lang: Language): string {
  return entry.title && entry.title.trim() ? entry.title.trim() : sessionsMessages(lang)('untitled');
}

/** The project shown in lists: the registry's name, else the cwd's last segment. */
export function projectOf(entry: Pick<SessionEntry, 'project_name' | 'cwd'>): string {
  return entry.project_name ?? (path.basename(entry.cwd) || entry.cwd || '-');
}

/** Cuts to `max` characters with "..." (the list layout), keeping whole code points. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max).join('').trimEnd()}...`;
}

/** Local date-time: zh `2026/5/3 10:30:00`, en `2026-05-03 10:30:00`. */
export function formatDateTime(iso: string, lang: Language): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  const time = `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  return lang === 'zh'
    ? `${d.getFullYear()}/${d.getMonth() + 1}/${d.getDate()} ${time}`
    : `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${time}`;
}

/** `终端 | 230条 | 刚刚 | cc-linker`. */
export function sessionMetaLine(
  entry: Pick<SessionEntry, 'status' | 'origin' | 'message_count' | 'last_active' | 'project_name' | 'cwd'>,
  now: Date,
  lang: Language,
): string {
  const count = sessionsMessages(lang)('messages_n', { n: entry.message_count });
  return `${sessionLabel(entry, lang)} | ${count} | ${formatRelativeTime(entry.last_active, now, lang)} | ${projectOf(entry)}`;
}

/** Each agent's name as users know it (the same in every language). */
const AGENT_LABELS: Record<ReadableAgent, string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini',
  qwen: 'Qwen',
  opencode: 'OpenCode',
};

/** `Codex`, `Gemini`, … for the detail view and tags. */
export function agentLabel(agent: AgentName): string {
  return isReadableAgent(agent) ? AGENT_LABELS[agent] : agent;
}

/**
 * The tag a listing puts before a session's meta line: `[Codex] ` for another agent's session,
 * nothing for Claude Code's (the default).
 */
export function agentTag(entry: Pick<SessionEntry, 'agent'>): string {
  return entry.agent === 'claude' ? '' : `[${agentLabel(entry.agent)}] `;
}
