// Crash safety over DingTalk: the whole system in a child process (fixtures/system-feishu-child.ts,
// `assembleDaemon` as `cc-linker start` runs it, DingTalk enabled beside Feishu) is SIGKILLed in
// the middle of an answer, then started again. The answer must arrive once — nothing lost, nothing
// sent twice, no second opening message — and DingTalk pushing the message again changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Spool } from '../../src/bridge/spool/spool.js';
import { startFakeDingTalk } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, sessionFiles } from './system-harness.js';
import { crashRig } from './crash-rig.js';
import { pointDingTalkAt } from './dingtalk-harness.js';
import { until } from './telegram-harness.js';

const OWNER = 'owner5150';

describe.skipIf(!CLAUDE_BIN)('crash and restart over DingTalk', () => {
  const rig = crashRig();

  it(
    'SIGKILL mid-answer: after a restart the same message finishes, one answer, the re-push dropped',
    async () => {
      const dt = await startFakeDingTalk({ ackTimeoutMs: 1_000 });
      rig.undo(() => dt.close());
      const { sys, config, anth } = await rig.system();
      pointDingTalkAt(config, dt, OWNER);
      const specFile = rig.spec(sys, config, () => dt.sent);
      const cwd = sys.project('dt-crash');
      const spool = new Spool(config.queue.spool_dir);
      const text = `/new ${cwd} -- slow: 150`;

      // Life 1: the run starts (the opening message is out, Claude is answering) — and the process dies.
      const first = rig.start(specFile, sys);
      await first.ready;
      await until(() => dt.connections === 1, 'the Stream connection', 45_000);
      const data = dt.robotMessage(OWNER, text);
      const id = `dingtalk:${String(data.msgId)}`;
      const push = dt.push(data);
      const running = () => anth.messageRequests().some((r) => r.scriptRequest?.lastUserText === 'slow: 150');
      await until(() => push.acked && running() && dt.messagesTo(OWNER).length === 1, 'the answer under way', 45_000);
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(await spool.locate(id)).toBe('processing');
      expect(dt.messagesTo(OWNER).map((m) => m.text)).not.toContainEqual(expect.stringContaining('tick19'));

      // Life 2: recovery resumes the turn; DingTalk pushes the same message again.
      const second = rig.start(specFile, sys);
      await second.ready;
      await until(() => dt.connections === 1, 'the Stream connection again', 45_000);
      const again = dt.push(data);
      await until(() => fs.existsSync(spool.pathOf('done', id)), 'the message done', 45_000);
      await until(() => again.acked, 'the re-push acked');
      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });

      const sent = dt.messagesTo(OWNER);
      expect(sent.filter((m) => m.text.includes('tick19'))).toHaveLength(1);
      expect(sent.filter((m) => m.text.startsWith('⏳'))).toHaveLength(1);
      expect(sent).toHaveLength(2);
      expect(sessionFiles(sys, cwd)).toHaveLength(1);
      expect(await waitNoLeftovers(sys.home, 5_000)).toEqual([]);
      const logs = fs.readdirSync(sys.root).filter((n) => n.startsWith('child-'));
      for (const f of logs) expect(fs.readFileSync(path.join(sys.root, f), 'utf8')).not.toContain(dt.clientSecret);
    },
    2 * CASE_TIMEOUT_MS,
  );
});
