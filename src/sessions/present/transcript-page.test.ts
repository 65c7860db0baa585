import { describe, expect, it } from 'vitest';
import { MAX_PAGE, transcriptPage, type TranscriptPage } from './transcript-page.js';

describe('transcriptPage', () => {
  it('walks a 3,000-message history newest page first: every message exactly once, in order', () => {
    const all = Array.from({ length: 3000 }, (_, i) => i);
    const seen: number[][] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const page: TranscriptPage<number> | null = transcriptPage(all, before, 70);
      if (!page) throw new Error('bad cursor');
      expect(page.total).toBe(3000);
      expect(page.items.length).toBeLessThanOrEqual(70);
      expect(page.items[0]).toBe(page.start);
      seen.unshift(page.items);
      before = page.before;
      pages += 1;
    } while (before !== null && pages < 1000);
    expect(pages).toBe(Math.ceil(3000 / 70));
    expect(seen.flat()).toEqual(all);
  });

  it('keeps its cursor when messages are appended between pages', () => {
    const all = ['a', 'b', 'c', 'd', 'e'];
    const newest = transcriptPage(all, null, 2);
    expect(newest).toEqual({ items: ['d', 'e'], start: 3, before: '3', total: 5 });
    all.push('f');
    expect(transcriptPage(all, newest?.before ?? null, 2)).toEqual({
      items: ['b', 'c'],
      start: 1,
      before: '1',
      total: 6,
    });
    expect(transcriptPage(all, '1', 2)).toEqual({ items: ['a'], start: 0, before: null, total: 6 });
  });

  it('caps the page size and refuses cursors that are not a message number in range', () => {
    const all = Array.from({ length: 500 }, (_, i) => i);
    expect(transcriptPage(all, null, 10_000)?.items).toHaveLength(MAX_PAGE);
    expect(transcriptPage(all, null, 0)?.items).toEqual([499]);
    for (const bad of ['-1', '501', 'abc', '1e3', '0x10', ' 5']) expect(transcriptPage(all, bad, 10), bad).toBeNull();
    expect(transcriptPage([], null, 10)).toEqual({ items: [], start: 0, before: null, total: 0 });
  });
});
