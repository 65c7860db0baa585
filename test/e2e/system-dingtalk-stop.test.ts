// The whole system over DingTalk without an AI card (docs/design.md#dingtalk): a message that
// waited shows once when it starts, and the Stop of a running reply is a tappable link bound to
// that run. The REAL dingtalk-stream client against the fake DingTalk, the REAL bundled Claude Code
// against the fake Anthropic API; a "tap" pushes the link's content as the owner's message.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { pipelineMessages } from '../../src/bridge/pipeline/pipeline-messages.js';
import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import { Spool } from '../../src/bridge/spool/spool.js';
import { dingtalkMessages } from '../../src/channels/dingtalk/dingtalk-messages.js';
import { startFakeDingTalk, type FakeDingTalk, type SentMessage } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { tapLinks } from '../fakes/fake-dingtalk/tap-links.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, showLogOnFailure, startSystem, type System } from './system-harness.js';
import { pointDingTalkAt } from './dingtalk-harness.js';
import { until } from './telegram-harness.js';

const OWNER = 'owner7170';
const STRANGER = 'stranger7171';
const p = pipelineMessages('en');
const d = dingtalkMessages('en');
const WAIT_MS = 45_000;

describe.skipIf(!CLAUDE_BIN)('DingTalk: "started" message and tappable Stop (real Claude Code)', () => {
  let s: System;
  let dt: FakeDingTalk;
  const sent = () => dt.messagesTo(OWNER);
  const find = (pred: (m: SentMessage) => boolean) => sent().find(pred);
  /** The final card containing `text` (a card with the turns footer). */
  const final = (text: string) => find((m) => m.text.includes(text) && /🔄 \d+ turns/.test(m.text));
  const index = (m: SentMessage | undefined) => (m ? sent().indexOf(m) : -1);
  /** Taps option 1 (Stop) of `m` as the owner and waits for the bridge's answer `expected`. */
  async function tapStop(m: SentMessage, expected: string): Promise<void> {
    const [stop] = tapLinks(m.text);
    expect(stop?.label).toBe(p('stopButton'));
    const before = sent().length;
    dt.push(dt.robotMessage(OWNER, stop!.content));
    await until(
      () =>
        sent()
          .slice(before)
          .some((x) => x.text === expected),
      `the answer "${expected}"`,
      WAIT_MS,
    );
  }

  beforeAll(async () => {
    dt = await startFakeDingTalk({ ackTimeoutMs: 1_000 });
    s = await startSystem('sdk', {
      tweak: (c) => {
        pointDingTalkAt(c, dt, OWNER);
      },
    });
    await until(() => dt.connections === 1, 'the Stream connection');
    const cwd = s.sys.project('dt-stop');
    dt.push(dt.robotMessage(OWNER, `/new ${cwd} -- echo: session ready`));
    await until(() => final('session ready') !== undefined, 'the first answer', WAIT_MS);
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
    await dt?.close();
  }, CASE_TIMEOUT_MS);

  it(
    'a message sent while another runs: "Queued", then exactly one "started" message with Stop, then its answer',
    async () => {
      showLogOnFailure(() => s);
      onTestFailed(() => console.error(JSON.stringify(sent(), null, 1)));
      const before = sent().length;
      dt.push(dt.robotMessage(OWNER, 'slow: 60'));
      await until(() => s.runsOf('slow: 60') === 1, 'the first run', WAIT_MS);
      dt.push(dt.robotMessage(OWNER, 'echo: after the wait'));
      await until(() => final('after the wait') !== undefined, 'the waited answer', WAIT_MS);
      await s.runtime.bridge.whenIdle();
      const mine = sent().slice(before);
      const openings = mine.filter((m) => m.text.startsWith(d('waiting')));
      const queued = mine.filter((m) => m.text.startsWith('### ⏳ Queued'));
      const started = mine.filter((m) => m.text.startsWith(d('started')));
      expect(openings).toHaveLength(1);
      expect(queued).toHaveLength(1);
      expect(started).toHaveLength(1);
      expect(tapLinks(openings[0]!.text).map((l) => l.label)).toEqual([p('stopButton')]);
      expect(tapLinks(started[0]!.text).map((l) => l.label)).toEqual([p('stopButton')]);
      // The "started" message comes after the first run's answer, before the waited answer.
      expect(index(started[0])).toBeGreaterThan(index(final('tick19')));
      expect(index(started[0])).toBeLessThan(index(final('after the wait')));
      expect(mine).toHaveLength(5);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'tapping Stop on the running reply stops that run; a tap on a finished run’s Stop stops nothing, not even the newer run',
    async () => {
      showLogOnFailure(() => s);
      onTestFailed(() => console.error(JSON.stringify(sent(), null, 1)));
      const spool = new Spool(s.config.queue.spool_dir);
      const before = sent().length;
      const data = dt.robotMessage(OWNER, 'slow: 400');
      dt.push(data);
      const opening = () =>
        sent()
          .slice(before)
          .find((m) => m.text.startsWith(d('waiting')));
      await until(() => opening() !== undefined && s.runsOf('slow: 400') === 1, 'the run under way', WAIT_MS);
      // A stranger's tap on that Stop: the fixed refusal, the run goes on.
      const strangers = dt.messagesTo(STRANGER).length;
      dt.push(dt.robotMessage(STRANGER, tapLinks(opening()!.text)[0]!.content));
      await until(() => dt.messagesTo(STRANGER).length === strangers + 1, 'the refusal', WAIT_MS);
      expect(dt.messagesTo(STRANGER).at(-1)?.text).toBe(bridgeMessages('en')('notOwner'));
      expect(await spool.locate(`dingtalk:${String(data.msgId)}`)).toBe('processing');
      await tapStop(opening()!, p('stopAccepted'));
      const stopped = () =>
        sent()
          .slice(before)
          .find((m) => m.text.startsWith(`### ${p('stoppedTitle')}`));
      await until(() => stopped() !== undefined, 'the stopped card', WAIT_MS);
      await s.runtime.bridge.whenIdle();
      const id = `dingtalk:${String(data.msgId)}`;
      expect(await spool.locate(id)).toBe('cancelled');
      expect(sent().some((m) => m.text.includes('tick19'))).toBe(true); // only from the earlier case
      expect(
        sent()
          .slice(before)
          .some((m) => m.text.includes('tick19')),
      ).toBe(false);
      // The same Stop tapped again: its prompt is closed, "expired", nothing runs.
      await tapStop(opening()!, promptMessages('en')('expired'));

      // A newer run; the first run's Stop (never tapped) is tapped now.
      const old = sent().find((m) => m.text.startsWith(d('waiting')))!;
      const newer = sent().length;
      dt.push(dt.robotMessage(OWNER, 'slow: 80'));
      await until(() => s.runsOf('slow: 80') === 1, 'the newer run', WAIT_MS);
      await tapStop(old, p('alreadyFinished'));
      await until(
        () =>
          sent()
            .slice(newer)
            .some((m) => m.text.includes('tick19')),
        'the newer answer, whole',
        WAIT_MS,
      );
      await s.runtime.bridge.whenIdle();
      expect(
        sent()
          .slice(newer)
          .some((m) => m.text.includes(p('stoppedTitle'))),
      ).toBe(false);
      expect(fs.existsSync(s.logFile) ? fs.readFileSync(s.logFile, 'utf8') : '').not.toContain(dt.clientSecret);
    },
    CASE_TIMEOUT_MS,
  );
});
