import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, type BridgeHarness } from '../../../test/fakes/bridge-harness.js';
import type { ReplyStream } from '../channel.js';
import type { SpoolRecord, SpoolState } from '../spool/spool-record.js';
import { Spool } from '../spool/spool.js';

/** A spool whose disk is full for the next `failOutcomeWrites` writes of a record that carries an outcome. */
class FullDiskSpool extends Spool {
  failOutcomeWrites = 0;

  override async write(state: SpoolState, record: SpoolRecord): Promise<void> {
    if (record.outcome && this.failOutcomeWrites > 0) {
      this.failOutcomeWrites -= 1;
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    }
    return super.write(state, record);
  }
}

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

describe('processMessage: the outcome is on disk before the answer is shown', () => {
  // Found by `npm run chaos`: the write that persists the outcome failed (spool disk
  // full), the retry delivered the in-memory outcome without persisting it, the bridge was
  // SIGKILLed, and the restart ran Claude again for an answer the user already had.
  it('persists the outcome again on the retry after a failed write, before delivering', async () => {
    let spool: FullDiskSpool | undefined;
    h = await bridgeHarness({
      configure: (c) => {
        spool = new FullDiskSpool(c.queue.spool_dir);
      },
      bridge: {
        get spool() {
          return spool as FullDiskSpool;
        },
      },
    });
    const full = spool as FullDiskSpool;
    const outcomeOnDiskAtFinish: Array<boolean> = [];
    const openStream = h.channel.outbox.openStream.bind(h.channel.outbox);
    h.channel.outbox.openStream = async (target, key, options) => {
      const stream = await openStream(target, key, options);
      const wrapped: ReplyStream = {
        messageId: stream.messageId,
        update: (s) => stream.update(s),
        finish: async (final, fullText) => {
          const onDisk = await full.read('processing', message.id);
          outcomeOnDiskAtFinish.push(onDisk?.outcome !== undefined);
          return stream.finish(final, fullText);
        },
      };
      return wrapped;
    };
    const message = h.msg(`/new ${path.join(h.home, 'Git/alpha')} -- question`);
    // The disk stays full for the outcome write and for the error boundary's own write of the attempt count.
    full.failOutcomeWrites = 2;

    await h.bridge.accept(message);
    await h.bridge.whenIdle();

    expect(h.engine.requests).toHaveLength(1);
    expect(outcomeOnDiskAtFinish).toEqual([true]);
    expect((await full.read('done', message.id))?.outcome?.kind).toBe('engine');
  });
});
