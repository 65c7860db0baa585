import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyScanCache, readScanCache, readScanCacheStamps, writeScanCache, type ScanCache } from './scan-cache.js';
import type { ScanJsonlResult } from './scan-jsonl.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-scan-cache-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const MAX = 1000;
const result = (note: string): ScanJsonlResult => ({ session: null, skipped: 'too_large', warnings: [{ code: 'too_large', file: note, detail: 'line\nbreak "quoted"' }] });

function sample(): ScanCache {
  const cache = emptyScanCache(MAX);
  cache.entries['/p/a.jsonl'] = { size: 10, mtimeMs: 1.5, result: result('a') };
  cache.entries['/p/项目 b.jsonl'] = { size: 20, mtimeMs: 2, result: result('b') };
  return cache;
}

describe('scan cache', () => {
  it('reads back what it wrote, and the stamps alone from the first line', async () => {
    const file = path.join(dir, 'round.json');
    await writeScanCache(file, sample());
    expect(readScanCache(file, MAX)).toEqual(sample());
    expect(readScanCacheStamps(file, MAX)).toMatchObject({ files: ['/p/a.jsonl', '/p/项目 b.jsonl'], sizes: [10, 20], mtimes: [1.5, 2] });
    expect(fs.readFileSync(file, 'utf8').split('\n')).toHaveLength(3); // header, summaries, final newline
  });

  it('gives the stamps without parsing the summaries, which may be unusable', async () => {
    const file = path.join(dir, 'torn.json');
    await writeScanCache(file, sample());
    const [header] = fs.readFileSync(file, 'utf8').split('\n');
    fs.writeFileSync(file, `${header}\n{"/p/a.jsonl": tor`);
    expect(readScanCacheStamps(file, MAX)?.files).toHaveLength(2);
    expect(readScanCache(file, MAX)).toEqual(emptyScanCache(MAX));
  });

  it('treats a missing, empty, old-format or other-settings cache as none', async () => {
    const file = path.join(dir, 'other.json');
    expect(readScanCacheStamps(file, MAX)).toBeNull();
    expect(readScanCache(file, MAX)).toEqual(emptyScanCache(MAX));
    for (const text of ['', 'garbage\n', `${JSON.stringify({ scannerVersion: 1, maxFileSize: MAX, entries: {} })}`, '{"format":2,"scannerVersion":1,"maxFileSize":1000,"files":["/x"],"sizes":[1],"mtimes":[]}\n{}\n']) {
      fs.writeFileSync(file, text);
      expect(readScanCacheStamps(file, MAX)).toBeNull();
      expect(readScanCache(file, MAX)).toEqual(emptyScanCache(MAX));
    }
    await writeScanCache(file, sample());
    expect(readScanCacheStamps(file, MAX + 1)).toBeNull();
    expect(readScanCache(file, MAX + 1)).toEqual(emptyScanCache(MAX + 1));
  });
});
