// The whole system (`assembleDaemon`, what `cc-linker start` runs) with DingTalk enabled next to
// Feishu: the REAL dingtalk-stream client against the fake DingTalk, the REAL Feishu SDK against
// the fake Feishu server, the REAL bundled Claude Code against the fake Anthropic API. Assertions
// are on what the user sees in the DingTalk chat (the fake's records) and on what Claude was asked.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import type { SentMessage as FeishuSent } from '../fakes/fake-feishu/fake-feishu-server.js';
import { defaultScript } from '../fakes/fake-anthropic/default-script.js';
import {
  MAX_MARKDOWN,
  startFakeDingTalk,
  type FakeDingTalk,
  type SentMessage,
} from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { tapLinks } from '../fakes/fake-dingtalk/tap-links.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  repliesTo,
  sessionFiles,
  showLogOnFailure,
  startSystem,
  type System,
} from './system-harness.js';
import { pointDingTalkAt } from './dingtalk-harness.js';
import { until } from './telegram-harness.js';

const OWNER = 'owner5150';
const STRANGER = 'stranger6160';
const en = bridgeMessages('en');

/** The final answer containing `expected` (a card with the turns footer), once it is there. */
async function finalAnswer(dt: FakeDingTalk, expected: string): Promise<SentMessage> {
  const find = () => dt.messagesTo(OWNER).find((m) => m.text.includes(expected) && /🔄 \d+ turns/.test(m.text));
  await until(() => find() !== undefined, `the final answer containing ${expected}`, 45_000);
  return find() as SentMessage;
}

describe.skipIf(!CLAUDE_BIN)(
  'the whole system over DingTalk (real dingtalk-stream, real Claude Code), next to Feishu',
  () => {
    let s: System;
    let dt: FakeDingTalk;

    beforeAll(async () => {
      dt = await startFakeDingTalk({ ackTimeoutMs: 1_000 });
      s = await startSystem('sdk', {
        tweak: (c) => {
          pointDingTalkAt(c, dt, OWNER);
        },
      });
      expect(s.runtime.dingtalk).toBe('started');
      await until(() => dt.connections === 1, 'the Stream connection');
    }, CASE_TIMEOUT_MS);
    afterAll(async () => {
      await s?.stop();
      await dt?.close();
    }, CASE_TIMEOUT_MS);

    it(
      'new session, then continue: one opening message and one answer each, in the same session; a re-push is dropped',
      async () => {
        showLogOnFailure(() => s);
        onTestFailed(() => console.error(JSON.stringify(dt.sent, null, 1)));
        const cwd = s.sys.project('dt-new');
        const first = dt.push(dt.robotMessage(OWNER, `/new ${cwd} -- echo: hello from dingtalk`));
        await finalAnswer(dt, 'hello from dingtalk');
        expect(first.acked).toBe(true);
        expect(dt.messagesTo(OWNER).filter((m) => m.text.includes('hello from dingtalk'))).toHaveLength(1);
        const [session] = sessionFiles(s.sys, cwd);
        expect(session).toBeDefined();
        expect(await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
          type: 'session',
          sessionUuid: session,
        });

        const data = dt.robotMessage(OWNER, 'echo: and again');
        dt.push(data);
        await finalAnswer(dt, 'and again');
        expect(sessionFiles(s.sys, cwd)).toEqual([session]);
        const req = s.anth.messageRequests().find((r) => r.scriptRequest?.lastUserText === 'echo: and again');
        expect(JSON.stringify(req?.scriptRequest?.messages)).toContain('hello from dingtalk');

        // DingTalk pushes the same msgId again (an ack lost before a crash): acked, not run twice.
        const again = dt.push(data);
        await until(() => again.acked, 'the re-push acked');
        await s.runtime.bridge.whenIdle();
        expect(s.runsOf('echo: and again')).toBe(1);
        expect(dt.messagesTo(OWNER).filter((m) => m.text.includes('and again'))).toHaveLength(1);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      "approval by tapping: a stranger's tap changes nothing, the owner's tap on Allow allows once, a second tap is told it is closed",
      async () => {
        showLogOnFailure(() => s);
        const cwd = s.sys.project('dt-perm');
        dt.push(dt.robotMessage(OWNER, `/new ${cwd} -- tool: Bash touch x`));
        const prompt = () =>
          dt.messagesTo(OWNER).find((m) => m.text.includes('touch x') && tapLinks(m.text).length > 0);
        await until(() => prompt() !== undefined, 'the permission prompt', 45_000);
        const links = tapLinks(prompt()!.text);
        expect(links.map((l) => l.label)).toEqual(['Allow', 'Deny', 'Always allow']);
        expect(prompt()?.text).toMatch(/1\. \[Allow\]\(dtmd:.*\n2\. \[Deny\]\(dtmd:.*\n3\. \[Always allow\]\(dtmd:/);
        expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false);
        const allow = links[0]!.content;
        const refusals = dt.messagesTo(STRANGER).length;
        dt.push(dt.robotMessage(STRANGER, allow));
        await until(() => dt.messagesTo(STRANGER).length === refusals + 1, 'the refusal');
        expect(dt.messagesTo(STRANGER).at(-1)?.text).toBe(en('notOwner'));
        expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false);
        const tapData = dt.robotMessage(OWNER, allow);
        const tap = dt.push(tapData);
        await finalAnswer(dt, 'tool-result: ok');
        expect(tap.acked).toBe(true);
        // DingTalk pushes the same tap again: dropped, never sent to Claude as a prompt.
        const repush = dt.push(tapData);
        await until(() => repush.acked, 'the re-push acked');
        expect(fs.existsSync(path.join(cwd, 'x'))).toBe(true);
        expect(dt.messagesTo(OWNER).some((m) => m.text.includes('Allowed'))).toBe(true);
        // A second tap on the answered prompt: a clear sentence, nothing reaches Claude.
        const before = dt.messagesTo(OWNER).length;
        const second = dt.push(dt.robotMessage(OWNER, allow));
        await until(() => second.acked && dt.messagesTo(OWNER).length === before + 1, 'the "closed" answer');
        expect(dt.messagesTo(OWNER).at(-1)?.text).toBe(promptMessages('en')('expired'));
        expect(s.runsOf(allow)).toBe(0);
        // The prompt is answered: a "1" is an ordinary message again (it reaches Claude).
        dt.push(dt.robotMessage(OWNER, '1'));
        await until(() => s.runsOf('1') === 1, 'the "1" sent to Claude', 45_000);
        await s.runtime.bridge.whenIdle();
        expect(s.runsOf('1')).toBe(1);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'AskUserQuestion: the options are numbered; replying "2" answers "blue"',
      async () => {
        showLogOnFailure(() => s);
        onTestFailed(() => console.error(JSON.stringify(dt.sent.slice(-6), null, 1)));
        const cwd = s.sys.project('dt-ask');
        dt.push(dt.robotMessage(OWNER, `/new ${cwd} -- ask: Which color? | red | blue`));
        const prompt = () =>
          dt.messagesTo(OWNER).find((m) => m.text.includes('Which color?') && tapLinks(m.text)[1]?.label === 'blue');
        await until(() => prompt() !== undefined, 'the question', 45_000);
        dt.push(dt.robotMessage(OWNER, '2'));
        await finalAnswer(dt, 'answered: blue');
        const answered = s.anth
          .messageRequests()
          .flatMap((r) => r.scriptRequest?.lastUserToolResults ?? [])
          .find((t) => t.toolName === 'AskUserQuestion');
        expect(answered?.content).toContain('"Which color?"="blue"');
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'a long answer is split: the final card, then follow-up messages, each within the limit, nothing lost or doubled',
      async () => {
        showLogOnFailure(() => s);
        const lines = Array.from({ length: 400 }, (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(30)}`);
        const long = lines.join('\n');
        s.anth.setScript((req) => (req.lastUserText === 'long please' ? { text: long } : defaultScript(req)));
        const before = dt.messagesTo(OWNER).length;
        const cwd = s.sys.project('dt-long');
        dt.push(dt.robotMessage(OWNER, `/new ${cwd} -- long please`));
        const sent = () => dt.messagesTo(OWNER).slice(before);
        await until(() => sent().some((m) => m.text.includes('line 399')), 'the end of the answer', 45_000);
        await s.runtime.bridge.whenIdle();
        const texts = sent().map((m) => m.text);
        expect(texts[0]?.startsWith('⏳')).toBe(true);
        expect(texts.length).toBeGreaterThanOrEqual(4);
        for (const t of texts) expect(t.length).toBeLessThanOrEqual(MAX_MARKDOWN);
        for (const line of lines) expect(texts.filter((t) => t.includes(line))).toHaveLength(1);
        s.anth.setScript(defaultScript);
      },
      CASE_TIMEOUT_MS,
    );

    it(
      'a stranger gets the fixed refusal and reaches nothing; Feishu keeps working; the secret is in no log',
      async () => {
        showLogOnFailure(() => s);
        const before = s.anth.requests.length;
        const stranger = dt.messagesTo(STRANGER).length;
        dt.push(dt.robotMessage(STRANGER, 'echo: let me in'));
        await until(() => dt.messagesTo(STRANGER).length === stranger + 1, 'the refusal');
        expect(dt.messagesTo(STRANGER).at(-1)?.text).toBe(en('notOwner'));

        const { messageId } = await s.send('what does this project do?');
        await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
        await s.runtime.bridge.whenIdle();
        expect(s.anth.requests.length).toBe(before);
        const status = await s.runtime.bridge.status();
        expect(status.channels.find((c) => c.id === 'dingtalk')).toMatchObject({ connected: true });
        expect(fs.readFileSync(s.logFile, 'utf8')).not.toContain(dt.clientSecret);
      },
      CASE_TIMEOUT_MS,
    );
  },
);

describe.skipIf(!CLAUDE_BIN)('a DingTalk outage never stops the rest', () => {
  it(
    'with the gateway unreachable the daemon starts, Feishu answers, and /status names the DingTalk error',
    async () => {
      const dead = await startFakeDingTalk();
      const apiBase = dead.apiBase;
      await dead.close();
      const s = await startSystem('sdk', {
        tweak: (c) => {
          c.dingtalk.enabled = true;
          c.dingtalk.client_id = dead.clientId;
          c.dingtalk.client_secret = dead.clientSecret;
          c.dingtalk.api_base = apiBase;
          c.dingtalk.owner_staff_id = OWNER;
        },
      });
      try {
        showLogOnFailure(() => s);
        expect(s.runtime.dingtalk).toBe('started');
        const state = async () =>
          (await s.runtime.bridge.status()).channels.find((c) => c.id === 'dingtalk')?.detail ?? '';
        for (let i = 0; i < 200 && !(await state()).startsWith('error'); i += 1)
          await new Promise((r) => setTimeout(r, 50));
        const { messageId } = await s.send('/status');
        await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
        const text = s.fake.textOf(repliesTo(s.fake, messageId)[0] as FeishuSent);
        expect(text).toMatch(/dingtalk: disconnected .*error: gateway unreachable/);
        expect(text).not.toContain(dead.clientSecret);
        const status = await s.runtime.bridge.status();
        expect(status.channels.find((c) => c.id === 'feishu')).toMatchObject({ connected: true });
        expect(status.channels.find((c) => c.id === 'dingtalk')).toMatchObject({ connected: false });
      } finally {
        await s.stop();
      }
    },
    CASE_TIMEOUT_MS,
  );
});
