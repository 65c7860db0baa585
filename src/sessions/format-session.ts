import path from 'node:path';
import type { Language } from '../core/i18n.js';
import { statusOf, type SessionEntry } from './registry-schema.js';
import { sessionsMessages } from './sessions-messages.js';

/**
 * Human formatting of sessions shared by the terminal commands and chat replies: relative times
 * ("刚刚", "3 分钟前"), the first column label (终端 / 飞书 / 降级 …), short ids, titles, local
 * date-times, and the seed's list layout (§2.2.2):
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

/** The first column: the status when it is not plain active, else the origin (终端 / 飞书). */
export function sessionLabel(entry: Pick<SessionEntry, 'status' | 'origin'>, lang: Language): string {
  const t = sessionsMessages(lang);
  const status = statusOf(entry);
  if (status !== 'active') return t(`status_${status}`);
  return t(entry.origin === 'feishu' ? 'origin_feishu' : 'origin_cli');
}

/** The origin alone (终端 / 飞书), for the detail view. */
export function originLabel(entry: SessionEntry, lang: Language): string {
  return sessionsMessages(lang)(entry.origin === 'feishu' ? 'origin_feishu' : 'origin_cli');
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

/** Local date-time: zh `2026/5/3 10:30:00` (as the seed shows), en `2026-05-03 10:30:00`. */
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

/** Sorts most recently active first (ties by id, so numbering is stable); parses each time once. */
export function sortByLastActive<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(items: T[]): T[] {
  return newestFirst(items, items.length);
}

/**
 * The `limit` most recently active items, in `sortByLastActive` order, without sorting them all:
 * `cc-linker list` shows 20 of possibly thousands, on every cold start.
 */
export function newestFirst<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(
  items: readonly T[],
  limit: number,
): T[] {
  if (limit * 4 >= items.length)
    return (numericNewestFirst(items) ?? sortedNewestFirst(items) ?? comparatorSorted(items)).slice(0, limit);
  const keyed = items.map((item) => ({ item, t: Date.parse(item.entry.last_active) || 0 }));
  const top: { item: T; t: number }[] = [];
  for (const k of keyed) {
    if (top.length === limit && before(k, top[limit - 1] as { item: T; t: number }) >= 0) continue;
    let i = top.length;
    while (i > 0 && before(k, top[i - 1] as { item: T; t: number }) < 0) i -= 1;
    top.splice(i, 0, k);
    if (top.length > limit) top.pop();
  }
  return top.map((k) => k.item);
}

/**
 * All of `items` in `sortByLastActive` order by one native numeric sort, when their ids already
 * ascend (the registry keeps its sessions sorted by id, so the list index always qualifies): each
 * key is `(newest - t) · 2^bits + index`, an exact integer below 2^53, so equal times fall back
 * to the index, which is the id order. No string is built per item — the string-key sort spent
 * ≈ 3 of its ≈ 5 ms making keys in a cold `init`. Null when the ids do not ascend or the keys
 * would not be exact (a span of times and a count too large together).
 */
function numericNewestFirst<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(
  items: readonly T[],
): T[] | null {
  const n = items.length;
  const times = new Float64Array(n);
  let newest = -Infinity;
  let oldest = Infinity;
  for (let i = 0; i < n; i += 1) {
    const item = items[i] as T;
    if (i > 0 && !((items[i - 1] as T).id < item.id)) return null;
    const t = Date.parse(item.entry.last_active) || 0;
    times[i] = t;
    if (t > newest) newest = t;
    if (t < oldest) oldest = t;
  }
  const slots = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
  if (n === 0 || (newest - oldest + 1) * slots > Number.MAX_SAFE_INTEGER) return n === 0 ? [] : null;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i += 1) keys[i] = (newest - (times[i] as number)) * slots + i;
  keys.sort();
  const out = new Array<T>(n);
  for (let k = 0; k < n; k += 1) out[k] = items[(keys[k] as number) % slots] as T;
  return out;
}

/** Larger than any `Date.parse` result: `LATEST - t` is a non-negative integer of at most 17 digits. */
const LATEST = 8.64e15;

/**
 * All of `items` in `sortByLastActive` order, sorted by the engine's own string sort: each item
 * gets one key (17 digits of `LATEST - time`, then the id, then its index), so no comparator
 * runs in JavaScript — 2,000 sessions take ~20,000 comparisons, which a cold `init` would run in
 * V8's interpreter while writing the list index. Null when an id holds the separator.
 */
function sortedNewestFirst<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(
  items: readonly T[],
): T[] | null {
  const keys: string[] = [];
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as T;
    if (item.id.includes('\u0000')) return null; // would not order like the ids: the comparator sorts those
    const t = Date.parse(item.entry.last_active) || 0;
    keys.push(`${String(LATEST - t).padStart(17, '0')}\u0000${item.id}\u0000${i}`);
  }
  keys.sort();
  return keys.map((k) => items[Number(k.slice(k.lastIndexOf('\u0000') + 1))] as T);
}

function comparatorSorted<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(
  items: readonly T[],
): T[] {
  return items
    .map((item) => ({ item, t: Date.parse(item.entry.last_active) || 0 }))
    .sort(before)
    .map((k) => k.item);
}

/** Newer first, then by id. */
function before(a: { item: { id: string }; t: number }, b: { item: { id: string }; t: number }): number {
  return b.t - a.t || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0);
}
