import { describe, expect, it } from 'vitest';
import { sanitizeFileName } from './sanitize-file-name.js';

describe('sanitizeFileName', () => {
  it('keeps an ordinary name as it is, Unicode included', () => {
    expect(sanitizeFileName('report.pdf')).toBe('report.pdf');
    expect(sanitizeFileName('季度报告 v2.xlsx')).toBe('季度报告 v2.xlsx');
  });

  it('makes hostile names one plain file name: no separators, no .., no control characters, no leading dot', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(sanitizeFileName('a/b')).toBe('a_b');
    expect(sanitizeFileName('a\\b')).toBe('a_b');
    expect(sanitizeFileName('x\u0000y\n.txt')).toBe('x_y_.txt');
    expect(sanitizeFileName('.bashrc')).toBe('bashrc');
    expect(sanitizeFileName('..')).toBe('file');
    expect(sanitizeFileName('')).toBe('file');
    for (const hostile of ['../../etc/passwd', 'a/b', '\u0000', '..', '/', '.']) {
      const out = sanitizeFileName(hostile);
      expect(out).not.toMatch(/[/\\\u0000]/);
      expect(out.startsWith('.')).toBe(false);
    }
  });

  it('caps the length in UTF-8 bytes and keeps the extension', () => {
    const out = sanitizeFileName(`${'文'.repeat(200)}.pdf`);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(200);
    expect(out.endsWith('.pdf')).toBe(true);
  });

  it('numbers a name already taken', () => {
    expect(sanitizeFileName('a.pdf', new Set(['a.pdf']))).toBe('a (2).pdf');
    expect(sanitizeFileName('a.pdf', new Set(['a.pdf', 'a (2).pdf']))).toBe('a (3).pdf');
    expect(sanitizeFileName('notes', new Set(['notes']))).toBe('notes (2)');
  });
});
