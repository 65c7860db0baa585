// A waited message's "started" message across a crash (docs/design.md#dingtalk): the whole system
// in a child process (`assembleDaemon` as `cc-linker start` runs it) with DingTalk, the REAL
// dingtalk-stream client against the fake DingTalk, the REAL bundled Claude Code against the fake
// Anthropic API. The child is SIGKILLed while the message that waited runs, then started again:
// its "started" message is not sent a second time, and its answer arrives once.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Spool } from '../../src/bridge/spool/spool.js';
import { dingtalkMessages } from '../../src/channels/dingtalk/dingtalk-messages.js';
import { startFakeDingTalk } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { crashRig } from './crash-rig.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN } from './system-harness.js';
import { pointDingTalkAt } from './dingtalk-harness.js';
import { until } from './telegram-harness.js';

const OWNER = 'owner8180';
const d = dingtalkMessages('en');

describe.skipIf(!CLAUDE_BIN)('a waited DingTalk message across a crash', () => {
  const rig = crashRig();

  it(
    'SIGKILL while the waited message runs: after the restart no second "started" message, one answer',
    async () => {
      const dt = await startFakeDingTalk({ ackTimeoutMs: 1_000 });
      rig.undo(() => dt.close());
      const { sys, config, anth } = await rig.system();
      pointDingTalkAt(config, dt, OWNER);
      const specFile = rig.spec(sys, config, () => dt.sent);
      const cwd = sys.project('dt-started');
      const spool = new Spool(config.queue.spool_dir);
      const sent = () => dt.messagesTo(OWNER);
      const runs = (text: string) => anth.messageRequests().filter((r) => r.scriptRequest?.lastUserText === text);

      // Life 1: a session, a running message, a second one waiting behind it; it starts — and the process dies.
      const first = rig.start(specFile, sys);
      await first.ready;
      await until(() => dt.connections === 1, 'the Stream connection', 45_000);
      dt.push(dt.robotMessage(OWNER, `/new ${cwd} -- echo: ready`));
      await until(() => sent().some((m) => m.text.includes('ready') && m.text.startsWith('###')), 'a session', 45_000);
      dt.push(dt.robotMessage(OWNER, 'slow: 40'));
      await until(() => runs('slow: 40').length === 1, 'the first run', 45_000);
      const data = dt.robotMessage(OWNER, 'slow: 150');
      const push = dt.push(data);
      await until(() => push.acked && sent().some((m) => m.text.startsWith('### ⏳ Queued')), 'the Queued message');
      const started = () => sent().filter((m) => m.text.startsWith(d('started')));
      await until(() => started().length === 1 && runs('slow: 150').length === 1, 'the waited run under way', 45_000);
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const id = `dingtalk:${String(data.msgId)}`;
      expect(await spool.locate(id)).toBe('processing');
      const answers = () => sent().filter((m) => m.text.includes('tick19'));
      expect(answers()).toHaveLength(1);

      // Life 2: recovery runs the waited message again; it streams into the same reply.
      const second = rig.start(specFile, sys);
      await second.ready;
      await until(() => fs.existsSync(spool.pathOf('done', id)), 'the waited message done', 45_000);
      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
      expect(started()).toHaveLength(1);
      expect(answers()).toHaveLength(2);
      expect(sent().filter((m) => m.text.startsWith('### ⏳ Queued'))).toHaveLength(1);
      expect(sent().filter((m) => m.text.startsWith(d('waiting')))).toHaveLength(2);
    },
    2 * CASE_TIMEOUT_MS,
  );
});
