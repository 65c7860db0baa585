// Crash safety over DingTalk: the whole system in a child process (fixtures/system-feishu-child.ts,
// `assembleDaemon` as `cc-linker start` runs it, DingTalk enabled beside Feishu) is SIGKILLed in
// the middle of an answer, then started again. The answer must arrive once — nothing lost, nothing
// sent twice, no second opening message — and DingTalk pushing the message again changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { Spool } from '../../src/bridge/spool/spool.js';
import { startFakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { startFakeDingTalk } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { startFakeFeishuServer } from '../fakes/fake-feishu/fake-feishu-server.js';
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

const OWNER = 'owner5150';

describe.skipIf(!CLAUDE_BIN)('crash and restart over DingTalk', () => {
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
    'SIGKILL mid-answer: after a restart the same message finishes, one answer, the re-push dropped',
    async () => {
      const anth = await startFakeAnthropic();
      undo.push(() => anth.close());
      const feishu = await startFakeFeishuServer();
      undo.push(() => feishu.close());
      const dt = await startFakeDingTalk({ ackTimeoutMs: 1_000 });
      undo.push(() => dt.close());
      const sys = systemRoot(anth.url);
      undo.push(() => sys.cleanup());
      const config = systemConfig({
        sys,
        mode: 'sdk',
        feishu: { baseUrl: feishu.baseUrl, appSecret: feishu.appSecret, appId: newAppId() },
      });
      config.dingtalk = {
        enabled: true,
        client_id: dt.clientId,
        client_secret: dt.clientSecret,
        owner_staff_id: OWNER,
        allow_auto_bind_owner: false,
        api_base: dt.apiBase,
        card_template_id: '',
        card_template_key: 'content',
      };
      const specFile = path.join(sys.root, 'spec.json');
      fs.writeFileSync(specFile, JSON.stringify({ config, env: sys.env, crashOnFinalUpdate: false }));
      onTestFailed(() => {
        console.error(JSON.stringify(dt.sent, null, 1));
        if (!fs.existsSync(sys.root)) return;
        for (const f of fs.readdirSync(sys.root).filter((n) => n.startsWith('child-'))) {
          const lines = fs
            .readFileSync(path.join(sys.root, f), 'utf8')
            .split('\n')
            .filter((l) => /"level":"(warn|error)"/.test(l));
          console.error(`--- ${f} (warn/error) ---\n${lines.slice(-30).join('\n')}`);
        }
      });
      const cwd = sys.project('dt-crash');
      const spool = new Spool(config.queue.spool_dir);
      const text = `/new ${cwd} -- slow: 150`;

      // Life 1: the run starts (the opening message is out, Claude is answering) — and the process dies.
      const first = startChild(specFile, sys);
      lives.push(first);
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
      const second = startChild(specFile, sys);
      lives.push(second);
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
