import { describe, expect, it } from 'vitest';
import { createProgressBar } from './progress-bar.js';

describe('createProgressBar', () => {
  it('redraws one line in place and clears it at the end', () => {
    const writes: string[] = [];
    const bar = createProgressBar((s) => writes.push(s), 10);
    bar.update({ filesDone: 0, filesTotal: 4, bytesDone: 0, bytesTotal: 4 * 1024 * 1024 });
    bar.update({ filesDone: 4, filesTotal: 4, bytesDone: 4 * 1024 * 1024, bytesTotal: 4 * 1024 * 1024 });
    bar.done();
    expect(writes).toEqual([
      '\r[░░░░░░░░░░] 0/4 files · 0 B/4.0 MB',
      '\r[██████████] 4/4 files · 4.0 MB/4.0 MB',
      '\r\x1b[2K',
    ]);
  });
});
