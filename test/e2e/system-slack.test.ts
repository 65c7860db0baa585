// The whole system (`assembleDaemon`, what `cc-linker start` runs) with Slack enabled next to
// Feishu: the REAL Bolt (Socket Mode) against the fake Slack, the REAL Feishu SDK against the fake
// Feishu server, the REAL bundled Claude Code against the fake Anthropic API. Assertions are on
// what the user sees in the Slack DM (the fake's records) and on what Claude was asked.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { startFakeSlack, type FakeSlack, type FakeSlackMessage } from '../fakes/fake-slack/fake-slack-server.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  repliesTo,
  sessionFiles,
  showLogOnFailure,
  startSystem,
  type System,
} from './system-harness.js';
import { pushCommand } from '../fakes/fake-slack/slash-commands.js';
import { OWNER, STRANGER } from './slack-harness.js';
import { until } from './telegram-harness.js';

const en = bridgeMessages('en');

/** The bot's messages in `user`'s DM that contain `text`. */
const withText = (sl: FakeSlack, user: string, text: string) =>
  sl.inChannel(sl.dm(user)).filter((m) => m.visible.includes(text));

/** The streamed answer once final: the footer (turns) shown and the Stop button removed. */
async function finalAnswer(sl: FakeSlack, expected: string): Promise<FakeSlackMessage> {
  const done = () =>
    withText(sl, OWNER, expected).find((m) => m.buttons.length === 0 && /🔄 \d+ turns/.test(m.visible));
  await until(() => done() !== undefined, `the final answer containing ${expected}`, 45_000);
  return done() as FakeSlackMessage;
}

const buttonOn = (sl: FakeSlack, label: string) =>
  sl.inChannel(sl.dm(OWNER)).find((m) => m.buttons.some((b) => b.text === label));

describe.skipIf(!CLAUDE_BIN)('the whole system over Slack (real Bolt, real Claude Code), next to Feishu', () => {
  let s: System;
  let sl: FakeSlack;

  beforeAll(async () => {
    sl = await startFakeSlack();
    s = await startSystem('sdk', {
      tweak: (c) => {
        c.slack.enabled = true;
        c.slack.bot_token = sl.botToken;
        c.slack.app_token = sl.appToken;
        c.slack.api_url = sl.apiUrl;
        c.slack.owner_user_id = OWNER;
        c.stream.throttle_ms = 100;
      },
    });
    expect(s.runtime.slack).toBe('started');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
    await sl?.close();
  }, CASE_TIMEOUT_MS);

  it(
    'new session, then continue: each answer streams into one Slack message; a re-sent event is dropped',
    async () => {
      showLogOnFailure(() => s);
      onTestFailed(() => console.error(JSON.stringify(sl.messages, null, 1)));
      const cwd = s.sys.project('sl-new');
      sl.pushMessage(OWNER, ` /new ${cwd} -- echo: hello from slack & <friends>`);
      const a = await finalAnswer(sl, 'hello from slack & <friends>');
      expect(a.edits).toBeGreaterThan(0);
      expect(withText(sl, OWNER, 'hello from slack')).toHaveLength(1);
      const [session] = sessionFiles(s.sys, cwd);
      expect(session).toBeDefined();
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
        type: 'session',
        sessionUuid: session,
      });

      const second = sl.pushMessage(OWNER, 'echo: and again');
      await finalAnswer(sl, 'and again');
      expect(sessionFiles(s.sys, cwd)).toEqual([session]);
      const req = s.anth.messageRequests().find((r) => r.scriptRequest?.lastUserText === 'echo: and again');
      expect(JSON.stringify(req?.scriptRequest?.messages)).toContain('hello from slack');

      // Slack sends the same event again (retry_attempt 1, as after a missed ack): dropped, not run twice.
      const again = sl.redeliver(second);
      await until(() => sl.hub.acks.has(again.envelope_id), 'the re-sent event acked');
      await s.runtime.bridge.whenIdle();
      expect(s.runsOf('echo: and again')).toBe(1);
      expect(withText(sl, OWNER, 'and again')).toHaveLength(1);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'approval: a stranger’s click changes nothing; Allow runs the tool and the buttons are removed',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('sl-perm');
      sl.pushMessage(OWNER, `/new ${cwd} -- tool: Bash touch x`);
      await until(() => buttonOn(sl, 'Allow') !== undefined, 'the permission prompt', 45_000);
      const card = buttonOn(sl, 'Allow') as FakeSlackMessage;
      expect(card.visible).toContain('touch x');
      expect(card.buttons.map((b) => b.text)).toEqual(['Allow', 'Deny', 'Always allow']);
      const allow = card.buttons.find((b) => b.text === 'Allow');
      if (!allow) throw new Error('no Allow button');
      const foreign = sl.pushClick(STRANGER, card, allow);
      await until(() => sl.hub.acks.has(foreign.envelope_id), 'the stranger’s click acked');
      await new Promise((r) => setTimeout(r, 300));
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false);
      expect(card.buttons).toHaveLength(3);
      const click = sl.pushClick(OWNER, card, allow);
      await until(() => sl.hub.acks.has(click.envelope_id), 'the click acked');
      await finalAnswer(sl, 'tool-result: ok');
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(true);
      await until(() => card.buttons.length === 0, 'the buttons removed');
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'AskUserQuestion: the options are buttons; clicking "blue" answers Claude',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('sl-ask');
      sl.pushMessage(OWNER, `/new ${cwd} -- ask: Which color? | red | blue`);
      await until(() => buttonOn(sl, 'blue') !== undefined, 'the question', 45_000);
      const card = buttonOn(sl, 'blue') as FakeSlackMessage;
      expect(card.visible).toContain('Which color?');
      const blue = card.buttons.find((b) => b.text === 'blue');
      if (!blue) throw new Error('no blue button');
      sl.pushClick(OWNER, card, blue);
      await finalAnswer(sl, 'answered: blue');
      const answered = s.anth
        .messageRequests()
        .flatMap((r) => r.scriptRequest?.lastUserToolResults ?? [])
        .find((t) => t.toolName === 'AskUserQuestion');
      expect(answered?.content).toContain('"Which color?"="blue"');
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'files out: Claude’s send_file arrives in the DM as a Slack file, once',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('sl-files');
      const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);
      fs.writeFileSync(path.join(cwd, 'chart.png'), png);
      sl.pushMessage(OWNER, `/new ${cwd} -- tool: mcp__cc-linker__send_file {"path":"chart.png"}`);
      const shared = () => sl.inChannel(sl.dm(OWNER)).filter((m) => m.file?.name === 'chart.png');
      await until(() => shared().length === 1, 'the file shared', 45_000);
      expect(shared()[0]?.file?.bytes).toEqual(png);
      await s.runtime.bridge.whenIdle();
      expect(shared()).toHaveLength(1);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a stranger gets the fixed refusal and reaches nothing; Feishu keeps working beside Slack; no token in the log',
    async () => {
      showLogOnFailure(() => s);
      const before = s.anth.requests.length;
      sl.pushMessage(STRANGER, 'echo: let me in');
      await until(() => sl.inChannel(sl.dm(STRANGER)).length === 1, 'the refusal');
      expect(sl.inChannel(sl.dm(STRANGER))[0]?.visible).toBe(en('notOwner'));

      const { messageId } = await s.send('what does this project do?');
      await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
      await s.runtime.bridge.whenIdle();
      expect(s.anth.requests.length).toBe(before);
      const status = await s.runtime.bridge.status();
      expect(status.channels.find((c) => c.id === 'slack')).toMatchObject({ connected: true, detail: '@cc-linker' });
      const log = fs.readFileSync(s.logFile, 'utf8');
      expect(log).not.toContain(sl.botToken);
      expect(log).not.toContain(sl.appToken);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '/cc new starts a session, a second copy of the envelope runs nothing; a PDF reaches Claude; a stranger’s /cc is refused',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('sl-slash');
      const cmd = pushCommand(sl, OWNER, `new ${cwd} -- echo: started by slash &amp; co`);
      const a = await finalAnswer(sl, 'started by slash & co');
      expect(sl.hub.acks.has(cmd.envelope_id)).toBe(true);
      const [session] = sessionFiles(s.sys, cwd);
      expect(session).toBeDefined();
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)).toMatchObject({ sessionUuid: session });

      // The same invocation again (same trigger_id), as Slack would re-send it: acked, nothing runs twice.
      const again = sl.hub.send('slash_commands', cmd.payload);
      await until(() => sl.hub.acks.has(again.envelope_id), 'the copy acked');
      await s.runtime.bridge.whenIdle();
      expect(s.runsOf('echo: started by slash & co')).toBe(1);
      expect(sessionFiles(s.sys, cwd)).toEqual([session]);
      expect(withText(sl, OWNER, 'started by slash')).toEqual([a]);

      // A PDF shared in the DM reaches Claude as a kept file (a `[file: …]` line naming its path and type).
      const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
      sl.pushMessage(OWNER, 'echo: read the pdf', {
        subtype: 'file_share',
        files: [sl.addFile('F0SYSPDF', 'plan.pdf', 'application/pdf', pdf)],
      });
      await finalAnswer(sl, 'read the pdf');
      const asked = s.anth.messageRequests().find((r) => r.scriptRequest?.lastUserText?.includes('read the pdf'));
      const line = /\[file: (\S+) \(plan\.pdf, [^)]*application\/pdf\)\]/.exec(
        asked?.scriptRequest?.lastUserText ?? '',
      );
      expect(line?.[1]?.startsWith(fs.realpathSync(s.sys.paths.attachmentsDir))).toBe(true);
      expect(fs.readFileSync(line?.[1] ?? '')).toEqual(pdf);
      expect(fs.statSync(line?.[1] ?? '').mode & 0o777).toBe(0o600);

      const refusals = () => sl.inChannel(sl.dm(STRANGER)).filter((m) => m.visible === en('notOwner')).length;
      const before = refusals();
      const foreign = pushCommand(sl, STRANGER, `new ${cwd} -- echo: not yours`);
      await until(() => refusals() === before + 1, 'the stranger’s refusal');
      expect(sl.hub.acks.has(foreign.envelope_id)).toBe(true);
      await s.runtime.bridge.whenIdle();
      expect(s.runsOf('echo: not yours')).toBe(0);
    },
    CASE_TIMEOUT_MS,
  );
});
