// Recovery from the transcript, end to end: the whole system (`assembleDaemon` in a child process,
// the real Feishu SDK against the fake Feishu server) runs the REAL Claude Code binary (sdk mode)
// against the fake Anthropic API. The bridge is SIGKILLed at one moment of a turn by a wrapper
// around the binary (fixtures/claude-crash-wrapper.cjs) and started again; the fake API's records
// then show how often the prompt reached the model, and a file the Bash tool appends to shows how
// often the tool ran.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { pipelineMessages } from '../../src/bridge/pipeline/pipeline-messages.js';
import { Spool } from '../../src/bridge/spool/spool.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultScript } from '../fakes/fake-anthropic/default-script.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import {
  cardActionEvent,
  startFakeFeishuServer,
  textMessageEvent,
  type FakeFeishu,
  type SentMessage,
} from '../fakes/fake-feishu/fake-feishu-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import {
  buttonsOf,
  cardIdOf,
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  newAppId,
  OWNER,
  repliesTo,
  replyTemplate,
  sessionFiles,
  startChild,
  streamedReply,
  systemConfig,
  systemRoot,
  type ChildLife,
  type SystemRoot,
} from './system-harness.js';

const WRAPPER = path.join(import.meta.dirname, 'fixtures/claude-crash-wrapper.cjs');
const t = pipelineMessages('en');

interface Run {
  anth: FakeAnthropic;
  fake: FakeFeishu;
  sys: SystemRoot;
  config: Config;
  spool: Spool;
  cwd: string;
  /** The wrapper standing in for Claude Code; `arm` makes its next start crash the bridge. */
  arm(spec: { moment: string; marker?: string; transcript?: string }): void;
  /** Starts a life of the system; resolves once it is connected. */
  life(): Promise<ChildLife>;
  /** Pushes `text` as the owner; returns the Feishu message id and the push's event id. */
  send(text: string): Promise<{ messageId: string; eventId: string }>;
  /** Waits until the message is in `done/`. */
  done(messageId: string): Promise<void>;
  /** Model requests whose last user text is exactly `text`. */
  modelCalls(text: string): number;
  /** Set when the first life is over: a tool result is then answered at once. */
  restarted: boolean;
}

const lives: ChildLife[] = [];
const undo: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const l of lives) if (l.child.exitCode === null && l.child.signalCode === null) l.child.kill('SIGKILL');
  for (const l of lives) await l.exited;
  for (const step of undo.reverse()) await step();
  lives.length = 0;
  undo.length = 0;
}, CASE_TIMEOUT_MS);

async function setup(tweak?: (c: Config) => void): Promise<Run> {
  const run = { restarted: false } as Run;
  // In the first life a tool result is not answered: the crash after the tool comes first, and a
  // fast answer could otherwise reach the transcript before it.
  const anth = await startFakeAnthropic({
    script: (req) =>
      !run.restarted && req.lastUserToolResults.length > 0 ? { delayMs: 20_000, text: 'late' } : defaultScript(req),
  });
  undo.push(() => anth.close());
  const fake = await startFakeFeishuServer();
  undo.push(() => fake.close());
  const sys = systemRoot(anth.url);
  undo.push(() => sys.cleanup());
  const wrapper = path.join(sys.root, 'claude');
  fs.writeFileSync(wrapper, `#!${process.execPath}\n${fs.readFileSync(WRAPPER, 'utf8')}`, { mode: 0o755 });
  fs.writeFileSync(`${wrapper}.json`, JSON.stringify({ claude: CLAUDE_BIN }));
  const config = systemConfig({
    sys,
    mode: 'sdk',
    feishu: { baseUrl: fake.baseUrl, appSecret: fake.appSecret, appId: newAppId() },
  });
  config.sdk.claude_executable = wrapper;
  config.claude.allowed_tools = ['Read', 'Bash'];
  tweak?.(config);
  const specFile = path.join(sys.root, 'spec.json');
  fs.writeFileSync(specFile, JSON.stringify({ config, env: sys.env, crashOnFinalUpdate: false }));
  onTestFailed(() => {
    if (!fs.existsSync(sys.root)) return;
    for (const f of fs.readdirSync(sys.root).filter((n) => n.startsWith('child-') || n === 'claude.log')) {
      const lines = fs
        .readFileSync(path.join(sys.root, f), 'utf8')
        .split('\n')
        .filter((l) => f === 'claude.log' || /"level":"(warn|error)"|transcript/.test(l));
      console.error(`--- ${f} ---\n${lines.slice(-30).join('\n')}`);
    }
    for (const l of lives) console.error(`--- child stderr ---\n${l.stderr()}`);
  });
  const spool = new Spool(config.queue.spool_dir);
  return Object.assign(run, {
    anth,
    fake,
    sys,
    config,
    spool,
    cwd: sys.project('app'),
    arm: (spec: object) => fs.writeFileSync(`${wrapper}.arm`, JSON.stringify(spec)),
    async life() {
      const l = startChild(specFile, sys);
      lives.push(l);
      await l.ready;
      await fake.waitForConnection();
      return l;
    },
    async send(text: string) {
      const event = textMessageEvent({ openId: OWNER, text });
      expect((await fake.pushEvent(event)).ack.code).toBe(200);
      return { messageId: (event.event.message as { message_id: string }).message_id, eventId: event.header.event_id };
    },
    done: (messageId: string) =>
      fake.waitFor(() => fs.existsSync(spool.pathOf('done', `feishu:${messageId}`)), CASE_TIMEOUT_MS),
    modelCalls: (text: string) => anth.messageRequests().filter((r) => r.scriptRequest?.lastUserText === text).length,
  });
}

/**
 * Life 1 creates the session (one answered message), then runs `prompt` armed at `moment` and is
 * SIGKILLed there; life 2 recovers. Returns the message id once life 2 has finished it.
 */
async function crashAndRecover(
  run: Run,
  moment: string,
  prompt: string,
  o: { marker?: string; meanwhile?: (messageId: string) => Promise<void> } = {},
): Promise<string> {
  const marker = o.marker;
  const first = await run.life();
  const warm = await run.send(`/new ${run.cwd} -- echo: warm-up`);
  await run.done(warm.messageId);
  const [session] = sessionFiles(run.sys, run.cwd);
  run.arm({ moment, ...(marker ? { marker, transcript: sessionPath(run) } : {}) });
  const { messageId, eventId } = await run.send(prompt);
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(await run.spool.locate(`feishu:${messageId}`)).toBe('processing');
  run.restarted = true;

  const second = await run.life();
  // Feishu pushes an event again when the first push was not acknowledged in time; harmless here.
  expect((await run.fake.repush(eventId)).ack.code).toBe(200);
  await o.meanwhile?.(messageId);
  await run.done(messageId);
  second.child.kill('SIGTERM');
  expect(await second.exited).toEqual({ code: 0, signal: null });
  expect(sessionFiles(run.sys, run.cwd)).toEqual([session]);
  expect(await waitNoLeftovers(run.sys.home, 5_000)).toEqual([]);
  return messageId;
}

/** The one session file in the project's Claude directory. */
function sessionPath(run: Run): string {
  const [session] = sessionFiles(run.sys, run.cwd);
  const dir = fs
    .readdirSync(run.sys.paths.claudeProjectsDir)
    .find((d) => fs.existsSync(path.join(run.sys.paths.claudeProjectsDir, d, `${session}.jsonl`)));
  return path.join(run.sys.paths.claudeProjectsDir, dir ?? '', `${session}.jsonl`);
}

/** The callback buttons the streamed reply's card shows now (its CardKit card, after a full update). */
function cardButtons(run: Run, messageId: string): Array<{ label: string; value: unknown; card: SentMessage }> {
  const sent = streamedReply(run.fake, messageId);
  const cardId = sent && cardIdOf(sent);
  const json = cardId ? run.fake.cardJson(cardId) : undefined;
  if (!sent || !json) return [];
  return buttonsOf({ ...sent, content: json } as SentMessage).map((b) => ({ ...b, card: sent }));
}

/** Clicks `label` on the reply card of `messageId` as `openId`; resolves with the toast's type. */
async function clickOn(run: Run, messageId: string, label: string, openId = OWNER): Promise<string> {
  const button = cardButtons(run, messageId).find((b) => b.label === label);
  if (!button) throw new Error(`no ${label} button on the card`);
  const event = cardActionEvent({ openId, value: button.value, messageId: button.card.message_id });
  const { ack } = await run.fake.pushEvent(event);
  return (ack.data as { toast: { type: string } }).toast.type;
}

const cardText = (run: Run, messageId: string) => run.fake.textOf(streamedReply(run.fake, messageId) as SentMessage);
const appendCommand = (file: string) => `node -e "require('fs').appendFileSync('${file}', 'ran\\n')"`;

describe.skipIf(!CLAUDE_BIN)('recovery from the transcript after a SIGKILL of the bridge (real Claude Code)', () => {
  it(
    'the answer reached the transcript but was never finalised: it is delivered from there, the model is not called again',
    async () => {
      const run = await setup();
      const prompt = 'echo: the answer is 42';
      const id = await crashAndRecover(run, 'after-result', prompt, { marker: '"text":"the answer is 42"' });
      expect(run.modelCalls(prompt)).toBe(1);
      expect(run.modelCalls(t('continueInstruction'))).toBe(0);
      expect(repliesTo(run.fake, id)).toHaveLength(1);
      expect(replyTemplate(run.fake, id)).toBe('green');
      expect(cardText(run, id)).toContain('the answer is 42');
      expect(cardText(run, id)).toContain('Recovered from the session transcript');
    },
    3 * CASE_TIMEOUT_MS,
  );

  it(
    'the turn was cut after a Bash tool ran: it is continued, the prompt is not sent again and the tool does not run again',
    async () => {
      const run = await setup();
      const out = path.join(run.cwd, 'ran.txt');
      const prompt = `tool: Bash ${appendCommand(out)}`;
      const id = await crashAndRecover(run, 'after-tool', prompt);
      expect(fs.readFileSync(out, 'utf8')).toBe('ran\n');
      expect(run.modelCalls(prompt)).toBe(1);
      expect(run.modelCalls(t('continueInstruction'))).toBe(1);
      expect(repliesTo(run.fake, id)).toHaveLength(1);
      expect(replyTemplate(run.fake, id)).toBe('green');
      expect(cardText(run, id)).toContain(t('continuedNote'));
      const spooled = await run.spool.read('done', `feishu:${id}`);
      expect(spooled?.run?.continued).toBe(1);
    },
    3 * CASE_TIMEOUT_MS,
  );

  it(
    'runtime.recovery = "ask": the cut turn\'s own card offers Continue / Skip; only the owner\'s Continue counts, once',
    async () => {
      const run = await setup((c) => (c.runtime.recovery = 'ask'));
      const out = path.join(run.cwd, 'ran.txt');
      const prompt = `tool: Bash ${appendCommand(out)}`;
      let late = '';
      const id = await crashAndRecover(run, 'after-tool', prompt, {
        async meanwhile(messageId) {
          await run.fake.waitFor(() => cardButtons(run, messageId).length === 2, CASE_TIMEOUT_MS);
          expect(cardButtons(run, messageId).map((b) => b.label)).toEqual([t('continueButton'), t('skipButton')]);
          expect(run.modelCalls(t('continueInstruction'))).toBe(0);
          expect(await clickOn(run, messageId, t('continueButton'), 'ou_stranger')).toBe('error');
          const buttons = cardButtons(run, messageId);
          expect(await clickOn(run, messageId, t('continueButton'))).not.toBe('error');
          await run.done(messageId);
          // The same button clicked again, from the card as it was: nothing is waiting any more.
          const again = buttons.find((b) => b.label === t('skipButton')) as (typeof buttons)[number];
          const { ack } = await run.fake.pushEvent(
            cardActionEvent({ openId: OWNER, value: again.value, messageId: again.card.message_id }),
          );
          late = (ack.data as { toast: { type: string } }).toast.type;
        },
      });
      expect(late).toBe('warning');
      expect(fs.readFileSync(out, 'utf8')).toBe('ran\n');
      expect(run.modelCalls(prompt)).toBe(1);
      expect(run.modelCalls(t('continueInstruction'))).toBe(1);
      expect(replyTemplate(run.fake, id)).toBe('green');
      expect(cardText(run, id)).toContain(t('continuedNote'));
    },
    3 * CASE_TIMEOUT_MS,
  );

  it(
    'the prompt never reached Claude Code: it is sent once, after the restart',
    async () => {
      const run = await setup();
      const out = path.join(run.cwd, 'ran.txt');
      const prompt = `tool: Bash ${appendCommand(out)}`;
      const id = await crashAndRecover(run, 'before-prompt', prompt);
      expect(fs.readFileSync(out, 'utf8')).toBe('ran\n');
      expect(run.modelCalls(prompt)).toBe(1);
      expect(run.modelCalls(t('continueInstruction'))).toBe(0);
      expect(replyTemplate(run.fake, id)).toBe('green');
      expect(cardText(run, id)).toContain('tool-result: ok');
      expect(cardText(run, id)).not.toContain(t('continuedNote'));
    },
    3 * CASE_TIMEOUT_MS,
  );
});
