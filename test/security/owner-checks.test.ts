/**
 * Security review, check 3: owner checks on every message and every card click, through the real
 * Feishu channel (official SDK ↔ fake Feishu server) into the real bridge runtime and its real
 * owner policy (`ownerPolicyFrom`). A stranger gets the fixed refusal and reaches nothing; a
 * stranger's click changes nothing; a forged nonce, a replayed click and a click on a settled
 * prompt change nothing either.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import type { CardAction } from '../../src/bridge/reply-model.js';
import type { PermissionDecision } from '../../src/engine/engine-types.js';
import { fileMessageEvent, imageMessageEvent, postMessageEvent } from '../fakes/fake-feishu/fake-feishu-server.js';
import { OWNER, STRANGER, startLiveSystem, type LiveSystem } from './live-system.js';
import { walkFiles } from './secrets.js';

const REFUSAL = bridgeMessages('zh')('notOwner');
const p = promptMessages('zh');
const SESSION = '0a0b0c0d-1111-4222-8333-444455556666';

describe('configured owner (feishu_bot.owner_open_id)', () => {
  let sys: LiveSystem;
  const decisions: PermissionDecision[] = [];
  const answers: unknown[] = [];

  beforeAll(async () => {
    sys = await startLiveSystem();
    await sys.addSession(SESSION, path.join(sys.home, 'Git', 'beta'));
    sys.engine.onSend = async (req, o) => {
      if (req.prompt.startsWith('perm') && o.permissions && o.signal) {
        const d = await o.permissions.requestPermission(
          {
            id: 'toolu_perm_1',
            toolName: 'Bash',
            summary: 'rm -rf build',
            input: { command: 'rm -rf build' },
            suggestions: ['Bash(rm:*)'],
          },
          o.signal,
        );
        decisions.push(d);
        return { text: `decision: ${d.behavior}` };
      }
      if (req.prompt.startsWith('two questions') && o.permissions && o.signal) {
        const a = await o.permissions.askQuestion(
          {
            id: 'toolu_q_2',
            questions: [
              { question: 'Which one?', header: 'Pick', options: [{ label: 'red' }, { label: 'blue' }] },
              { question: 'Which size?', header: 'Size', options: [{ label: 'small' }, { label: 'large' }] },
            ],
          },
          o.signal,
        );
        answers.push(a);
        return { text: 'both answered' };
      }
      if (req.prompt.startsWith('ask') && o.permissions && o.signal) {
        const a = await o.permissions.askQuestion(
          {
            id: 'toolu_q_1',
            questions: [{ question: 'Which one?', header: 'Pick', options: [{ label: 'red' }, { label: 'blue' }] }],
          },
          o.signal,
        );
        answers.push(a);
        return { text: 'answered' };
      }
      return undefined;
    };
  });
  afterAll(async () => sys?.close());

  it('a stranger gets only the fixed refusal, whatever the message, and reaches nothing', async () => {
    const g = (rel: string) => path.join(sys.home, rel);
    const texts = [
      'hello',
      '/whoami',
      '/status',
      '/list',
      '/listDir',
      `/listDir ${g('Git')}`,
      `/new ${g('Git/alpha')} -- run rm -rf /`,
      `/new ${g('Git/alpha')}`,
      '/switch 1',
      `/switch ${SESSION.slice(0, 8)}`,
      '/resume 1',
      '/search build',
      '/model opus',
      '/cc 列一下笔记',
      '/help',
      'x'.repeat(12_000),
    ];
    for (const text of texts) await sys.say(STRANGER, text);
    await sys.push(
      postMessageEvent({
        openId: STRANGER,
        title: 'rich',
        paragraphs: [[{ tag: 'text', text: `/new ${g('Git/beta')} -- hi` }]],
      }),
    );
    await sys.push(imageMessageEvent({ openId: STRANGER, imageKey: 'img_v3_stranger' }));
    await sys.push(fileMessageEvent({ openId: STRANGER, fileKey: 'file_v3_x', fileName: 'evil.sh' }));
    const accepted = texts.length + 3; // text, post, image and the unsupported file all go to the bridge
    await sys.feishu.waitFor(() => sys.texts(STRANGER).length >= accepted, 10_000);
    await new Promise((r) => setTimeout(r, 300)); // nothing else arrives late

    const seen = sys.texts(STRANGER);
    // Every message, an unsupported file included, gets the same refusal and nothing else.
    expect(seen.filter((t) => t === REFUSAL)).toHaveLength(accepted);
    expect(seen.filter((t) => t !== REFUSAL)).toEqual([]);

    expect(sys.engine.requests).toEqual([]);
    expect(sys.openai.requests).toEqual([]);
    expect(sys.cliCalls()).toEqual([]);
    expect(await sys.mapping(STRANGER)).toBeNull();
    expect(sys.mappingFile()).not.toContain(STRANGER);
    const spool = path.join(sys.paths.home, 'spool');
    for (const f of walkFiles(spool)) expect(fs.readFileSync(path.join(spool, f), 'utf8'), f).not.toContain(STRANGER);
    expect(walkFiles(sys.paths.imagesDir)).toEqual([]);
    expect(sys.runtime.bridge.prompts.list()).toEqual([]);
  });

  it('the owner still gets through (the refusals were not a dead pipeline)', async () => {
    await sys.say(OWNER, `/new ${path.join(sys.home, 'Git', 'alpha')} -- hi there`);
    await sys.waitForText(OWNER, /echo: hi there[\s\S]*轮/);
    expect(sys.engine.requests.map((r) => r.userId)).toEqual([OWNER]);
  });

  it('permission prompt: a stranger, a forged nonce, another request id, a replay and a settled prompt change nothing', async () => {
    await sys.say(OWNER, 'perm: may I?');
    await sys.feishu.waitFor(() => sys.buttons().some((b) => b.action.type === 'permission'), 10_000);
    const buttons = sys.buttons().filter((b) => b.action.type === 'permission');
    const allow = buttons.find((b) => b.action.type === 'permission' && b.action.decision === 'allow') as {
      messageId: string;
      action: Extract<CardAction, { type: 'permission' }>;
    };
    const deny = buttons.find((b) => b.action.type === 'permission' && b.action.decision === 'deny') as typeof allow;
    const always = buttons.find(
      (b) => b.action.type === 'permission' && b.action.decision === 'always',
    ) as typeof allow;
    expect(allow && deny && always).toBeTruthy();
    const pending = () => sys.runtime.bridge.prompts.list().length;
    expect(pending()).toBe(1);

    for (const b of [allow, deny, always])
      expect((await sys.click(STRANGER, b.action, b.messageId)).toast?.content).toBe(REFUSAL);
    expect(
      (await sys.click(OWNER, { ...allow.action, nonce: forgedNonce(allow.action.nonce) }, allow.messageId)).toast
        ?.content,
    ).toBe(p('expired'));
    expect((await sys.click(OWNER, { ...allow.action, nonce: 'x' }, allow.messageId)).toast?.content).toBe(
      p('expired'),
    );
    expect(
      (await sys.click(OWNER, { ...allow.action, requestId: 'toolu_other' }, allow.messageId)).toast?.content,
    ).toBe(p('expired'));
    expect(
      (
        await sys.click(
          OWNER,
          { type: 'question', requestId: allow.action.requestId, nonce: allow.action.nonce, answer: 'allow' },
          allow.messageId,
        )
      ).toast?.content,
    ).toBe(p('expired'));
    // The console user is trusted as an owner, but this prompt is the Feishu owner's.
    expect(
      (await sys.runtime.bridge.handleAction({ channel: 'web', userId: 'web:owner', action: allow.action })).toast
        ?.text,
    ).toBe(p('notYours'));
    // The text answers (/allow, /deny, /always [n]) are a stranger's message like any other.
    for (const text of ['/allow', '/always 1', '/deny 1']) await sys.say(STRANGER, text);
    await sys.feishu.waitFor(() => sys.texts(STRANGER).filter((t) => t === REFUSAL).length >= 3, 10_000);
    // From the console (a trusted channel) they only answer the console user's own prompts.
    const web = await sys.runtime.bridge.accept({
      id: 'web:0f0f0f0f-0000-4000-8000-000000000001',
      channel: 'web',
      platformMessageId: '0f0f0f0f-0000-4000-8000-000000000001',
      userId: 'web:owner',
      chatId: 'web',
      chatType: 'p2p',
      text: '/allow',
      images: [],
      receivedAt: new Date().toISOString(),
    });
    expect(web.status).toBe('accepted');
    expect(pending()).toBe(1);
    expect(decisions).toEqual([]);

    expect((await sys.click(OWNER, allow.action, allow.messageId)).toast?.type).toBe('success');
    await sys.waitForText(OWNER, /decision: allow/);
    expect(decisions).toEqual([{ behavior: 'allow', always: false }]);

    expect((await sys.click(OWNER, allow.action, allow.messageId)).toast?.content).toBe(p('expired')); // replay
    expect((await sys.click(OWNER, deny.action, deny.messageId)).toast?.content).toBe(p('expired')); // settled
    expect((await sys.click(OWNER, always.action, always.messageId)).toast?.content).toBe(p('expired'));
    expect((await sys.click(STRANGER, deny.action, deny.messageId)).toast?.content).toBe(REFUSAL);
    const n = sys.texts(OWNER).length;
    await sys.say(OWNER, '/deny'); // the text answer of a settled prompt: nothing left to answer
    await sys.feishu.waitFor(() => sys.texts(OWNER).length > n, 10_000);
    expect(sys.texts(OWNER)[n]).toBe(p('expired'));
    expect(decisions).toHaveLength(1);
    expect(pending()).toBe(0);
  });

  it('question prompt: a stranger, a forged nonce and a replay change nothing', async () => {
    await sys.say(OWNER, 'ask: pick one');
    await sys.feishu.waitFor(() => sys.buttons().some((b) => b.action.type === 'question'), 10_000);
    const red = sys.buttons().find((b) => b.action.type === 'question' && b.action.answer === 'red') as {
      messageId: string;
      action: Extract<CardAction, { type: 'question' }>;
    };
    expect((await sys.click(STRANGER, red.action, red.messageId)).toast?.content).toBe(REFUSAL);
    expect((await sys.click(OWNER, { ...red.action, nonce: 'forged' }, red.messageId)).toast?.content).toBe(
      p('expired'),
    );
    expect(answers).toEqual([]);
    expect((await sys.click(OWNER, red.action, red.messageId)).toast?.type).toBe('success');
    await sys.waitForText(OWNER, /answered/);
    expect((await sys.click(OWNER, { ...red.action, answer: 'blue' }, red.messageId)).toast?.content).toBe(
      p('expired'),
    );
    expect(answers).toEqual([{ answers: { 'Which one?': 'red' } }]);
  });

  it('question prompt: an answer not among its options, another question, an index out of range change nothing', async () => {
    await sys.say(OWNER, 'two questions, please');
    const mine = () =>
      sys
        .buttons()
        .flatMap((b) => (b.action.type === 'question' && b.action.requestId === 'toolu_q_2' ? [b] : []))
        .map((b) => ({ messageId: b.messageId, action: b.action as Extract<CardAction, { type: 'question' }> }));
    await sys.feishu.waitFor(() => mine().length > 0, 10_000);
    // The card shows the first question, one button per option.
    expect(mine().map((b) => [b.action.answer, b.action.question])).toEqual([
      ['red', 0],
      ['blue', 0],
    ]);
    const red = mine()[0] as { messageId: string; action: Extract<CardAction, { type: 'question' }> };
    const before = answers.length;
    const open = () => sys.runtime.bridge.prompts.list().filter((q) => q.id === 'toolu_q_2').length;
    for (const forged of [
      { ...red.action, answer: 'green' }, // not an option
      { ...red.action, answer: 'red ' },
      { ...red.action, answer: 'large' }, // a label of the other question
      { ...red.action, answer: 'large', question: 1 }, // a question the card does not show
      { ...red.action, question: 1 },
      { ...red.action, question: 7 }, // no such question
    ]) {
      const r = await sys.click(OWNER, forged, red.messageId);
      expect(r.toast, JSON.stringify(forged)).toEqual({ type: 'warning', content: p('answerNotOffered') });
      expect(r.card).toBeUndefined();
    }
    // A malformed index is not an action of ours at all.
    expect((await sys.click(OWNER, { ...red.action, question: -1 }, red.messageId)).toast?.type).toBe('error');
    expect(answers).toHaveLength(before);
    expect(open()).toBe(1); // still waiting for a real answer

    expect((await sys.click(OWNER, red.action, red.messageId)).toast?.type).toBe('success');
    await sys.waitForText(OWNER, /both answered/);
    expect(answers.slice(before)).toEqual([{ answers: { 'Which one?': 'red' } }]);
    expect(open()).toBe(0);
  });

  it('switch, select_dir, browse_dir and force_send clicks from a stranger change nothing and show nothing', async () => {
    const before = sys.mappingFile();
    const ownerBefore = await sys.mapping(OWNER);
    const clicks: CardAction[] = [
      { type: 'switch', sessionId: SESSION },
      { type: 'select_dir', path: path.join(sys.home, 'Git', 'beta') },
      { type: 'browse_dir', path: path.join(sys.home, 'Git') },
      { type: 'browse_dir', path: sys.outside },
      { type: 'force_send', messageId: 'feishu:om_x', nonce: 'n' },
    ];
    for (const action of clicks) {
      const answer = await sys.click(STRANGER, action);
      expect(answer, action.type).toEqual({ toast: { type: 'error', content: REFUSAL } }); // no card: no directory listing
    }
    expect(sys.mappingFile()).toBe(before);
    expect(await sys.mapping(STRANGER)).toBeNull();
    expect(await sys.mapping(OWNER)).toEqual(ownerBefore);

    // The same clicks from the owner do work (force_send is not a live action): the path is real.
    expect((await sys.click(OWNER, { type: 'force_send', messageId: 'feishu:om_x', nonce: 'n' })).toast?.content).toBe(
      bridgeMessages('zh')('actionUnsupported'),
    );
    expect((await sys.click(OWNER, { type: 'select_dir', path: path.join(sys.home, 'Git', 'beta') })).toast?.type).toBe(
      'success',
    );
    expect(await sys.mapping(OWNER)).toMatchObject({
      type: 'pending_new_session',
      cwd: path.join(sys.home, 'Git', 'beta'),
    });
    expect((await sys.click(OWNER, { type: 'switch', sessionId: SESSION })).toast?.type).toBe('success');
    expect(await sys.mapping(OWNER)).toMatchObject({ sessionUuid: SESSION });
  });
});

describe('no owner configured', () => {
  let sys: LiveSystem | undefined;
  afterEach(async () => {
    await sys?.close();
    sys = undefined;
  });

  it('with allow_auto_bind_owner the first sender becomes the owner, once; everyone after is a stranger', async () => {
    sys = await startLiveSystem({
      configure: (c) => {
        c.feishu_bot.owner_open_id = '';
        c.feishu_bot.allow_auto_bind_owner = true;
      },
    });
    const s = sys;
    await s.say(OWNER, `/new ${path.join(s.home, 'Git', 'alpha')} -- first`);
    await s.waitForText(OWNER, /echo: first/);
    await s.say(STRANGER, `/new ${path.join(s.home, 'Git', 'beta')} -- second`);
    await s.waitForText(STRANGER, new RegExp(REFUSAL));
    expect(s.engine.requests.map((r) => r.userId)).toEqual([OWNER]);
    expect(JSON.parse(s.mappingFile()).data.ownerOpenId).toBe(OWNER);
  });

  it('without auto-binding nobody is the owner: the first sender is refused too', async () => {
    sys = await startLiveSystem({ configure: (c) => (c.feishu_bot.owner_open_id = '') });
    const s = sys;
    await s.say(OWNER, `/new ${path.join(s.home, 'Git', 'alpha')} -- first`);
    await s.say(STRANGER, 'hello');
    await s.waitForText(OWNER, new RegExp(REFUSAL));
    await s.waitForText(STRANGER, new RegExp(REFUSAL));
    expect(s.engine.requests).toEqual([]);
    expect(
      (JSON.parse(s.mappingFile() || '{"data":{}}') as { data: { ownerOpenId?: string } }).data.ownerOpenId ?? null,
    ).toBeNull();
  });
});

/** The nonce with its last character changed (always different from the real one). */
function forgedNonce(nonce: string): string {
  return `${nonce.slice(0, -1)}${nonce.endsWith('0') ? '1' : '0'}`;
}
