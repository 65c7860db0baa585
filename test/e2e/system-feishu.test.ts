// Full-system end-to-end tests: `assembleDaemon` — what `cc-linker start` runs —
// with the REAL Feishu SDK against the in-repo fake Feishu server and the REAL bundled Claude Code
// binary against the in-repo fake Anthropic API. Every assertion is on what the user would see
// (the fake Feishu server's records) or on what Claude was asked (the fake Anthropic's records).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { encodeProjectDir } from '../fakes/fake-anthropic/claude-sandbox.js';
import { SLOW_TICKS } from '../fakes/fake-anthropic/default-script.js';
import { cardActionEvent, type SentMessage } from '../fakes/fake-feishu/fake-feishu-server.js';
import { maxInWindow } from './feishu-harness.js';
import {
  buttonsOf,
  CASE_TIMEOUT_MS,
  cardIdOf,
  CLAUDE_BIN,
  click,
  OWNER,
  promptCard,
  repliesTo,
  replyTemplate,
  runClaude,
  sessionFiles,
  showLogOnFailure,
  startSystem,
  streamedReply,
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
