// Crash safety over Telegram: the whole system in a child process (fixtures/system-feishu-child.ts,
// `assembleDaemon` as `cc-linker start` runs it, Telegram enabled beside Feishu) is SIGKILLed in the
// middle of a streamed answer, then started again. The answer must finish in the same Telegram
// message — nothing lost, nothing sent twice — and Telegram re-delivering the update changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { Spool } from '../../src/bridge/spool/spool.js';
import { startFakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { startFakeFeishuServer } from '../fakes/fake-feishu/fake-feishu-server.js';
import { startFakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  newAppId,
  sessionFiles,
  startChild,
  systemConfig,
  systemRoot,
  type ChildLife,
} from './system-harness.js';
import { until } from './telegram-harness.js';

const OWNER_ID = 5150;

describe.skipIf(!CLAUDE_BIN)('crash and restart over Telegram', () => {
  const lives: ChildLife[] = [];
  const undo: Array<() => unknown> = [];
  afterEach(async () => {
    for (const life of lives)
      if (life.child.exitCode === null && life.child.signalCode === null) life.child.kill('SIGKILL');
    for (const step of undo.reverse()) await step();
    lives.length = 0;
    undo.length = 0;
  }, CASE_TIMEOUT_MS);

  it(
    'SIGKILL mid-stream: after a restart the same message finishes the answer, one reply, the re-delivered update dropped',
    async () => {
      const anth = await startFakeAnthropic();
      undo.push(() => anth.close());
      const feishu = await startFakeFeishuServer();
      undo.push(() => feishu.close());
      const tg = await startFakeTelegram();
      undo.push(() => tg.close());
      const sys = systemRoot(anth.url);
      undo.push(() => sys.cleanup());
      const config = systemConfig({
        sys,
        mode: 'sdk',
        feishu: { baseUrl: feishu.baseUrl, appSecret: feishu.appSecret, appId: newAppId() },
      });
      config.telegram = {
        enabled: true,
        bot_token: tg.token,
        owner_user_id: String(OWNER_ID),
        allow_auto_bind_owner: false,
        api_root: tg.apiRoot,
      };
      config.stream.throttle_ms = 100;
      const specFile = path.join(sys.root, 'spec.json');
      fs.writeFileSync(specFile, JSON.stringify({ config, env: sys.env, crashOnFinalUpdate: false }));
      onTestFailed(() => {
        console.error(JSON.stringify(tg.messages, null, 1));
        if (!fs.existsSync(sys.root)) return;
        for (const f of fs.readdirSync(sys.root).filter((n) => n.startsWith('child-'))) {
          const lines = fs
            .readFileSync(path.join(sys.root, f), 'utf8')
            .split('\n')
            .filter((l) => /"level":"(warn|error)"/.test(l));
          console.error(`--- ${f} (warn/error) ---\n${lines.slice(-30).join('\n')}`);
        }
      });
      const cwd = sys.project('tg-crash');
      const spool = new Spool(config.queue.spool_dir);

      // Life 1: the answer streams into one message — and the process dies half way.
      const first = startChild(specFile, sys);
      lives.push(first);
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
      const second = startChild(specFile, sys);
      lives.push(second);
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
