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

  // Found by `npm run chaos -- --channel telegram --telegram-mode webhook`: the first attempt's
  // stream, left open when the outcome write failed, re-tried a failed edit 3 s later — over the
  // final card the retry had shown (the user saw "⏳ … Stop" for an answered message).
  it('abandons the stream of the failed attempt; the retry finishes a re-opened one', async () => {
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
    const streams: Array<{ abandoned: number; finished: number }> = [];
    const openStream = h.channel.outbox.openStream.bind(h.channel.outbox);
    h.channel.outbox.openStream = async (target, key, options) => {
      const stream = await openStream(target, key, options);
      const seen = { abandoned: 0, finished: 0 };
      streams.push(seen);
      const wrapped: ReplyStream = {
        messageId: stream.messageId,
        update: (s) => stream.update(s),
        finish: async (final, fullText) => {
          seen.finished += 1;
          return stream.finish(final, fullText);
        },
        abandon: async () => {
          seen.abandoned += 1;
          await stream.abandon?.();
        },
      };
      return wrapped;
    };
    const message = h.msg(`/new ${path.join(h.home, 'Git/alpha')} -- question`);
    full.failOutcomeWrites = 2;

    await h.bridge.accept(message);
    await h.bridge.whenIdle();

    expect(streams).toEqual([
      { abandoned: 1, finished: 0 },
      { abandoned: 0, finished: 1 },
    ]);
    expect((await full.read('done', message.id))?.outcome?.kind).toBe('engine');
  });
});
