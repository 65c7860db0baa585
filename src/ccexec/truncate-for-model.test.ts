import { describe, expect, it } from 'vitest';
import { MODEL_STDOUT_BYTES, truncateForModel } from './truncate-for-model.js';

describe('truncateForModel', () => {
  it('leaves text within the budget unchanged', () => {
    expect(truncateForModel('Notes (2):\n')).toEqual({
      text: 'Notes (2):\n',
      truncated: false,
      totalBytes: 11,
      totalLines: 1,
    });
    expect(truncateForModel('')).toEqual({ text: '', truncated: false, totalBytes: 0, totalLines: 0 });
  });

  it('keeps exactly 4096 bytes and cuts at 4097', () => {
    expect(truncateForModel('a'.repeat(MODEL_STDOUT_BYTES)).truncated).toBe(false);
    const cut = truncateForModel('a'.repeat(MODEL_STDOUT_BYTES + 1));
    expect(cut.truncated).toBe(true);
    expect(cut.text).toBe(`${'a'.repeat(4096)}\n… [TRUNCATED, total=4097 bytes, 1 lines]`);
  });

  it('counts lines of the whole text in the marker', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    const cut = truncateForModel(text);
    expect(cut.totalLines).toBe(500);
    expect(cut.text).toMatch(new RegExp(`\\n… \\[TRUNCATED, total=${Buffer.byteLength(text)} bytes, 500 lines\\]$`));
  });

  it('never splits a CJK or emoji character', () => {
    for (const unit of ['笔', '😀', 'é']) {
      const text = `a${unit.repeat(3000)}`;
      const cut = truncateForModel(text);
      const head = cut.text.slice(0, cut.text.indexOf('\n… [TRUNCATED'));
      expect(head).not.toContain('\ufffd');
      expect(Buffer.byteLength(head)).toBeLessThanOrEqual(MODEL_STDOUT_BYTES);
      expect(Buffer.byteLength(head)).toBeGreaterThan(MODEL_STDOUT_BYTES - 4);
      expect(text.startsWith(head)).toBe(true);
    }
  });

  it('honours a smaller budget', () => {
    expect(truncateForModel('hello world', 5).text).toBe('hello\n… [TRUNCATED, total=11 bytes, 1 lines]');
  });
});
