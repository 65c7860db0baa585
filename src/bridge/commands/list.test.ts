import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFixture, type CommandFixture } from '../../../test/fakes/fake-command-context.js';
import { fakeSession } from '../../../test/fakes/fake-session-directory.js';
import type { CardReply } from '../reply-model.js';
import { handleList, LIST_PAGE_SIZE } from './list.js';
import { handleSearch } from './search.js';

let f: CommandFixture;
const A = '8c4b1297-0000-4000-8000-000000000001';
const B = 'a402c07a-0000-4000-8000-000000000002';
const C = 'c91d3e11-0000-4000-8000-000000000003';

beforeEach(async () => {
  f = await commandFixture();
  f.sessions.sessions.set(
    A,
    fakeSession(A, {
      title: 'Improve README and create acceptance guide',
      message_count: 230,
      last_active: '2026-05-05T10:29:50.000Z',
      project_name: 'cc-linker',
      cwd: path.join(f.home, 'Git/alpha'),
    }),
  );
  f.sessions.sessions.set(
    B,
    fakeSession(B, {
      origin: 'feishu',
      title: 'Review remote debug metrics diagnosis code',
      message_count: 2601,
      last_active: '2026-05-05T09:30:00.000Z',
      project_name: 'traeData',
    }),
  );
  f.sessions.sessions.set(
    C,
    fakeSession(C, {
      status: 'degraded',
      title: 'Analyze bridge recovery path',
      message_count: 12,
      last_active: '2026-05-05T10:25:00.000Z',
      project_name: 'cc-linker',
    }),
  );
});
afterEach(() => f.cleanup());

describe('/list', () => {
  it('renders the documented layout, newest first, with a switch button per session and the hint (zh)', async () => {
    const { reply } = await handleList({ name: 'list', args: '' }, f.ctx);
    const card = reply as CardReply;
    expect(card).toMatchObject({ kind: 'card', title: '📋 我的会话（共 3 个）', status: 'info' });
    expect(card.sections[0]).toEqual({
      type: 'plain',
      text: '1. Improve README and create acceptance guide\nID: 8c4b1297\n终端 | 230条 | 刚刚 | cc-linker',
    });
    expect(card.sections[1]).toEqual({
      type: 'plain',
      text: '2. Analyze bridge recovery path\nID: c91d3e11\n降级 | 12条 | 5 分钟前 | cc-linker',
    });
    expect(card.sections[2]).toEqual({
      type: 'plain',
      text: '3. Review remote debug metrics diagnosis code\nID: a402c07a\n飞书 | 2601条 | 1 小时前 | traeData',
    });
    expect(card.sections[3]).toEqual({ type: 'divider' });
    expect(card.sections[4]).toMatchObject({ type: 'markdown', text: expect.stringContaining('/switch 1') });
    expect(card.buttons).toEqual([
      { label: '切换 1', action: { type: 'switch', sessionId: A } },
      { label: '切换 2', action: { type: 'switch', sessionId: C } },
      { label: '切换 3', action: { type: 'switch', sessionId: B } },
    ]);
  });

  it('saves the numbering as the list snapshot', async () => {
    await handleList({ name: 'list', args: '' }, f.ctx);
    expect(await f.ctx.listSnapshots.resolve('ou_owner', 2)).toEqual({ ok: true, sessionId: C });
  });

  it('marks the current session and speaks English', async () => {
    await f.ctx.mapping.setSession('ou_owner', { sessionUuid: B, cwd: '/tmp/project' });
    f.ctx.lang = 'en';
    const card = (await handleList({ name: 'list', args: '' }, f.ctx)).reply as CardReply;
    expect(card.title).toBe('📋 My sessions (3)');
    expect(card.sections[2]).toEqual({
      type: 'plain',
      text: '3. Review remote debug metrics diagnosis code (current)\nID: a402c07a\nFeishu | 2601 msgs | 1 hour ago | traeData',
    });
    expect(card.buttons?.[0]?.label).toBe('Switch 1');
  });

  it('pages long lists; the snapshot covers every number shown so far', async () => {
    for (let i = 0; i < LIST_PAGE_SIZE + 5; i += 1) {
      const id = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
      f.sessions.sessions.set(
        id,
        fakeSession(id, { last_active: new Date(Date.parse('2026-05-01T00:00:00Z') - i * 60_000).toISOString() }),
      );
    }
    const p1 = (await handleList({ name: 'list', args: '' }, f.ctx)).reply as CardReply;
    expect(p1.title).toBe('📋 我的会话（共 28 个，第 1/2 页）');
    expect(p1.buttons).toHaveLength(LIST_PAGE_SIZE);
    expect(p1.sections.at(-1)).toMatchObject({ text: expect.stringContaining('/list 2') });
    const p2 = (await handleList({ name: 'list', args: '2' }, f.ctx)).reply as CardReply;
    expect(p2.buttons).toHaveLength(8);
    expect(p2.buttons?.[0]?.label).toBe('切换 21');
    const last = await f.ctx.listSnapshots.resolve('ou_owner', 28);
    expect(last.ok).toBe(true);
    expect((await handleList({ name: 'list', args: '3' }, f.ctx)).reply).toEqual({
      kind: 'text',
      text: '没有第 3 页，共 2 页。',
    });
    expect((await handleList({ name: 'list', args: 'abc' }, f.ctx)).reply).toEqual({
      kind: 'text',
      text: '用法：/list [页码]',
    });
  });

  it('says so when there are no sessions', async () => {
    f.sessions.sessions.clear();
    expect((await handleList({ name: 'list', args: '' }, f.ctx)).reply).toEqual({
      kind: 'text',
      text: '还没有任何会话。可以用 /new [目录] -- 问题 创建一个。',
    });
  });
});

describe('/search', () => {
  it('lists matches numbered with switch buttons and saves them as the snapshot', async () => {
    const card = (await handleSearch({ name: 'search', keyword: 'cc-linker' }, f.ctx)).reply as CardReply;
    expect(card.title).toBe('🔍 找到 2 个匹配「cc-linker」的会话');
    expect(card.buttons?.map((b) => b.action)).toEqual([
      { type: 'switch', sessionId: A },
      { type: 'switch', sessionId: C },
    ]);
    expect(await f.ctx.listSnapshots.resolve('ou_owner', 2)).toEqual({ ok: true, sessionId: C });
  });

  it('answers plainly when nothing matches (en)', async () => {
    f.ctx.lang = 'en';
    expect((await handleSearch({ name: 'search', keyword: 'zzz' }, f.ctx)).reply).toEqual({
      kind: 'text',
      text: 'No session matches "zzz".',
    });
  });
});
