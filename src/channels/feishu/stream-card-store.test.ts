import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { CARD_MAX_AGE_MS, StreamCardStore } from './stream-card-store.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cc-linker-cards-'));
  file = path.join(dir, 'runtime', 'feishu-stream-cards.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('StreamCardStore', () => {
  it('persists records (0600 file in a 0700 dir) and finds them by key, card and message in a new instance', async () => {
    await new StreamCardStore(file, silentLogger).save({
      key: 'k1',
      cardId: 'c1',
      messageId: 'om_1',
      createdAt: 1_000,
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);

    const again = new StreamCardStore(file, silentLogger, () => 2_000);
    expect(await again.byKey('k1')).toEqual({ key: 'k1', cardId: 'c1', messageId: 'om_1', createdAt: 1_000 });
    expect((await again.byMessageId('om_1'))?.cardId).toBe('c1');
    expect((await again.byCardId('c1'))?.key).toBe('k1');
    expect(await again.byKey('nope')).toBeUndefined();
  });

  it('replaces the record of a key and forgets records older than 14 days', async () => {
    let now = 0;
    const store = new StreamCardStore(file, silentLogger, () => now);
    await store.save({ key: 'old', cardId: 'c0', createdAt: 0 });
    await store.save({ key: 'k', cardId: 'c1', createdAt: 0 });
    await store.save({ key: 'k', cardId: 'c1', messageId: 'om_1', createdAt: 0 });
    now = CARD_MAX_AGE_MS + 1;
    await store.save({ key: 'new', cardId: 'c2', createdAt: now });
    const saved = JSON.parse(await readFile(file, 'utf8')) as { cards: Array<{ key: string }> };
    expect(saved.cards.map((c) => c.key)).toEqual(['new']);
  });

  it('starts empty on a corrupt file and works in memory without one', async () => {
    await new StreamCardStore(file, silentLogger).save({ key: 'k', cardId: 'c', createdAt: 0 });
    await writeFile(file, '{not json');
    expect(await new StreamCardStore(file, silentLogger).byKey('k')).toBeUndefined();
    const memory = new StreamCardStore(undefined, silentLogger);
    await memory.save({ key: 'k', cardId: 'c', createdAt: 0 });
    expect((await memory.byKey('k'))?.cardId).toBe('c');
  });

  it('hands out strictly increasing sequences that a restarted process continues above', () => {
    let now = 10_000;
    const record = { key: 'k', cardId: 'c', createdAt: 10_000 };
    const a = new StreamCardStore(undefined, silentLogger, () => now);
    const first = [a.nextSequence(record), a.nextSequence(record), a.nextSequence(record)];
    expect(first).toEqual([1, 2, 3]);
    now += 150;
    const later = a.nextSequence(record);
    expect(later).toBeGreaterThan(3);
    now += 1_000; // restart: a new process knows only the record
    const b = new StreamCardStore(undefined, silentLogger, () => now);
    expect(b.nextSequence(record)).toBeGreaterThan(later);
  });
});

describe('StreamCardStore.resume', () => {
  it('keeps sequence numbers above the previous process even after the clock went back', async () => {
    const { StreamCardStore: Store } = await import('./stream-card-store.js');
    const { silentLogger } = await import('../../core/logger.js');
    let now = 1_000_000;
    const first = new Store(undefined, silentLogger, () => now);
    const record = { key: 'k', cardId: 'c1', messageId: 'om_1', createdAt: now };
    await first.save(record);
    now += 60_000;
    const used = first.nextSequence(record);
    // A restart after the wall clock was stepped back two hours.
    now -= 2 * 3_600_000;
    const second = new Store(undefined, silentLogger, () => now);
    const resumed = await second.resume(record);
    const next = second.nextSequence(resumed);
    expect(next).toBeGreaterThan(used);
    expect(second.nextSequence(resumed)).toBe(next + 1);
  });
});
