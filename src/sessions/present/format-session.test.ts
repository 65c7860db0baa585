import { describe, expect, it } from 'vitest';
import { sessionEntry } from '../../../test/fixtures/session-entry.js';
import { formatRelativeTime, sessionLabel, statusLabel, truncate } from './format-session.js';
import type { SessionEntry } from '../registry/registry-schema.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const entry = (over: Partial<SessionEntry>): SessionEntry => sessionEntry(ago(0), over);

describe('format-session', () => {
  it.each([
    [30_000, '刚刚', 'just now'],
    [3 * 60_000, '3 分钟前', '3 minutes ago'],
    [60_000, '1 分钟前', '1 minute ago'],
    [5 * 3_600_000, '5 小时前', '5 hours ago'],
    [2 * 86_400_000, '2 天前', '2 days ago'],
    [45 * 86_400_000, '1 个月前', '1 month ago'],
    [400 * 86_400_000, '1 年前', '1 year ago'],
  ])('relative time of %i ms', (ms, zh, en) => {
    expect(formatRelativeTime(ago(ms), NOW, 'zh')).toBe(zh);
    expect(formatRelativeTime(ago(ms), NOW, 'en')).toBe(en);
  });

  it('labels by status first, then origin', () => {
    expect(sessionLabel(entry({}), 'zh')).toBe('终端');
    expect(sessionLabel(entry({ origin: 'feishu' }), 'zh')).toBe('飞书');
    expect(sessionLabel(entry({ origin: 'feishu', status: 'degraded' }), 'zh')).toBe('降级');
    expect(sessionLabel(entry({ status: 'provisioning' }), 'en')).toBe('provisioning');
  });

  it('says a status as a word of the reader, never the raw registry value', () => {
    expect(statusLabel(entry({}), 'zh')).toBe('活跃');
    expect(statusLabel(entry({ status: 'archived' }), 'zh')).toBe('归档');
    expect(statusLabel(entry({}), 'en')).toBe('active');
  });

  it('truncates by code points', () => {
    expect(truncate('Improve README and create acceptance guide', 26)).toBe('Improve README and create...');
    expect(truncate('中文标题很长很长', 4)).toBe('中文标题...');
    expect(truncate('short', 30)).toBe('short');
  });
});
