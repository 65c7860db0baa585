import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFixture, type CommandFixture } from '../../../test/fakes/fake-command-context.js';
import { fakeSession } from '../../../test/fakes/fake-session-directory.js';
import type { CardReply } from '../reply-model.js';
import { handleSwitchAction } from './card-actions.js';
import { handleList } from './list.js';
import { handleSwitch } from './switch.js';

let f: CommandFixture;
const A = '8c4b1297-0000-4000-8000-000000000001';
const A2 = '8c4b9999-0000-4000-8000-000000000002';
const B = 'a402c07a-0000-4000-8000-000000000003';

beforeEach(async () => {
  f = await commandFixture();
  f.sessions.sessions.set(
    A,
    fakeSession(A, {
      title: 'Alpha work',
      cwd: path.join(f.home, 'Git/alpha'),
      last_active: '2026-05-05T10:00:00.000Z',
    }),
  );
  f.sessions.sessions.set(
    A2,
    fakeSession(A2, {
      title: 'Alpha two',
      cwd: path.join(f.home, 'Git/beta'),
      last_active: '2026-05-05T09:00:00.000Z',
    }),
  );
  f.sessions.sessions.set(
    B,
    fakeSession(B, { title: 'Beta work', cwd: path.join(f.home, 'Git/beta'), last_active: '2026-05-05T08:00:00.000Z' }),
  );
});
afterEach(() => f.cleanup());

const sw = (ref: { index: number } | { prefix: string }) => handleSwitch({ name: 'switch', ref }, f.ctx);

describe('/switch', () => {
  it('switches by uuid prefix and updates the mapping', async () => {
    const { reply } = await sw({ prefix: 'a402' });
    expect(reply).toEqual({
      kind: 'text',
      text: `✅ 已切换到会话：Beta work\nID: a402c07a\n目录: ~/Git/beta\n之后发送的消息都会发给这个会话。`,
    });
    expect(await f.ctx.mapping.get('ou_owner')).toMatchObject({
      type: 'session',
      sessionUuid: B,
      cwd: path.join(f.home, 'Git/beta'),
    });
  });

  it('switches by list number through the snapshot', async () => {
    await handleList({ name: 'list', args: '' }, f.ctx);
    await sw({ index: 2 });
    expect(await f.ctx.mapping.get('ou_owner')).toMatchObject({ sessionUuid: A2 });
  });

  it('explains a missing, expired or out-of-range snapshot', async () => {
    expect((await sw({ index: 1 })).reply).toEqual({
      kind: 'text',
      text: '没有可用的列表序号，请先执行 /list，再使用 /switch 1 这样的序号。',
    });
    await handleList({ name: 'list', args: '' }, f.ctx);
    expect((await sw({ index: 4 })).reply).toEqual({
      kind: 'text',
      text: '序号 4 不在最近一次列表范围内，请重新执行 /list。',
    });
    f.setNow('2026-05-05T10:41:00.000Z');
    expect((await sw({ index: 1 })).reply).toEqual({
      kind: 'text',
      text: '列表序号已过期（有效期 10 分钟），请重新执行 /list。',
    });
    expect(await f.ctx.mapping.get('ou_owner')).toBeNull();
  });

  it('says the session is gone when the snapshot points at a removed session', async () => {
    await handleList({ name: 'list', args: '' }, f.ctx);
    f.sessions.sessions.delete(A);
    expect((await sw({ index: 1 })).reply).toEqual({
      kind: 'text',
      text: '会话已不存在，请 /list 后 /switch 到其他会话，或 /new 创建新会话',
    });
  });

  it('lists the candidates of an ambiguous prefix with switch buttons', async () => {
    const card = (await sw({ prefix: '8c4b' })).reply as CardReply;
    expect(card).toMatchObject({ kind: 'card', status: 'warning', title: '❓ 匹配到多个会话' });
    expect(card.sections[0]).toEqual({
      type: 'plain',
      text: 'ID 前缀「8c4b」匹配到 2 个会话，请输入更长的前缀或使用下面的按钮：',
    });
    expect(card.buttons?.map((b) => b.action)).toEqual([
      { type: 'switch', sessionId: A },
      { type: 'switch', sessionId: A2 },
    ]);
    expect(await f.ctx.mapping.get('ou_owner')).toBeNull();
  });

  it('reports an unknown prefix (en)', async () => {
    f.ctx.lang = 'en';
    expect((await sw({ prefix: 'ffff' })).reply).toEqual({
      kind: 'text',
      text: 'No session id starts with "ffff"; run /list to see them.',
    });
  });

  it('refuses a corrupted session', async () => {
    f.sessions.sessions.set(B, { ...f.sessions.sessions.get(B)!, status: 'corrupted' });
    expect((await sw({ prefix: 'a402' })).reply).toEqual({
      kind: 'text',
      text: '会话 a402c07a 已损坏，无法切换。请 /switch 到其他会话或 /new 创建新会话。',
    });
    expect(await f.ctx.mapping.get('ou_owner')).toBeNull();
  });

  it('refuses a session whose directory is outside the allowed roots or gone', async () => {
    f.sessions.sessions.set(B, { ...f.sessions.sessions.get(B)!, cwd: f.home });
    const r1 = (await sw({ prefix: 'a402' })).reply;
    expect(r1.kind === 'text' && r1.text).toMatch(
      /^无法切换到会话 a402c07a：目录 ~ 不在允许范围内.*~\/Git, ~\/Workspace$/,
    );
    await fs.rm(path.join(f.home, 'Git/beta'), { recursive: true });
    f.sessions.sessions.set(B, { ...f.sessions.sessions.get(B)!, cwd: path.join(f.home, 'Git/beta') });
    const r2 = (await sw({ prefix: 'a402' })).reply;
    expect(r2.kind === 'text' && r2.text).toContain('目录不存在：~/Git/beta');
    expect(await f.ctx.mapping.get('ou_owner')).toBeNull();
  });

  it('says so when the session is already current, keeps the default model across a switch', async () => {
    await f.ctx.mapping.setSession('ou_owner', { sessionUuid: A, cwd: path.join(f.home, 'Git/alpha'), model: 'opus' });
    expect((await sw({ prefix: '8c4b1297' })).reply).toEqual({
      kind: 'text',
      text: '当前已经是这个会话：Alpha work（8c4b1297）',
    });
    await sw({ prefix: 'a402' });
    expect(await f.ctx.mapping.get('ou_owner')).toMatchObject({ sessionUuid: B, defaultProvider: 'opus' });
  });
});

describe('switch button', () => {
  it('switches and answers with a toast', async () => {
    expect(await handleSwitchAction({ type: 'switch', sessionId: B }, f.ctx)).toEqual({
      toast: { type: 'success', text: '✅ 已切换到会话：Beta work' },
    });
    expect(await f.ctx.mapping.get('ou_owner')).toMatchObject({ sessionUuid: B });
  });

  it('fails with a toast for a vanished session', async () => {
    expect(await handleSwitchAction({ type: 'switch', sessionId: 'gone' }, f.ctx)).toEqual({
      toast: { type: 'error', text: '会话已不存在，请 /list 后 /switch 到其他会话，或 /new 创建新会话' },
    });
  });
});
