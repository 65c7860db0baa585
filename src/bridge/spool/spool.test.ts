import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, type BridgeHarness } from '../../../test/fakes/bridge-harness.js';

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

describe('Spool.enqueue: a message is accepted whole or not at all', () => {
  // Found by `npm run chaos` on a nearly full spool disk: the message file was written, its
  // receipt was not, accept() failed (Feishu re-pushes), and the re-push was taken for a duplicate
  // of the message lying in pending/ — which no dispatcher knew about until the next restart.
  it('rolls back the message file when its receipt cannot be written, so the re-push is accepted and answered', async () => {
    h = await bridgeHarness();
    const message = h.msg(`/new ${path.join(h.home, 'Git/alpha')} -- question`);
    const receipts = path.dirname(h.spool.pathOf('receipts', message.id));
    // A file where the receipts directory should be: the message file can be written, its receipt cannot.
    await fs.rm(receipts, { recursive: true });
    await fs.writeFile(receipts, '');

    await expect(h.bridge.accept(message)).rejects.toThrow();
    expect(await h.spool.locate(message.id)).toBeNull();

    await fs.rm(receipts);
    await fs.mkdir(receipts);
    expect(await h.bridge.accept(message)).toEqual({ status: 'accepted' });
    await h.bridge.whenIdle();
    expect(h.engine.requests).toHaveLength(1);
    expect(await h.spool.count('done')).toBe(1);
  });
});

describe('Spool.list: arrival order', () => {
  it('orders by the accept sequence even when the clock jumped back between two messages', async () => {
    h = await bridgeHarness();
    await h.bridge.stop(0);
    const at = (iso: string, n: number, text: string) => ({
      schema: 1 as const,
      message: h.msg(text),
      acceptedAt: iso,
      seq: n,
      attempts: 0,
    });
    await h.spool.enqueue(at('2026-05-05T10:00:05.000Z', 1, '/switch bbbb'));
    await h.spool.enqueue(at('2026-05-05T10:00:01.000Z', 2, 'after the switch'));
    const { records } = await h.spool.list('pending');
    expect(records.map((r) => r.message.text)).toEqual(['/switch bbbb', 'after the switch']);
  });
});

describe("Spool.write and move: one message's steps land in the order they were asked for", () => {
  // A stop saves its record without waiting for the disk while the run saves its outcome durably:
  // the later write must win, and no write may recreate a file a later move took away.
  it('a fast write asked for after a slow one is the one left, and a move waits for the writes before it', async () => {
    h = await bridgeHarness();
    await h.bridge.stop(0);
    const record = {
      schema: 1 as const,
      message: h.msg('question'),
      acceptedAt: new Date().toISOString(),
      seq: 1,
      attempts: 0,
    };
    await h.spool.enqueue(record);
    await h.spool.move(record.message.id, 'pending', 'processing');
    for (let round = 0; round < 20; round += 1) {
      const durable = h.spool.write('processing', { ...record, attempts: 2 * round + 1 });
      const quick = h.spool.write('processing', { ...record, attempts: 2 * round + 2 }, { durable: false });
      await Promise.all([durable, quick]);
      expect((await h.spool.read('processing', record.message.id))?.attempts).toBe(2 * round + 2);
    }
    const last = h.spool.write('processing', { ...record, attempts: 99 }, { durable: false });
    const moved = h.spool.move(record.message.id, 'processing', 'cancelled');
    await Promise.all([last, moved]);
    expect(await h.spool.locate(record.message.id)).toBe('cancelled');
    expect((await h.spool.read('cancelled', record.message.id))?.attempts).toBe(99);
    await expect(fs.access(h.spool.pathOf('processing', record.message.id))).rejects.toThrow();
  });
});
