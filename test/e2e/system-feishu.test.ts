// Full-system end-to-end tests: `assembleDaemon` — what `cc-linker start` runs —
// with the REAL Feishu SDK against the in-repo fake Feishu server and the REAL bundled Claude Code
// binary against the in-repo fake Anthropic API. Every assertion is on what the user would see
// (the fake Feishu server's records) or on what Claude was asked (the fake Anthropic's records).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { Spool } from '../../src/bridge/spool/spool.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { PermissionStore } from '../../src/claude/permission-store.js';
import { startFakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { encodeProjectDir } from '../fakes/fake-anthropic/claude-sandbox.js';
import { SLOW_TICKS } from '../fakes/fake-anthropic/default-script.js';
import {
  cardActionEvent,
  startFakeFeishuServer,
  textMessageEvent,
  type SentMessage,
} from '../fakes/fake-feishu/fake-feishu-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import { maxInWindow } from './feishu-harness.js';
import {
  buttonsOf,
  CASE_TIMEOUT_MS,
  cardIdOf,
  CLAUDE_BIN,
  click,
  newAppId,
  OWNER,
  promptCard,
  repliesTo,
  replyFinished,
  replyTemplate,
  runClaude,
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

const STRANGER = 'ou_0b7d3e9f1a2c4b6d8e0f1a3c5e7b9d11';
const en = bridgeMessages('en');

describe.skipIf(!CLAUDE_BIN)('the whole system over Feishu, sdk mode (real SDK, real Claude Code)', () => {
  let s: System;
  let terminalSession: { id: string; cwd: string };

  beforeAll(async () => {
    // stream.throttle_ms bounds whole-card patches only (CardKit has its own spacing); a short one
    // makes the fallback case able to exceed Feishu's 5 patches/s if the channel did not space them.
    // A session started in a terminal before cc-linker runs (one real `claude -p`, as the user would):
    // the start-up sync puts it in the registry, so /switch can find it.
    s = await startSystem('sdk', {
      tweak: (c) => (c.stream.throttle_ms = 100),
      async prepare(sys) {
        const cwd = sys.project('terminal');
        const out = await runClaude(['-p', '--output-format', 'json'], 'echo: from the terminal', cwd, sys.env);
        terminalSession = { id: (JSON.parse(out) as { session_id: string }).session_id, cwd };
      },
    });
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
  }, CASE_TIMEOUT_MS);

  it(
    'plain text with no target: the guidance, and Claude is not run',
    async () => {
      showLogOnFailure(() => s);
      const before = s.anth.requests.length;
      const { messageId, push } = await s.send('what does this project do?');
      expect(push.ack.code).toBe(200);
      await s.runtime.bridge.whenIdle();
      await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
      const [reply] = repliesTo(s.fake, messageId);
      expect(reply?.msg_type).toBe('text');
      expect(s.fake.textOf(reply as SentMessage)).toBe(en('noTarget'));
      expect(s.anth.requests.length).toBe(before);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'existing session: /switch to a terminal session, then plain text resumes it and the answer streams into one card',
    async () => {
      showLogOnFailure(() => s);
      const { id, cwd } = terminalSession;
      const sw = await s.send(`/switch ${id.slice(0, 8)}`);
      await s.fake.waitFor(() => repliesTo(s.fake, sw.messageId).length === 1);
      const switched = s.fake.textOf(repliesTo(s.fake, sw.messageId)[0] as SentMessage);
      expect(switched).toContain(id.slice(0, 8));
      expect(switched).toContain('Switched');

      const { messageId } = await s.send('echo: continued from Feishu');
      await s.finished(messageId);
      expect(replyTemplate(s.fake, messageId)).toBe('green');
      expect(s.answer(messageId)).toContain('continued from Feishu');
      expect(repliesTo(s.fake, messageId)).toHaveLength(1);
      // Resumed, not new: the request carried the terminal turn, and the same session file grew.
      const req = s.anth.messageRequests().find((r) => r.scriptRequest?.lastUserText === 'echo: continued from Feishu');
      expect(JSON.stringify(req?.scriptRequest?.messages)).toContain('from the terminal');
      expect(sessionFiles(s.sys, cwd)).toEqual([id]);
      expect(
        fs.readFileSync(path.join(s.sys.paths.claudeProjectsDir, encodeProjectDir(cwd), `${id}.jsonl`), 'utf8'),
      ).toContain('continued from Feishu');
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
        type: 'session',
        sessionUuid: id,
        cwd,
      });
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '/new <cwd> -- <prompt>: a new session is created in that directory, the mapping switches to it, the answer streams in',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('fresh');
      const { messageId } = await s.send(`/new ${cwd} -- echo: hello from a new session`);
      await s.finished(messageId);
      expect(replyTemplate(s.fake, messageId)).toBe('green');
      expect(s.answer(messageId)).toContain('hello from a new session');
      expect(s.runsOf('echo: hello from a new session')).toBe(1);
      const created = sessionFiles(s.sys, cwd);
      expect(created).toHaveLength(1);
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
        type: 'session',
        sessionUuid: created[0],
        cwd,
      });
      // The request was a fresh conversation: only this prompt.
      const req = s.anth
        .messageRequests()
        .find((r) => r.scriptRequest?.lastUserText === 'echo: hello from a new session');
      expect(req?.scriptRequest?.messages.filter((m) => (m as { role: string }).role === 'user')).toHaveLength(1);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '/new <cwd>, then plain text: the directory is pending, the text claims it and creates the session',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('pending');
      const before = s.anth.requests.length;
      const setup = await s.send(`/new ${cwd}`);
      await s.fake.waitFor(() => repliesTo(s.fake, setup.messageId).length === 1);
      expect(s.fake.textOf(repliesTo(s.fake, setup.messageId)[0] as SentMessage)).toContain('Send your first message');
      await s.runtime.bridge.whenIdle();
      expect(s.anth.requests.length).toBe(before); // nothing runs until the first message
      const mapping = new UserMapping(s.sys.paths.userMappingFile);
      expect(await mapping.get(OWNER)).toMatchObject({ type: 'pending_new_session', cwd });

      const { messageId } = await s.send('echo: first message here');
      await s.finished(messageId);
      expect(s.answer(messageId)).toContain('first message here');
      const created = sessionFiles(s.sys, cwd);
      expect(created).toHaveLength(1);
      expect(await mapping.get(OWNER)).toMatchObject({ type: 'session', sessionUuid: created[0], cwd });
      expect(s.runsOf('echo: first message here')).toBe(1);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'permission: Allow on the card runs the tool (file created); a replayed click changes nothing',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('perm-allow');
      const { messageId } = await s.send(`/new ${cwd} -- tool: Bash touch x`);
      await s.fake.waitFor(() => promptCard(s.fake, messageId) !== undefined, CASE_TIMEOUT_MS);
      const card = promptCard(s.fake, messageId) as SentMessage;
      expect(buttonsOf(card).map((b) => b.label)).toEqual(['Allow', 'Deny', 'Always allow']);
      expect(s.fake.textOf(card)).toContain('touch x');
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false); // waiting for the click

      expect(await click(s.fake, card, 'Allow')).toMatchObject({ type: 'success', content: 'Allowed' });
      await s.finished(messageId);
      expect(s.answer(messageId)).toContain('tool-result: ok');
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(true);
      // The same click again (a replay): the prompt is settled, nothing changes.
      expect((await click(s.fake, card, 'Deny')).type).toBe('warning');
      expect(sessionFiles(s.sys, cwd)).toHaveLength(1);
      expect(fs.existsSync(s.sys.paths.permissionsFile)).toBe(false); // a one-off allow remembers nothing
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'permission: Deny on the card — the tool does not run and the answer says it was denied',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('perm-deny');
      const { messageId } = await s.send(`/new ${cwd} -- tool: Bash touch x`);
      await s.fake.waitFor(() => promptCard(s.fake, messageId) !== undefined, CASE_TIMEOUT_MS);
      expect(await click(s.fake, promptCard(s.fake, messageId) as SentMessage, 'Deny')).toMatchObject({
        content: 'Denied',
      });
      await s.finished(messageId);
      const answer = s.answer(messageId);
      expect(answer).toContain('tool-result: error');
      expect(answer).toContain('The user denied this action');
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'permission: Always allow runs it, persists the rule, and the next run is not asked',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('perm-always');
      const first = await s.send(`/new ${cwd} -- tool: Bash touch x`);
      await s.fake.waitFor(() => promptCard(s.fake, first.messageId) !== undefined, CASE_TIMEOUT_MS);
      expect(await click(s.fake, promptCard(s.fake, first.messageId) as SentMessage, 'Always allow')).toMatchObject({
        type: 'success',
        content: 'Allowed, rule remembered',
      });
      await s.finished(first.messageId);
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(true);
      const stored = JSON.parse(fs.readFileSync(s.sys.paths.permissionsFile, 'utf8')) as {
        data: { rules: Array<{ rule: string; userId: string }> };
      };
      expect(stored.data.rules).toEqual([expect.objectContaining({ rule: 'Bash(touch x *)', userId: OWNER })]);
      expect(fs.statSync(s.sys.paths.permissionsFile).mode & 0o777).toBe(0o600);
      // Our rule store, not Claude Code's: nothing written into the user's project.
      expect(fs.existsSync(path.join(cwd, '.claude', 'settings.local.json'))).toBe(false);

      fs.rmSync(path.join(cwd, 'x'));
      const second = await s.send('tool: Bash touch x');
      await s.finished(second.messageId);
      expect(s.answer(second.messageId)).toContain('tool-result: ok');
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(true);
      expect(promptCard(s.fake, second.messageId)).toBeUndefined();
      expect(repliesTo(s.fake, second.messageId)).toHaveLength(1);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'AskUserQuestion: the options are buttons; clicking "blue" answers Claude',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('ask');
      const { messageId } = await s.send(`/new ${cwd} -- ask: Which color? | red | blue`);
      await s.fake.waitFor(() => promptCard(s.fake, messageId) !== undefined, CASE_TIMEOUT_MS);
      const card = promptCard(s.fake, messageId) as SentMessage;
      expect(buttonsOf(card).map((b) => b.label)).toEqual(['red', 'blue']);
      expect(s.fake.textOf(card)).toContain('Which color?');
      expect((await click(s.fake, card, 'blue')).type).toBe('success');
      await s.finished(messageId);
      expect(s.answer(messageId)).toContain('answered: blue');
      const answered = s.anth
        .messageRequests()
        .flatMap((r) => r.scriptRequest?.lastUserToolResults ?? [])
        .find((t) => t.toolName === 'AskUserQuestion');
      expect(answered?.is_error).toBe(false);
      expect(answered?.content).toContain('"Which color?"="blue"');
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a slow answer streams into the card within CardKit limits (≤ 10 ops/s, sequences strictly increasing)',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('slow');
      const { messageId } = await s.send(`/new ${cwd} -- slow: 50`);
      await s.finished(messageId);
      const cardId = cardIdOf(streamedReply(s.fake, messageId) as SentMessage) as string;
      const ops = s.fake.cardkit.filter((o) => o.card_id === cardId);
      expect(ops[0]?.op).toBe('create');
      const sequences = ops.slice(1).map((o) => o.sequence as number);
      expect(sequences.every((q, i) => i === 0 || q > (sequences[i - 1] as number))).toBe(true);
      expect(
        maxInWindow(
          ops.map((o) => o.at),
          1000,
        ),
      ).toBeLessThanOrEqual(10);
      expect(s.fake.requests.filter((r) => r.path.startsWith('/open-apis/cardkit') && r.status !== 200)).toEqual([]);
      expect(s.fake.patches.filter((p) => p.message_id === streamedReply(s.fake, messageId)?.message_id)).toEqual([]);
      // The text really streamed: several growing prefixes before the final card.
      const answers = ops
        .filter((o) => o.op === 'content' && o.element_id === 'answer' && (o.content ?? '').includes('tick'))
        .map((o) => o.content ?? '');
      expect(answers.length).toBeGreaterThan(3);
      expect(answers.every((a, i) => i === 0 || a.length >= (answers[i - 1] as string).length)).toBe(true);
      expect(ops.slice(-2).map((o) => o.op)).toEqual(['settings', 'update']);
      const all = Array.from({ length: SLOW_TICKS }, (_, i) => `tick${String(i).padStart(2, '0')}`).join(' ');
      expect(s.answer(messageId)).toContain(all);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a re-pushed event is processed once: one Claude run, one reply',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('repush');
      const { messageId, eventId } = await s.send(`/new ${cwd} -- echo: only once`);
      // Feishu re-pushes while the first delivery is still running, and again later.
      expect((await s.fake.repush(eventId)).ack.code).toBe(200);
      await s.finished(messageId);
      expect((await s.fake.repush(eventId)).ack.code).toBe(200);
      await s.runtime.bridge.whenIdle();
      expect(s.runsOf('echo: only once')).toBe(1);
      expect(repliesTo(s.fake, messageId)).toHaveLength(1);
      expect(sessionFiles(s.sys, cwd)).toHaveLength(1);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a non-owner gets only the fixed refusal, a group message gets nothing; Claude is never asked',
    async () => {
      showLogOnFailure(() => s);
      const before = s.anth.requests.length;
      const sentBefore = s.fake.sent.length;
      const group = await s.send('echo: hello group', { chatType: 'group' });
      expect(group.push.ack.code).toBe(200);
      const stranger = await s.send('echo: let me in', { openId: STRANGER });
      expect(stranger.push.ack.code).toBe(200);
      await s.fake.waitFor(() => repliesTo(s.fake, stranger.messageId).length === 1);
      await s.runtime.bridge.whenIdle();
      const refusal = repliesTo(s.fake, stranger.messageId)[0] as SentMessage;
      expect(refusal.msg_type).toBe('text');
      expect(s.fake.textOf(refusal)).toBe(en('notOwner'));
      expect(repliesTo(s.fake, group.messageId)).toEqual([]);
      expect(s.fake.sent.length).toBe(sentBefore + 1);
      expect(s.anth.requests.length).toBe(before);
      // A stranger's click (here on a forged permission button) is refused before anything else.
      const { ack } = await s.fake.pushEvent(
        cardActionEvent({
          openId: STRANGER,
          value: { type: 'permission', requestId: 'toolu_forged', nonce: 'forged', decision: 'allow' },
        }),
      );
      expect((ack.data as { toast: { type: string } }).toast.type).toBe('error');
      expect(s.anth.requests.length).toBe(before);
    },
    CASE_TIMEOUT_MS,
  );

  // Last in this runtime: once CardKit is refused the channel keeps to message patches for a while.
  it(
    'CardKit refused: the answer streams by message patch instead, ≤ 5 patches/s, and completes',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('fallback');
      s.fake.failNext(
        { method: 'POST', pathPrefix: '/open-apis/cardkit/v1/cards' },
        { status: 400, code: 300301, msg: 'cardkit not enabled for this app' },
      );
      const cardkitBefore = s.fake.cardkit.length;
      const { messageId } = await s.send(`/new ${cwd} -- slow: 50`);
      // A patch-mode card is the card JSON itself: wait for its final (green, streaming off) version.
      const reply = () => repliesTo(s.fake, messageId).find((m) => m.msg_type === 'interactive');
      const current = () => {
        const m = reply();
        const patches = s.fake.patches.filter((p) => p.message_id === m?.message_id);
        return (patches.at(-1)?.content ?? m?.content) as { header?: { template?: string } } | undefined;
      };
      await s.fake.waitFor(() => current()?.header?.template === 'green', CASE_TIMEOUT_MS);
      const m = reply() as SentMessage;
      expect(cardIdOf(m)).toBeUndefined();
      expect(s.fake.cardkit.length).toBe(cardkitBefore);
      const patches = s.fake.patches.filter((p) => p.message_id === m.message_id);
      expect(patches.length).toBeGreaterThan(2); // streamed, not only the final card
      expect(
        maxInWindow(
          patches.map((p) => p.at),
          1000,
        ),
      ).toBeLessThanOrEqual(5);
      expect(
        s.fake.requests.filter((r) => r.method === 'PATCH' && r.path.startsWith('/open-apis/im/') && r.status !== 200),
      ).toEqual([]);
      const all = Array.from({ length: SLOW_TICKS }, (_, i) => `tick${String(i).padStart(2, '0')}`).join(' ');
      expect(s.fake.textOf(m)).toContain(all);
      expect(repliesTo(s.fake, messageId)).toHaveLength(1);
    },
    CASE_TIMEOUT_MS,
  );
});

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
