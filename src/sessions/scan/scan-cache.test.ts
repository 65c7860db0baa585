import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyScanCache, readScanCache, readScanCacheStamps, writeScanCache, type ScanCache } from './scan-cache.js';
import type { ScanJsonlResult } from './scan-jsonl.js';
import type { ScannedSession } from './scanned-session.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-scan-cache-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const MAX = 1000;
const skipped: ScanJsonlResult = { session: null, skipped: 'too_large', warnings: [] };

function session(file: string, size: number, mtimeMs: number, fields: Partial<ScannedSession> = {}): ScanJsonlResult {
  const base: ScannedSession = {
    sessionId: path.basename(file, '.jsonl'),
    jsonlPath: file,
    projectDir: path.basename(path.dirname(file)),
    cwd: '/home/我/app',
    title: null,
    firstPrompt: 'line\nbreak "quoted" 为什么',
    messageCount: 7,
    lastMessagePreview: 'done …',
    lastUserPreview: 'why?',
    lastAssistantPreview: 'done …',
    createdAt: '2026-05-05T10:00:00.000Z',
    lastActive: '2026-05-05T11:00:00.000Z',
    model: 'claude-sonnet-4-5',
    size,
    mtimeMs,
    health: 'ok',
    problem: null,
  };
  return { session: { ...base, ...fields }, skipped: null, warnings: [] };
}

function sample(): ScanCache {
  const cache = emptyScanCache(MAX);
  cache.entries['/p/-home-app/a.jsonl'] = { size: 10, mtimeMs: 1.5, result: session('/p/-home-app/a.jsonl', 10, 1.5) };
  cache.entries['/p/项目 b/b.jsonl'] = { size: 20, mtimeMs: 2, result: skipped };
  cache.entries['/elsewhere/c.jsonl'] = {
    size: 30,
    mtimeMs: 3,
    result: session('/elsewhere/c.jsonl', 30, 3, {
      cwd: null,
      title: 'T',
      model: null,
      createdAt: null,
      lastActive: null,
      health: 'corrupted',
      problem: 'not JSONL',
    }),
  };
  return cache;
}

describe('scan cache', () => {
  it('reads back what it wrote, and the stamps alone from the first line', async () => {
    const file = path.join(dir, 'round.json');
    await writeScanCache(file, sample());
    expect(readScanCache(file, MAX)).toEqual(sample());
    expect(readScanCacheStamps(file, MAX)).toMatchObject({
      files: ['/elsewhere/c.jsonl', '/p/-home-app/a.jsonl', '/p/项目 b/b.jsonl'],
      sizes: [30, 10, 20],
      mtimes: [3, 1.5, 2],
    });
    expect(fs.readFileSync(file, 'utf8').split('\n')).toHaveLength(3); // header, summaries, final newline
  });

  it('gives the stamps without parsing the summaries, which may be unusable', async () => {
    const file = path.join(dir, 'torn.json');
    await writeScanCache(file, sample());
    const [header] = fs.readFileSync(file, 'utf8').split('\n');
    fs.writeFileSync(file, `${header}\n[["/home", tor`);
    expect(readScanCacheStamps(file, MAX)?.files).toHaveLength(3);
    expect(readScanCache(file, MAX)).toEqual(emptyScanCache(MAX));
  });

  it('treats a missing, empty, old-format or other-settings cache as none', async () => {
    const file = path.join(dir, 'other.json');
    expect(readScanCacheStamps(file, MAX)).toBeNull();
    expect(readScanCache(file, MAX)).toEqual(emptyScanCache(MAX));
    for (const text of [
      '',
      'garbage\n',
      `${JSON.stringify({ scannerVersion: 1, maxFileSize: MAX, entries: {} })}`,
      '{"format":3,"scannerVersion":1,"maxFileSize":1000,"files":["/x"],"sizes":[1],"mtimes":[]}\n[]\n',
      '{"format":2,"scannerVersion":1,"maxFileSize":1000,"files":["/x"],"sizes":[1],"mtimes":[1]}\n{"/x":{"session":null,"skipped":"too_large","warnings":[]}}\n',
      // written by an older scanner, whose summaries may be wrong (a file spelled with spaces)
      `{"format":3,"scannerVersion":1,"maxFileSize":${MAX},"files":["/x"],"sizes":[1],"mtimes":[1]}\n["too_large"]\n`,
    ]) {
      fs.writeFileSync(file, text);
      expect(readScanCacheStamps(file, MAX)).toBeNull();
      expect(readScanCache(file, MAX)).toEqual(emptyScanCache(MAX));
    }
    await writeScanCache(file, sample());
    expect(readScanCacheStamps(file, MAX + 1)).toBeNull();
    expect(readScanCache(file, MAX + 1)).toEqual(emptyScanCache(MAX + 1));
  });

  it('does not keep warnings (they are shown when a file is read)', async () => {
    const file = path.join(dir, 'warned.json');
    const cache = emptyScanCache(MAX);
    cache.entries['/p/x/w.jsonl'] = {
      size: 1,
      mtimeMs: 1,
      result: {
        ...session('/p/x/w.jsonl', 1, 1),
        warnings: [{ code: 'invalid_lines', file: '/p/x/w.jsonl', detail: 2 }],
      },
    };
    await writeScanCache(file, cache);
    expect(readScanCache(file, MAX).entries['/p/x/w.jsonl']?.result).toEqual(session('/p/x/w.jsonl', 1, 1));
  });

  it('drops only the rows it cannot read: those files are scanned again', async () => {
    const file = path.join(dir, 'rows.json');
    await writeScanCache(file, sample());
    const [header, rows] = fs.readFileSync(file, 'utf8').split('\n');
    const parsed = JSON.parse(rows as string) as unknown[];
    for (const bad of [
      ['short'],
      null,
      'sideways',
      [...(parsed[1] as unknown[]).slice(0, 3), '7', ...(parsed[1] as unknown[]).slice(4)],
    ]) {
      fs.writeFileSync(file, `${header}\n${JSON.stringify([parsed[0], bad, parsed[2]])}\n`);
      const read = readScanCache(file, MAX);
      expect(Object.keys(read.entries).sort()).toEqual(['/elsewhere/c.jsonl', '/p/项目 b/b.jsonl']);
      expect(read.entries['/elsewhere/c.jsonl']).toEqual(sample().entries['/elsewhere/c.jsonl']);
    }
  });
});
