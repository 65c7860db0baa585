import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes.js';

describe('formatBytes', () => {
  it('reads as a user would say it: one decimal below 100, none above, no trailing .0', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(320 * 1024 + 400)).toBe('320 KB');
    expect(formatBytes(1.2 * 1024 * 1024)).toBe('1.2 MB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatBytes(30 * 1024 * 1024)).toBe('30 MB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5 TB');
  });

  it('keeps one decimal when fixed (a progress line keeps its width)', () => {
    expect(formatBytes(4 * 1024 * 1024, { fixed: true })).toBe('4.0 MB');
    expect(formatBytes(310.24 * 1024 * 1024, { fixed: true })).toBe('310.2 MB');
    expect(formatBytes(2 * 1024 ** 3, { fixed: true })).toBe('2.0 GB');
    expect(formatBytes(100, { fixed: true })).toBe('100 B');
  });
});
