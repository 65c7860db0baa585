// Crash safety over Telegram: the whole system in a child process (fixtures/system-feishu-child.ts,
// `assembleDaemon` as `cc-linker start` runs it, Telegram enabled beside Feishu) is SIGKILLed in the
// middle of a streamed answer, then started again. The answer must finish in the same Telegram
// message — nothing lost, nothing sent twice — and Telegram re-delivering the update changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Spool } from '../../src/bridge/spool/spool.js';
import { startFakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, sessionFiles } from './system-harness.js';
import { crashRig } from './crash-rig.js';
import { until } from './telegram-harness.js';

const OWNER_ID = 5150;

describe.skipIf(!CLAUDE_BIN)('crash and restart over Telegram', () => {
  const rig = crashRig();

  it(
    'SIGKILL mid-stream: after a restart the same message finishes the answer, one reply, the re-delivered update dropped',
    async () => {
      const tg = await startFakeTelegram();
      rig.undo(() => tg.close());
      const { sys, config } = await rig.system();
      config.telegram = {
        ...config.telegram,
        enabled: true,
        bot_token: tg.token,
        owner_user_id: String(OWNER_ID),
        allow_auto_bind_owner: false,
        api_root: tg.apiRoot,
      };
      config.stream.throttle_ms = 100;
      const specFile = rig.spec(sys, config, () => tg.messages);
      const cwd = sys.project('tg-crash');
      const spool = new Spool(config.queue.spool_dir);

      // Life 1: the answer streams into one message — and the process dies half way.
      const first = rig.start(specFile, sys);
      await first.ready;
      const update = tg.pushMessage(OWNER_ID, `/new ${cwd} -- slow: 150`);
      const mid = (update.message as { message_id: number }).message_id;
      const id = `telegram:${OWNER_ID}:${mid}`;
      const reply = () => tg.messages.filter((m) => m.reply_to === mid);
      await until(() => reply().some((m) => m.visible.includes('tick03')), 'the answer half streamed', 45_000);
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(await spool.locate(id)).toBe('processing');
      const before = reply();
      expect(before).toHaveLength(1);
      expect(before[0]?.visible).not.toContain('tick19');

      // Life 2: recovery resumes the turn into the same message; Telegram delivers the update again.
      const second = rig.start(specFile, sys);
      await second.ready;
      tg.redeliver(update);
      await until(() => fs.existsSync(spool.pathOf('done', id)), 'the message done', 45_000);
      await until(() => tg.pending() === 0, 'the re-delivery confirmed');
      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });

      const after = reply();
      expect(after).toHaveLength(1);
      expect(after[0]?.message_id).toBe(before[0]?.message_id);
      expect(after[0]?.visible).toContain('tick19');
      expect(after[0]?.visible.startsWith('✅')).toBe(true); // the final card, not the heartbeat
      expect(after[0]?.reply_markup).toBeUndefined();
      expect(sessionFiles(sys, cwd)).toHaveLength(1);
      expect(await waitNoLeftovers(sys.home, 5_000)).toEqual([]);
      const logs = fs.readdirSync(sys.root).filter((n) => n.startsWith('child-'));
      for (const f of logs) expect(fs.readFileSync(path.join(sys.root, f), 'utf8')).not.toContain(tg.token);
    },
    2 * CASE_TIMEOUT_MS,
  );
});
