import { describe, expect, it } from 'vitest';
import { sniffMime } from './sniff-mime.js';

/** A zip whose first entry is `name` (local file header, enough for sniffing). */
function zipWith(name: string): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, Buffer.from(name)]);
}

describe('sniffMime', () => {
  it('reads the type from the bytes', () => {
    expect(sniffMime(Buffer.from('%PDF-1.7\n%âãÏÓ'))).toBe('application/pdf');
    expect(sniffMime(zipWith('word/document.xml'))).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(sniffMime(zipWith('xl/workbook.xml'))).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(sniffMime(zipWith('src/main.c'))).toBe('application/zip');
    expect(sniffMime(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffMime(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(sniffMime(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffMime(Buffer.from([0x1f, 0x8b, 0x08, 0]))).toBe('application/gzip');
  });

  it('calls UTF-8 text text, even with a character cut at the end of the sample', () => {
    expect(sniffMime(Buffer.from('hello\n\tworld\r\n'))).toBe('text/plain; charset=utf-8');
    const cut = Buffer.from('中文');
    expect(sniffMime(cut.subarray(0, cut.length - 1))).toBe('text/plain; charset=utf-8');
  });

  it('never trusts a name: binary or empty is octet-stream', () => {
    expect(sniffMime(Buffer.from([0, 1, 2, 3, 0xfe]))).toBe('application/octet-stream');
    expect(sniffMime(Buffer.from('MZ\x90\x00\x03\x00', 'latin1'))).toBe('application/octet-stream');
    expect(sniffMime(Buffer.alloc(0))).toBe('application/octet-stream');
  });
});
