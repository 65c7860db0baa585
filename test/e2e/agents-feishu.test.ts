// Other agents through the whole daemon over Feishu: `assembleDaemon` with `[agents.codex]`
// pointed at the REAL codex-acp binary (its model a fake Responses API on 127.0.0.1) and
// `[agents.qwen]` at the REAL Qwen Code (a fake chat-completions API), the real Feishu SDK against
// the fake Feishu server. What the user sees is read from the fake Feishu server; what the agent
// was asked, from its fake model. Qwen Code takes 15–25 s a turn here (start-up, and the wait
// before its first tool call), so its block is a few cases on one daemon; the rest of its
// behaviour is in acp-engine-real.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { readRegistry } from '../../src/sessions/registry/registry.js';
import type { SentMessage } from '../fakes/fake-feishu/fake-feishu-server.js';
import {
  buttonsOf,
  CASE_TIMEOUT_MS,
  cardIdOf,
  CLAUDE_BIN,
  click,
  CODEX_BIN,
  OWNER,
  promptCard,
  QWEN_BIN,
  repliesTo,
  replyFinished,
  replyTemplate,
  showLogOnFailure,
  startSystem,
  streamedReply,
  type System,
} from './system-harness.js';

const MARKER_COMMAND = 'touch ran-marker && echo cc-linker-$((40 + 2))';
const MARKER = 'cc-linker-42';

/** The header title of the streamed reply card to `messageId`. */
function replyTitle(s: System, messageId: string): string | undefined {
  const m = streamedReply(s.fake, messageId);
  const cardId = m && cardIdOf(m);
  const card = cardId
    ? (s.fake.cardJson(cardId) as { header?: { title?: { content?: string } } } | undefined)
    : undefined;
  return card?.header?.title?.content;
}

/**
 * Waits until the reply to `messageId` is final and the bridge is idle: an ACP agent is ended a
 * moment after its answer, and a message sent meanwhile would be queued behind it.
 */
async function turnOver(s: System, messageId: string): Promise<void> {
  await s.finished(messageId);
  await s.runtime.bridge.whenIdle();
}

/**
 * After `/new <cwd> --agent <agent> -- hello`: a green card titled with the agent answering it, one
 * reply, the agent's model asked once and Claude not at all, the owner mapped to the new session,
 * registered under the agent (active) with its file in the agent's `storage`. Returns its id.
 */
async function expectNewSession(
  s: System,
  messageId: string,
  o: { agent: string; title: string; cwd: string; prompts: unknown[]; storage: string; anthropicBefore: number },
): Promise<string> {
  expect(replyTemplate(s.fake, messageId)).toBe('green');
  expect(replyTitle(s, messageId)).toContain(o.title);
  expect(s.answer(messageId)).toContain('ok: hello');
  expect(repliesTo(s.fake, messageId)).toHaveLength(1);
  expect(o.prompts).toEqual(['hello']);
  expect(s.anth.requests.length).toBe(o.anthropicBefore); // Claude was not involved
  const mapped = (await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)) as {
    type: string;
    sessionUuid: string;
    cwd: string;
  };
  expect(mapped).toMatchObject({ type: 'session', cwd: o.cwd });
  const entry = (await readRegistry(s.sys.paths)).registry.sessions[mapped.sessionUuid];
  expect(entry).toMatchObject({ agent: o.agent, cwd: o.cwd, status: 'active' });
  expect(entry?.jsonl_path).toContain(o.storage);
  expect(entry?.jsonl_path).toContain(`${mapped.sessionUuid}.jsonl`);
  return mapped.sessionUuid;
}

/** The text of the one plain reply to a command message. */
async function commandReply(s: System, text: string): Promise<string> {
  const { messageId } = await s.send(text);
  await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
  return s.fake.textOf(repliesTo(s.fake, messageId)[0] as SentMessage);
}

describe.skipIf(!CLAUDE_BIN || !CODEX_BIN)('Codex through the whole system over Feishu', () => {
  let s: System;
  let cwd: string;
  let sessionId: string;

  beforeAll(async () => {
    s = await startSystem('sdk', { agents: ['codex'] });
    cwd = s.sys.project('codex-work');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
  }, CASE_TIMEOUT_MS);

  const codexCalls = () => (s.codex?.fake.calls ?? []).filter((c) => c.request.stream).map((c) => c.request);

  it(
    '/new <dir> --agent codex -- hello: a Codex session streams its answer into a card titled with the agent',
    async () => {
      showLogOnFailure(() => s);
      const anthropicBefore = s.anth.requests.length;
      const { messageId } = await s.send(`/new ${cwd} --agent codex -- hello`);
      await turnOver(s, messageId);
      sessionId = await expectNewSession(s, messageId, {
        agent: 'codex',
        title: 'Codex',
        cwd,
        prompts: codexCalls().map((r) => r.lastUserText),
        storage: path.join(s.sys.home, '.codex', 'sessions'),
        anthropicBefore,
      });
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a follow-up text continues the same Codex session: the model sees the earlier prompt',
    async () => {
      showLogOnFailure(() => s);
      const { messageId } = await s.send('and a follow-up');
      await turnOver(s, messageId);
      expect(replyTemplate(s.fake, messageId)).toBe('green');
      expect(s.answer(messageId)).toContain('ok: and a follow-up');
      expect(s.answer(messageId)).not.toContain('ok: hello'); // the replayed history is not this turn's answer
      const last = codexCalls().at(-1);
      expect(last?.lastUserText).toBe('and a follow-up');
      expect(last?.userTexts).toEqual(expect.arrayContaining(['hello', 'and a follow-up']));
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
        type: 'session',
        sessionUuid: sessionId,
      });
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'RUN: the Allow / Deny / Always allow card; a click on Allow runs the command and the answer quotes it',
    async () => {
      showLogOnFailure(() => s);
      const { messageId } = await s.send(`RUN: ${MARKER_COMMAND}`);
      await s.fake.waitFor(() => promptCard(s.fake, messageId) !== undefined, CASE_TIMEOUT_MS);
      const card = promptCard(s.fake, messageId) as SentMessage;
      expect(buttonsOf(card).map((b) => b.label)).toEqual(['Allow', 'Deny', 'Always allow']);
      expect(s.fake.textOf(card)).toContain('touch ran-marker');
      expect(fs.existsSync(path.join(cwd, 'ran-marker'))).toBe(false); // waiting for the click

      expect(await click(s.fake, card, 'Allow')).toMatchObject({ type: 'success', content: 'Allowed' });
      await turnOver(s, messageId);
      expect(replyTemplate(s.fake, messageId)).toBe('green');
      expect(fs.existsSync(path.join(cwd, 'ran-marker'))).toBe(true);
      expect(s.answer(messageId)).toContain(MARKER);
      expect(codexCalls().at(-1)?.toolResults.join('\n')).toContain(MARKER);
      // A one-off allow remembers nothing.
      expect(fs.existsSync(s.sys.paths.agentPermissionsFile)).toBe(false);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'RUN: a click on Deny — nothing runs',
    async () => {
      showLogOnFailure(() => s);
      const { messageId } = await s.send('RUN: touch denied-marker');
      await s.fake.waitFor(() => promptCard(s.fake, messageId) !== undefined, CASE_TIMEOUT_MS);
      expect(await click(s.fake, promptCard(s.fake, messageId) as SentMessage, 'Deny')).toMatchObject({
        content: 'Denied',
      });
      await turnOver(s, messageId);
      expect(fs.existsSync(path.join(cwd, 'denied-marker'))).toBe(false);
      expect(codexCalls().some((c) => c.toolResults.length > 0 && c.lastUserText === 'RUN: touch denied-marker')).toBe(
        false,
      );
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'RUN: Always allow runs it and stores the rule in our store; the same command next time is not asked',
    async () => {
      showLogOnFailure(() => s);
      const command = 'touch always-marker';
      const first = await s.send(`RUN: ${command}`);
      await s.fake.waitFor(() => promptCard(s.fake, first.messageId) !== undefined, CASE_TIMEOUT_MS);
      expect(await click(s.fake, promptCard(s.fake, first.messageId) as SentMessage, 'Always allow')).toMatchObject({
        type: 'success',
        content: 'Allowed, rule remembered',
      });
      await turnOver(s, first.messageId);
      expect(fs.existsSync(path.join(cwd, 'always-marker'))).toBe(true);
      const stored = JSON.parse(fs.readFileSync(s.sys.paths.agentPermissionsFile, 'utf8')) as {
        data: { rules: Array<{ agent: string; kind: string; command: string; userId?: string }> };
      };
      expect(stored.data.rules).toEqual([
        expect.objectContaining({ agent: 'codex', kind: 'execute', command, userId: OWNER }),
      ]);
      // Nothing in Claude Code's rule store, nothing in the project.
      expect(fs.existsSync(s.sys.paths.permissionsFile)).toBe(false);
      expect(fs.existsSync(path.join(cwd, '.codex'))).toBe(false);

      fs.rmSync(path.join(cwd, 'always-marker'));
      const second = await s.send(`RUN: ${command}`);
      await turnOver(s, second.messageId);
      expect(replyTemplate(s.fake, second.messageId)).toBe('green');
      expect(fs.existsSync(path.join(cwd, 'always-marker'))).toBe(true);
      expect(promptCard(s.fake, second.messageId)).toBeUndefined();
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "/model in a Codex session lists Codex's own models; choosing one makes the next turn use it",
    async () => {
      showLogOnFailure(() => s);
      const { messageId } = await s.send('/model');
      await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
      const card = s.fake.textOf(repliesTo(s.fake, messageId)[0] as SentMessage);
      expect(card).toContain('Models · Codex');
      const ids = [...card.matchAll(/^(\d+)\. (\S+)/gm)].map((m) => m[2] as string);
      expect(ids.length).toBeGreaterThan(1);
      expect(ids).toContain('gpt-5.4'); // config.toml's model
      const chosen = ids.find((id) => id !== 'gpt-5.4') as string;
      const set = await commandReply(s, `/model ${ids.indexOf(chosen) + 1}`);
      expect(set).toContain(chosen);

      const turn = await s.send('which model now');
      await turnOver(s, turn.messageId);
      expect(replyTemplate(s.fake, turn.messageId)).toBe('green');
      const used = codexCalls().at(-1);
      expect(used?.lastUserText).toBe('which model now');
      expect(used?.model).toBe(chosen);
      expect(codexCalls()[0]?.model).toBe('gpt-5.4'); // the config's model before
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a Claude Code session in between, then /switch back to the Codex session: text goes to Codex again',
    async () => {
      showLogOnFailure(() => s);
      const claudeDir = s.sys.project('claude-work');
      const claude = await s.send(`/new ${claudeDir} -- echo: claude in between`);
      await turnOver(s, claude.messageId);
      expect(s.answer(claude.messageId)).toContain('claude in between');
      expect(s.runsOf('echo: claude in between')).toBe(1);

      const switched = await commandReply(s, `/switch ${sessionId.slice(0, 8)}`);
      expect(switched).toContain('Switched');
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
        type: 'session',
        sessionUuid: sessionId,
        cwd,
      });
      const codexBefore = codexCalls().length;
      const back = await s.send('back to codex');
      await turnOver(s, back.messageId);
      expect(s.answer(back.messageId)).toContain('ok: back to codex');
      expect(codexCalls().length).toBeGreaterThan(codexBefore);
      expect(codexCalls().at(-1)?.userTexts).toEqual(expect.arrayContaining(['hello', 'back to codex']));
      expect(s.runsOf('back to codex')).toBe(0); // not sent to Claude
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '/list shows the Codex session with its agent',
    async () => {
      showLogOnFailure(() => s);
      const list = await commandReply(s, '/list');
      expect(list).toContain('Codex');
      expect(list).toContain('codex-work');
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '/agent lists the agents (Codex installed) and the one /new uses',
    async () => {
      showLogOnFailure(() => s);
      const text = await commandReply(s, '/agent');
      expect(text).toContain('codex — Codex');
      expect(text).toContain('claude — Claude Code');
      expect(text).toMatch(/Codex[^\n]*current|current[^\n]*Codex/i);
    },
    CASE_TIMEOUT_MS,
  );
});

/** Limit of one Qwen Code case: a new process per turn (≈10 s to start here) and a slow first tool call. */
const QWEN_CASE_TIMEOUT_MS = 120_000;

describe.skipIf(!CLAUDE_BIN || !QWEN_BIN)('Qwen Code through the whole system over Feishu', () => {
  let s: System;
  let cwd: string;
  let sessionId: string;

  beforeAll(async () => {
    s = await startSystem('sdk', {
      agents: ['qwen'],
      // A Qwen turn is silent while the process starts and before its first tool call.
      tweak: (c) => {
        c.runtime.stale_timeout_ms = 90_000;
        c.runtime.hard_timeout_ms = QWEN_CASE_TIMEOUT_MS;
      },
    });
    cwd = s.sys.project('qwen-work');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
  }, CASE_TIMEOUT_MS);

  const qwenCalls = () => (s.qwen?.fake.calls ?? []).filter((c) => c.request.stream).map((c) => c.request);

  it(
    '/new <dir> --agent qwen -- hello: a Qwen Code session streams its answer into a card titled with the agent',
    async () => {
      showLogOnFailure(() => s);
      const anthropicBefore = s.anth.requests.length;
      const { messageId } = await s.send(`/new ${cwd} --agent qwen -- hello`);
      await s.fake.waitFor(() => replyFinished(s.fake, messageId), QWEN_CASE_TIMEOUT_MS);
      await s.runtime.bridge.whenIdle();
      sessionId = await expectNewSession(s, messageId, {
        agent: 'qwen',
        title: 'Qwen',
        cwd,
        prompts: qwenCalls().map((r) => r.lastUserText),
        storage: path.join(s.sys.home, '.qwen', 'projects'),
        anthropicBefore,
      });
    },
    QWEN_CASE_TIMEOUT_MS,
  );

  it(
    'RUN: in the same session — the Allow / Deny / Always allow card; Allow runs it, the answer quotes it, the model saw the earlier prompt',
    async () => {
      showLogOnFailure(() => s);
      const { messageId } = await s.send(`RUN: ${MARKER_COMMAND}`);
      await s.fake.waitFor(() => promptCard(s.fake, messageId) !== undefined, QWEN_CASE_TIMEOUT_MS);
      const card = promptCard(s.fake, messageId) as SentMessage;
      expect(buttonsOf(card).map((b) => b.label)).toEqual(['Allow', 'Deny', 'Always allow']);
      expect(s.fake.textOf(card)).toContain('touch ran-marker');
      expect(fs.existsSync(path.join(cwd, 'ran-marker'))).toBe(false); // waiting for the click

      expect(await click(s.fake, card, 'Allow')).toMatchObject({ type: 'success', content: 'Allowed' });
      await s.fake.waitFor(() => replyFinished(s.fake, messageId), QWEN_CASE_TIMEOUT_MS);
      await s.runtime.bridge.whenIdle();
      expect(replyTemplate(s.fake, messageId)).toBe('green');
      expect(fs.existsSync(path.join(cwd, 'ran-marker'))).toBe(true);
      expect(s.answer(messageId)).toContain(MARKER);
      const last = qwenCalls().at(-1);
      expect(last?.toolResults.join('\n')).toContain(MARKER);
      // The same session, continued: Qwen loaded it, so the model got the first prompt too.
      expect(last?.userTexts).toEqual(expect.arrayContaining(['hello', `RUN: ${MARKER_COMMAND}`]));
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(OWNER)).toMatchObject({
        type: 'session',
        sessionUuid: sessionId,
        cwd,
      });
      expect((await readRegistry(s.sys.paths)).registry.sessions[sessionId]).toMatchObject({ agent: 'qwen' });
      // A one-off allow remembers nothing.
      expect(fs.existsSync(s.sys.paths.agentPermissionsFile)).toBe(false);
    },
    QWEN_CASE_TIMEOUT_MS,
  );
});
