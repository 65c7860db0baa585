import path from 'node:path';
import type { Language } from '../../core/i18n.js';
import { statusOf } from '../../sessions/registry-schema.js';
import { sessionsMessages } from '../../sessions/sessions-messages.js';
import type { CardButton, CardSection } from '../reply-model.js';
import { bridgeMessages } from '../bridge-messages.js';
import type { SessionView } from './command-context.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "刚刚", "5 分钟前", "3 小时前" … relative to `now` (the labels are the sessions room's, shared with the terminal). */
export function relativeTime(iso: string, now: Date, lang: Language): string {
  const t = sessionsMessages(lang);
  const ms = now.getTime() - Date.parse(iso);
  if (!Number.isFinite(ms) || ms < MINUTE) return t('just_now');
  if (ms < HOUR) return t('minutes_ago', { n: Math.floor(ms / MINUTE) });
  if (ms < DAY) return t('hours_ago', { n: Math.floor(ms / HOUR) });
  if (ms < 30 * DAY) return t('days_ago', { n: Math.floor(ms / DAY) });
  if (ms < 365 * DAY) return t('months_ago', { n: Math.floor(ms / (30 * DAY)) });
  return t('years_ago', { n: Math.floor(ms / (365 * DAY)) });
}

/** The first column of the seed's list line: the status when it is not plain active, else the origin. */
export function sessionLabel(s: SessionView, lang: Language): string {
  const t = sessionsMessages(lang);
  const status = statusOf(s);
  if (status !== 'active') return t(`status_${status}`);
  return t(s.origin === 'feishu' ? 'origin_feishu' : 'origin_cli');
}

/** The 8-character id users see and type (`8c4b1297`). */
export function shortId(uuid: string): string {
  return uuid.slice(0, 8);
}

/** A session's title, or the catalog's "untitled". */
export function titleOf(s: SessionView, lang: Language): string {
  return s.title && s.title.trim().length > 0 ? s.title.trim() : sessionsMessages(lang)('untitled');
}

/** Project name for display: the registry's, else the cwd's last segment. */
export function projectOf(s: SessionView): string {
  return s.project_name ?? path.basename(s.cwd);
}

/**
 * One numbered entry in the seed's layout (§2.3.2), as a plain section (titles are user text and
 * must be escaped by the channel):
 *
 *     1. Improve README and create acceptance guide
 *     ID: 8c4b1297
 *     终端 | 230条 | 刚刚 | cc-linker
 */
export function sessionEntrySection(s: SessionView, index: number, opts: { now: Date; lang: Language; current: boolean }): CardSection {
  const t = bridgeMessages(opts.lang);
  const meta = t('listItemMeta', {
    label: sessionLabel(s, opts.lang),
    count: sessionsMessages(opts.lang)('messages_n', { n: s.message_count }),
    when: relativeTime(s.last_active, opts.now, opts.lang),
    project: projectOf(s),
  });
  const head = `${index}. ${titleOf(s, opts.lang)}${opts.current ? t('listCurrentMark') : ''}`;
  return { type: 'plain', text: `${head}\nID: ${shortId(s.uuid)}\n${meta}` };
}

/** The "切换 N" button of a numbered entry. */
export function switchButton(s: SessionView, index: number, lang: Language): CardButton {
  return { label: bridgeMessages(lang)('switchButton', { index }), action: { type: 'switch', sessionId: s.uuid } };
}

/** Most recently active first; ties by uuid so the numbering is stable. */
export function byLastActive(a: SessionView, b: SessionView): number {
  const d = Date.parse(b.last_active) - Date.parse(a.last_active);
  if (d !== 0 && Number.isFinite(d)) return d;
  return a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0;
}
