import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFixture, type CommandFixture } from '../../../test/fakes/fake-command-context.js';
import type { CardReply } from '../reply-model.js';
import { handleBrowseDirAction, handleSelectDirAction } from './card-actions.js';
import { handleListDir, LIST_DIR_LIMIT } from './list-dir.js';

let f: CommandFixture;
const U = 'ou_owner';

beforeEach(async () => {
  f = await commandFixture();
});
afterEach(() => f.cleanup());

const list = async (p?: string) =>
  (await handleListDir(p === undefined ? { name: 'listDir' } : { name: 'listDir', path: p }, f.ctx)).reply;

describe('/listDir', () => {
  it('starts at the first allowed root when there is no target or default_cwd, showing sorted non-hidden subdirectories', async () => {
    const card = (await list()) as CardReply;
    expect(card).toMatchObject({ kind: 'card', title: '📂 目录浏览', status: 'info' });
    expect(card.sections).toEqual([{ type: 'plain', text: '当前路径：~/Git' }]);
    const git = path.join(f.home, 'Git');
    expect(card.buttons).toEqual([
      { label: '✅ 选择当前目录', style: 'primary', action: { type: 'select_dir', path: git } },
      { label: '📁 alpha', action: { type: 'browse_dir', path: path.join(git, 'alpha') } },
      { label: '✅ 选择 alpha', action: { type: 'select_dir', path: path.join(git, 'alpha') } },
      { label: '📁 beta', action: { type: 'browse_dir', path: path.join(git, 'beta') } },
      { label: '✅ 选择 beta', action: { type: 'select_dir', path: path.join(git, 'beta') } },
      { label: '📁 gamma', action: { type: 'browse_dir', path: path.join(git, 'gamma') } },
      { label: '✅ 选择 gamma', action: { type: 'select_dir', path: path.join(git, 'gamma') } },
    ]);
  });

  it('starts from the active session, then the pending entry, then default_cwd', async () => {
    f.ctx.config.feishu_bot.default_cwd = path.join(f.home, 'Git/beta');
    expect(((await list()) as CardReply).sections[0]).toEqual({ type: 'plain', text: '当前路径：~/Git/beta' });
    await f.ctx.mapping.setPendingNew(U, { cwd: path.join(f.home, 'Git/gamma') });
    expect(((await list()) as CardReply).sections[0]).toEqual({ type: 'plain', text: '当前路径：~/Git/gamma' });
    await f.ctx.mapping.setSession(U, { sessionUuid: 's', cwd: path.join(f.home, 'Git/alpha') });
    const card = (await list()) as CardReply;
    expect(card.sections[0]).toEqual({ type: 'plain', text: '当前路径：~/Git/alpha' });
    expect(card.buttons?.[0]).toEqual({
      label: '⬆️ 上级目录',
      action: { type: 'browse_dir', path: path.join(f.home, 'Git') },
    });
    expect(card.buttons?.map((b) => b.label)).toContain('📁 src');
  });

  it('skips a start directory that fails the safety check', async () => {
    await f.ctx.mapping.setSession(U, { sessionUuid: 's', cwd: f.home });
    expect(((await list()) as CardReply).sections[0]).toEqual({ type: 'plain', text: '当前路径：~/Git' });
  });

  it('browses an explicit path, relative to the start directory too', async () => {
    expect(((await list('~/Workspace')) as CardReply).sections).toEqual([
      { type: 'plain', text: '当前路径：~/Workspace' },
      { type: 'markdown', text: '（没有子目录）' },
    ]);
    expect(((await list('alpha')) as CardReply).sections[0]).toEqual({ type: 'plain', text: '当前路径：~/Git/alpha' });
  });

  it('refuses unsafe paths and hides symlinks that lead out of the allowed roots', async () => {
    expect(await list('~/Downloads')).toMatchObject({
      kind: 'text',
      text: expect.stringMatching(/^目录 ~\/Downloads 不在允许范围内.*~\/Git, ~\/Workspace$/),
    });
    expect(await list('../Downloads')).toMatchObject({ kind: 'text', text: expect.stringContaining('不在允许范围内') });
    await fs.symlink(path.join(f.home, 'Downloads'), path.join(f.home, 'Git/aaa-escape'));
    await fs.symlink(path.join(f.home, 'Git/beta'), path.join(f.home, 'Git/beta-link'));
    const labels = ((await list()) as CardReply).buttons?.map((b) => b.label);
    expect(labels).not.toContain('📁 aaa-escape');
    expect(labels).toContain('📁 beta-link');
  });

  it('shows at most 15 subdirectories and says how many more there are', async () => {
    for (let i = 1; i <= LIST_DIR_LIMIT + 3; i += 1) await fs.mkdir(path.join(f.home, 'Workspace', `p${i}`));
    const card = (await list('~/Workspace')) as CardReply;
    const enters = card.buttons?.filter((b) => b.action.type === 'browse_dir') ?? [];
    expect(enters).toHaveLength(LIST_DIR_LIMIT); // no parent button: ~ is outside the allowed roots
    expect(enters.at(-1)?.label).toBe('📁 p15'); // numeric order: p2 before p10
    expect(card.sections).toContainEqual({
      type: 'markdown',
      text: '还有 3 个子目录未显示，可用 /listDir <路径> 直接进入。',
    });
  });

  it('speaks English', async () => {
    f.ctx.lang = 'en';
    const card = (await list()) as CardReply;
    expect(card.title).toBe('📂 Browse directories');
    expect(card.buttons?.[0]?.label).toBe('✅ Use this directory');
  });
});

describe('directory buttons', () => {
  it('select_dir makes the directory the pending new-session target and replaces the card', async () => {
    const target = path.join(f.home, 'Git/alpha');
    const r = await handleSelectDirAction({ type: 'select_dir', path: target }, f.ctx);
    expect(r).toEqual({
      toast: { type: 'success', text: '✅ 已切换到 ~/Git/alpha' },
      card: {
        kind: 'card',
        title: '📂 目录浏览',
        status: 'complete',
        sections: [{ type: 'plain', text: '✅ 已切换到 ~/Git/alpha\n发送消息即可在该目录创建新会话。' }],
      },
    });
    expect(await f.ctx.mapping.get(U)).toMatchObject({ type: 'pending_new_session', cwd: target });
  });

  it('select_dir re-checks a forged path', async () => {
    const r = await handleSelectDirAction({ type: 'select_dir', path: path.join(f.home, 'Downloads') }, f.ctx);
    expect(r.toast?.type).toBe('error');
    expect(r.card).toBeUndefined();
    expect(await f.ctx.mapping.get(U)).toBeNull();
  });

  it('browse_dir replaces the card with that directory, or toasts a refusal', async () => {
    const r = await handleBrowseDirAction({ type: 'browse_dir', path: path.join(f.home, 'Git/alpha') }, f.ctx);
    expect((r.card as CardReply).sections[0]).toEqual({ type: 'plain', text: '当前路径：~/Git/alpha' });
    const bad = await handleBrowseDirAction({ type: 'browse_dir', path: '/' }, f.ctx);
    expect(bad).toEqual({ toast: { type: 'error', text: expect.stringContaining('不在允许范围内') } });
  });
});
