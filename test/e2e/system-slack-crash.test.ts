// Crash safety over Slack: the whole system in a child process (fixtures/system-feishu-child.ts,
// `assembleDaemon` as `cc-linker start` runs it, Slack enabled beside Feishu) is SIGKILLed in the
// middle of a streamed answer, then started again. The answer must finish in the same Slack
// message — nothing lost, nothing sent twice — and Slack re-sending the event changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Spool } from '../../src/bridge/spool/spool.js';
import { startFakeSlack } from '../fakes/fake-slack/fake-slack-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, sessionFiles } from './system-harness.js';
import { OWNER } from './slack-harness.js';
import { crashRig } from './crash-rig.js';
import { until } from './telegram-harness.js';

describe.skipIf(!CLAUDE_BIN)('crash and restart over Slack', () => {
  const rig = crashRig();

  it(
    'SIGKILL mid-stream: after a restart the same message finishes the answer, one reply, the re-sent event dropped',
    async () => {
      const sl = await startFakeSlack();
      rig.undo(() => sl.close());
      const { sys, config } = await rig.system();
      config.slack = {
        enabled: true,
        bot_token: sl.botToken,
        app_token: sl.appToken,
        owner_user_id: OWNER,
        allow_auto_bind_owner: false,
        api_url: sl.apiUrl,
      };
      config.stream.throttle_ms = 100;
      const specFile = rig.spec(sys, config, () => sl.messages);
      const cwd = sys.project('sl-crash');
      const spool = new Spool(config.queue.spool_dir);

      // Life 1: the answer streams into one message — and the process dies half way.
      const first = rig.start(specFile, sys);
      await first.ready;
      const pushed = sl.pushMessage(OWNER, `/new ${cwd} -- slow: 150`);
      const id = `slack:${pushed.event.channel}:${pushed.event.ts}`;
      const reply = () => sl.inChannel(pushed.event.channel).filter((m) => m.visible.includes('tick0'));
      await until(() => reply().some((m) => m.visible.includes('tick03')), 'the answer half streamed', 45_000);
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(await spool.locate(id)).toBe('processing');
      const before = reply();
      expect(before).toHaveLength(1);
      expect(before[0]?.visible).not.toContain('tick19');

      // Life 2: recovery resumes the turn into the same message; Slack sends the event again.
      const second = rig.start(specFile, sys);
      await second.ready;
      const again = sl.redeliver(pushed);
      await until(() => fs.existsSync(spool.pathOf('done', id)), 'the message done', 45_000);
      await until(() => sl.hub.acks.has(again.envelope_id), 'the re-sent event acked');
      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });

      const after = reply();
      expect(after).toHaveLength(1);
      expect(after[0]?.ts).toBe(before[0]?.ts);
      expect(after[0]?.visible).toContain('tick19');
      expect(after[0]?.visible.startsWith('*✅')).toBe(true); // the final card's bold title, not the heartbeat
      expect(after[0]?.buttons).toEqual([]);
      expect(sessionFiles(sys, cwd)).toHaveLength(1);
      expect(await waitNoLeftovers(sys.home, 5_000)).toEqual([]);
      const logs = fs.readdirSync(sys.root).filter((n) => n.startsWith('child-'));
      for (const f of logs) {
        const text = fs.readFileSync(path.join(sys.root, f), 'utf8');
        expect(text).not.toContain(sl.botToken);
        expect(text).not.toContain(sl.appToken);
      }
    },
    2 * CASE_TIMEOUT_MS,
  );
});
