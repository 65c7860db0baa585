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
