import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/default-config.js';
import { applyRetention } from './retention.js';

let dir: string;
const NOW = Date.parse('2026-05-05T12:00:00Z');
const HOUR = 3_600_000;

async function put(sub: string, name: string, ageMs: number): Promise<void> {
  const file = path.join(dir, sub, name);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, '{}');
  const t = new Date(NOW - ageMs);
  await fs.utimes(file, t, t);
}
const names = async (sub: string) => (await fs.readdir(path.join(dir, sub))).sort();

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-retention-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe('applyRetention', () => {
  it('removes by age first, then oldest-first down to the cap, and never touches live states', async () => {
    const q = { ...defaultConfig().queue, done_max_files: 2 };
    await put('done', 'old.json', 25 * HOUR);
    for (const [i, age] of [1, 2, 3].entries()) await put('done', `d${i}.json`, age * HOUR);
    await put('failed', 'f-old.json', 8 * 24 * HOUR);
    await put('failed', 'f-new.json', 6 * 24 * HOUR);
    await put('receipts', 'r-old.json', 8 * 24 * HOUR);
    await put('receipts', 'r-new.json', HOUR);
    await put('deliveries', 'x-old.json', 8 * 24 * HOUR);
    await put('pending', 'p.json', 30 * 24 * HOUR);
    await put('processing', 'q.json', 30 * 24 * HOUR);
    const report = await applyRetention(dir, q, NOW);
    expect(report).toEqual({ done: 2, failed: 1, receipts: 1, deliveries: 1 });
    expect(await names('done')).toEqual(['d0.json', 'd1.json']);
    expect(await names('failed')).toEqual(['f-new.json']);
    expect(await names('receipts')).toEqual(['r-new.json']);
    expect(await names('pending')).toEqual(['p.json']);
    expect(await names('processing')).toEqual(['q.json']);
  });

  it('does nothing when the spool does not exist yet', async () => {
    expect(await applyRetention(path.join(dir, 'missing'), defaultConfig().queue, NOW)).toEqual({
      done: 0,
      failed: 0,
      receipts: 0,
      deliveries: 0,
    });
  });
});
