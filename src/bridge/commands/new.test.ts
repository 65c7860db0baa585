import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFixture, type CommandFixture } from '../../../test/fakes/fake-command-context.js';
import { handleNew } from './new.js';

let f: CommandFixture;
const U = 'ou_owner';

beforeEach(async () => {
  f = await commandFixture({ models: async () => [{ alias: 'fast', model: 'claude-haiku-4-5' }] });
  f.ctx.config.claude.models = { sonnet: 'claude-sonnet-4-5' };
});
afterEach(() => f.cleanup());

describe('/new', () => {
  it('without a prompt records a pending directory and starts nothing', async () => {
    const out = await handleNew({ name: 'new', cwd: '~/Git/alpha' }, f.ctx);
    expect(out).toEqual({
      reply: { kind: 'text', text: '✅ 已设置新会话目录：~/Git/alpha\n请继续发送第一条消息，将在该目录创建新会话。' },
    });
    expect(await f.ctx.mapping.get(U)).toMatchObject({
      type: 'pending_new_session',
      cwd: path.join(f.home, 'Git/alpha'),
    });
  });

  it('with a prompt claims the slot for this message and returns the run', async () => {
    const out = await handleNew({ name: 'new', cwd: '~/Git/alpha', prompt: '帮我先梳理这个项目的架构' }, f.ctx);
    expect(out).toEqual({
      reply: { kind: 'text', text: '🆕 正在 ~/Git/alpha 创建新会话…' },
      run: { prompt: '帮我先梳理这个项目的架构', cwd: path.join(f.home, 'Git/alpha') },
    });
    expect(await f.ctx.mapping.get(U)).toMatchObject({
      type: 'pending_new_session_claimed',
      claimedByMessageId: 'feishu:om_1',
      cwd: path.join(f.home, 'Git/alpha'),
    });
    expect((await f.ctx.mapping.claimForMessage(U, 'feishu:om_2')).kind).toBe('creating');
  });

  it('uses feishu_bot.default_cwd when no cwd is given, and guides when there is none', async () => {
    expect((await handleNew({ name: 'new', prompt: 'hi' }, f.ctx)).reply).toEqual({
      kind: 'text',
      text: '请指定新会话目录，例如 /new ~/Git/项目 -- 问题；也可以在配置中设置 feishu_bot.default_cwd。',
    });
    expect(await f.ctx.mapping.get(U)).toBeNull();
    f.ctx.config.feishu_bot.default_cwd = path.join(f.home, 'Git/beta');
    const out = await handleNew({ name: 'new', prompt: 'hi' }, f.ctx);
    expect(out.run).toEqual({ prompt: 'hi', cwd: path.join(f.home, 'Git/beta') });
  });

  it('resolves --model aliases (config, discovered, Claude Code built-ins) and refuses unknown ones', async () => {
    expect((await handleNew({ name: 'new', cwd: '~/Git/alpha', model: 'sonnet', prompt: 'do it' }, f.ctx)).run).toEqual(
      { prompt: 'do it', cwd: path.join(f.home, 'Git/alpha'), model: 'claude-sonnet-4-5' },
    );
    expect((await handleNew({ name: 'new', cwd: '~/Git/alpha', model: 'FAST' }, f.ctx)).reply).toEqual({
      kind: 'text',
      text: '✅ 已设置新会话目录：~/Git/alpha\n请继续发送第一条消息，将在该目录创建新会话。\n模型：claude-haiku-4-5',
    });
    expect(await f.ctx.mapping.get(U)).toMatchObject({ type: 'pending_new_session', model: 'claude-haiku-4-5' });
    expect((await handleNew({ name: 'new', cwd: '~/Git/alpha', model: 'opus', prompt: 'x' }, f.ctx)).run?.model).toBe(
      'opus',
    );
    const bad = await handleNew({ name: 'new', cwd: '~/Git/alpha', model: 'sonet', prompt: 'x' }, f.ctx);
    expect(bad).toEqual({
      reply: { kind: 'text', text: '未知模型「sonet」。可用：sonnet, fast, opus, haiku, opusplan' },
    });
  });

  it('keeps the user default model for the run when --model is absent', async () => {
    await f.ctx.mapping.setSession(U, {
      sessionUuid: 's1',
      cwd: path.join(f.home, 'Git/beta'),
      model: 'claude-opus-4-1',
    });
    expect((await handleNew({ name: 'new', cwd: '~/Git/alpha', prompt: 'x' }, f.ctx)).run?.model).toBe(
      'claude-opus-4-1',
    );
  });

  it('refuses unsafe directories with the dir-safety message, leaving the mapping alone', async () => {
    await fs.symlink(path.join(f.home, 'Downloads'), path.join(f.home, 'Git/dl'));
    const cases: Array<[string, RegExp]> = [
      ['~', /^目录 ~ 不在允许范围内/],
      ['~/Git/../Downloads', /^目录 ~\/Downloads 不在允许范围内/],
      ['~/Git/nope', /^目录不存在：~\/Git\/nope/],
      ['~/notes.txt', /不在允许范围内/],
      ['/', /^目录 \/ 不在允许范围内/],
    ];
    for (const [cwd, re] of cases) {
      const out = await handleNew({ name: 'new', cwd, prompt: 'x' }, f.ctx);
      expect(out.run).toBeUndefined();
      expect(out.reply.kind === 'text' && out.reply.text).toMatch(re);
    }
    const dl = await handleNew({ name: 'new', cwd: '~/Git/dl' }, f.ctx);
    expect(dl.reply.kind === 'text' && dl.reply.text).toContain('不在允许范围内');
    expect(await f.ctx.mapping.get(U)).toBeNull();
  });

  it('speaks English', async () => {
    f.ctx.lang = 'en';
    expect((await handleNew({ name: 'new', cwd: '~/Git/alpha' }, f.ctx)).reply).toEqual({
      kind: 'text',
      text: '✅ New session directory set: ~/Git/alpha\nSend your first message to start the session there.',
    });
    expect((await handleNew({ name: 'new', cwd: '~/Git/alpha', prompt: 'x' }, f.ctx)).reply).toEqual({
      kind: 'text',
      text: '🆕 Starting a new session in ~/Git/alpha…',
    });
  });
});
