// The whole system over Feishu beyond the sdk mode's conversation: the `-p` modes (stream-json,
// json) and a crash after the reply but before it is marked done — `assembleDaemon` with the REAL
// Feishu SDK against the fake Feishu server and the REAL Claude Code against the fake Anthropic API.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { Spool } from '../../src/bridge/spool/spool.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { PermissionStore } from '../../src/claude/permission-store.js';
import { startFakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { startFakeFeishuServer, textMessageEvent, type SentMessage } from '../fakes/fake-feishu/fake-feishu-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  newAppId,
  OWNER,
  promptCard,
  repliesTo,
  replyFinished,
  replyTemplate,
  sessionFiles,
  showLogOnFailure,
  startChild,
  startSystem,
  streamedReply,
  systemConfig,
  systemRoot,
  type ChildLife,
  type System,
} from './system-harness.js';

describe.skipIf(!CLAUDE_BIN)('the whole system over Feishu, the -p modes', () => {
  let s: System | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  }, CASE_TIMEOUT_MS);

  it(
    'stream-json: /new -- <prompt> answers in a card; a tool needing approval is denied (no card to ask), and the card says so',
    async () => {
      s = await startSystem('stream-json');
      showLogOnFailure(() => s);
      const sys = s;
      const cwd = sys.sys.project('stream-json');
      const { messageId } = await sys.send(`/new ${cwd} -- tool: Bash touch x`);
      await sys.finished(messageId);
      expect(replyTemplate(sys.fake, messageId)).toBe('green');
      const answer = sys.answer(messageId);
      expect(answer).toContain('tool-result: error');
      expect(answer).toContain('These tools were denied: Bash');
      expect(promptCard(sys.fake, messageId)).toBeUndefined();
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false);
      const created = sessionFiles(sys.sys, cwd);
      expect(created).toHaveLength(1);
      expect(await new UserMapping(sys.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
        type: 'session',
        sessionUuid: created[0],
        cwd,
      });
      expect(sys.runsOf('tool: Bash touch x')).toBe(1);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'json: /new -- <prompt> answers in a card; an "always allow" rule stored earlier lets the tool run',
    async () => {
      s = await startSystem('json', {
        async prepare(sys) {
          await new PermissionStore(sys.paths.permissionsFile).add('Bash(touch ok *)', {
            userId: OWNER,
            source: 'Bash: touch ok',
          });
        },
      });
      showLogOnFailure(() => s);
      const sys = s;
      const cwd = sys.sys.project('json');
      const { messageId } = await sys.send(`/new ${cwd} -- tool: Bash touch ok`);
      await sys.finished(messageId);
      expect(replyTemplate(sys.fake, messageId)).toBe('green');
      expect(sys.answer(messageId)).toContain('tool-result: ok');
      expect(fs.existsSync(path.join(cwd, 'ok'))).toBe(true);
      expect(repliesTo(sys.fake, messageId)).toHaveLength(1);
      const created = sessionFiles(sys.sys, cwd);
      expect(created).toHaveLength(1);
      expect(await new UserMapping(sys.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
        type: 'session',
        sessionUuid: created[0],
        cwd,
      });
    },
    CASE_TIMEOUT_MS,
  );
});

describe.skipIf(!CLAUDE_BIN)('the whole system over Feishu: a crash after the reply, before it is marked done', () => {
  const lives: ChildLife[] = [];
  const undo: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const l of lives) if (l.child.exitCode === null && l.child.signalCode === null) l.child.kill('SIGKILL');
    for (const l of lives) await l.exited;
    for (const step of undo.reverse()) await step();
    lives.length = 0;
    undo.length = 0;
  }, CASE_TIMEOUT_MS);

  it(
    'SIGKILL right after Feishu recorded the final card update: after a restart and a re-push, still one reply and one Claude run',
    async () => {
      const anth = await startFakeAnthropic();
      undo.push(() => anth.close());
      const fake = await startFakeFeishuServer();
      undo.push(() => fake.close());
      const sys = systemRoot(anth.url);
      undo.push(() => sys.cleanup());
      const config = systemConfig({
        sys,
        mode: 'sdk',
        feishu: { baseUrl: fake.baseUrl, appSecret: fake.appSecret, appId: newAppId() },
      });
      const specFile = (crash: boolean) => {
        const file = path.join(sys.root, crash ? 'spec-crash.json' : 'spec.json');
        fs.writeFileSync(file, JSON.stringify({ config, env: sys.env, crashOnFinalUpdate: crash }));
        return file;
      };
      onTestFailed(() => {
        for (const f of fs.readdirSync(sys.root).filter((n) => n.startsWith('child-'))) {
          const lines = fs
            .readFileSync(path.join(sys.root, f), 'utf8')
            .split('\n')
            .filter((l) => /"level":"(warn|error)"/.test(l));
          console.error(`--- ${f} (warn/error) ---\n${lines.slice(-30).join('\n')}`);
        }
        for (const l of lives) console.error(`--- child stderr ---\n${l.stderr()}`);
      });
      const cwd = sys.project('crash');
      const prompt = 'echo: answered exactly once';
      const spool = new Spool(config.queue.spool_dir);

      // Life 1: accepts the message, runs Claude, streams the card — and dies on the final update.
      const first = startChild(specFile(true), sys);
      lives.push(first);
      await first.ready;
      await fake.waitForConnection();
      const event = textMessageEvent({ openId: OWNER, text: `/new ${cwd} -- ${prompt}` });
      const messageId = (event.event.message as { message_id: string }).message_id;
      expect((await fake.pushEvent(event)).ack.code).toBe(200);
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      // The user already sees the complete answer; the spool still has the message in processing/.
      expect(replyFinished(fake, messageId)).toBe(true);
      expect(replyTemplate(fake, messageId)).toBe('green');
      expect(fake.textOf(streamedReply(fake, messageId) as SentMessage)).toContain('answered exactly once');
      expect(await spool.locate(`feishu:${messageId}`)).toBe('processing');
      const sentBefore = fake.sent.length;

      // Life 2: recovers the spool and finishes the delivery; Feishu re-pushes the event meanwhile.
      const second = startChild(specFile(false), sys);
      lives.push(second);
      await second.ready;
      await fake.waitForConnection();
      expect((await fake.repush(event.header.event_id)).ack.code).toBe(200);
      await fake.waitFor(() => fs.existsSync(spool.pathOf('done', `feishu:${messageId}`)), CASE_TIMEOUT_MS);
      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });

      expect(repliesTo(fake, messageId)).toHaveLength(1);
      expect(fake.sent.length).toBe(sentBefore);
      expect(anth.messageRequests().filter((r) => r.scriptRequest?.lastUserText === prompt)).toHaveLength(1);
      expect(replyTemplate(fake, messageId)).toBe('green');
      expect(fake.textOf(streamedReply(fake, messageId) as SentMessage)).toContain('answered exactly once');
      expect(sessionFiles(sys, cwd)).toHaveLength(1);
      expect(await waitNoLeftovers(sys.home, 5_000)).toEqual([]);
    },
    2 * CASE_TIMEOUT_MS,
  );
});
