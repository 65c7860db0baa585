import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../test/fakes/bridge-harness.js';
import type { CardReply } from './reply-model.js';

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

const S1 = 'aaaaaaaa-0000-4000-8000-000000000001';

async function until(predicate: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i += 1) {
    if (await predicate()) return;
    await sleep(5);
  }
  throw new Error('condition not reached');
}

describe('/stop racing the end of the run', () => {
  it('a stop accepted while the engine was already returning its answer still ends the card "Stopped"', async () => {
    h = await bridgeHarness();
    await h.mapping.setSession(OWNER, { sessionUuid: S1, cwd: path.join(h.home, 'Git/alpha') });
    // The engine's child exits with its whole answer while the stop is being saved (before its
    // abort): the abort can no longer cancel anything and the run returns the answer.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    h.engine.onSend = async (req) => {
      if (req.prompt === 'quick task') await released;
    };
    let returned = false;
    const send = h.engine.send.bind(h.engine);
    h.engine.send = async (...args) => send(...args).finally(() => (returned = true));
    const write = h.spool.write.bind(h.spool);
    // The stop's write is queued at once (as in the bridge, before any await), and the abort
    // after it waits until the engine has returned its answer.
    h.spool.write = async (state, record, opts) => {
      const written = write(state, record, opts);
      if (opts?.durable === false && record.stop) {
        release();
        await until(() => returned);
      }
      return written;
    };
    const m = h.msg('quick task');
    await h.bridge.accept(m);
    await until(() => h.engine.requests.length === 1);
    await h.bridge.accept(h.msg('/stop'));
    await h.bridge.whenIdle();
    expect(h.channel.transcript()).toContain('⏹ 已停止当前会话正在运行的消息。');
    const card = h.channel.messages[0]?.finished as CardReply | undefined;
    // The user was told it stopped: the card says so (with what Claude wrote), no answer card.
    expect(card).toMatchObject({ status: 'stopped', title: '⏹ 已停止' });
    expect(card?.sections.map((s) => ('text' in s ? s.text : '')).join('\n')).toContain('echo: quick task');
    expect(await h.spool.locate(m.id)).toBe('cancelled');
  });

  it('a turn that ends while /stop looks up the current session is not stopped', async () => {
    h = await bridgeHarness();
    await h.mapping.setSession(OWNER, { sessionUuid: S1, cwd: path.join(h.home, 'Git/alpha') });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    h.engine.onSend = async () => {
      await released;
    };
    const m = h.msg('quick task');
    // Hold /stop's mapping look-up (the one made from turn-control) until the run has ended.
    const get = h.mapping.get.bind(h.mapping);
    let held = false;
    h.mapping.get = async (userId) => {
      if (!held && new Error().stack?.includes('turn-control')) {
        held = true;
        release();
        await until(async () => (await h.spool.locate(m.id)) === 'done');
      }
      return get(userId);
    };
    await h.bridge.accept(m);
    await until(() => h.engine.requests.length === 1);
    await h.bridge.accept(h.msg('/stop'));
    await h.bridge.whenIdle();
    expect(held).toBe(true);
    expect(h.channel.transcript()).toContain('当前会话没有正在运行的消息。');
    expect(h.channel.messages[0]?.finished).toMatchObject({ status: 'complete' });
    expect(await h.spool.locate(m.id)).toBe('done');
  });
});
