import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFixture, type CommandFixture } from '../../../test/fakes/fake-command-context.js';
import type { CardReply } from '../reply-model.js';
import { handleModel } from './model.js';

let f: CommandFixture;
const U = 'ou_owner';

beforeEach(async () => {
  f = await commandFixture({
    models: async () => [
      { alias: 'sonnet', model: 'ignored-duplicate' },
      { alias: 'fast', model: 'claude-haiku-4-5' },
    ],
  });
  f.ctx.config.claude.models = { sonnet: 'claude-sonnet-4-5', opus: 'claude-opus-4-1' };
  await f.ctx.mapping.setSession(U, { sessionUuid: 's1', cwd: '/w/a' });
});
afterEach(() => f.cleanup());

const model = (arg?: { index: number } | { alias: string } | { clear: true }) =>
  handleModel(arg ? { name: 'model', arg } : { name: 'model' }, f.ctx);

describe('/model', () => {
  it('lists config aliases first, then discovered ones, and the current default', async () => {
    const card = (await model()).reply as CardReply;
    expect(card).toMatchObject({ kind: 'card', title: '🤖 模型', status: 'info' });
    expect(card.sections).toEqual([
      { type: 'plain', text: '当前默认模型：未设置（使用 Claude Code 默认）' },
      { type: 'markdown', text: '可用模型：' },
      { type: 'plain', text: '1. sonnet → claude-sonnet-4-5\n2. opus → claude-opus-4-1\n3. fast → claude-haiku-4-5' },
      { type: 'divider' },
      { type: 'markdown', text: '使用 /model <序号|别名> 设置，/model --clear 清除。' },
    ]);
  });

  it('sets by index and by alias, marks the current one, and clears', async () => {
    expect((await model({ index: 2 })).reply).toEqual({
      kind: 'text',
      text: '✅ 默认模型已设置为 claude-opus-4-1（对新会话和之后的消息生效）',
    });
    expect(await f.ctx.mapping.get(U)).toMatchObject({ defaultProvider: 'claude-opus-4-1' });
    expect(((await model()).reply as CardReply).sections[2]).toEqual({
      type: 'plain',
      text: '1. sonnet → claude-sonnet-4-5\n2. opus → claude-opus-4-1 ✓\n3. fast → claude-haiku-4-5',
    });
    await model({ alias: 'Fast' });
    expect(await f.ctx.mapping.claimForMessage(U, 'm')).toMatchObject({ kind: 'session', model: 'claude-haiku-4-5' });
    expect((await model({ clear: true })).reply).toEqual({ kind: 'text', text: '✅ 已清除默认模型' });
    expect(await f.ctx.mapping.get(U)).toMatchObject({ defaultProvider: null });
  });

  it('refuses an out-of-range index and an unknown alias', async () => {
    expect((await model({ index: 4 })).reply).toEqual({ kind: 'text', text: '序号 4 超出范围，共 3 个模型。' });
    expect((await model({ index: 0 })).reply).toEqual({ kind: 'text', text: '序号 0 超出范围，共 3 个模型。' });
    expect((await model({ alias: 'gpt-4' })).reply).toEqual({
      kind: 'text',
      text: '未知模型「gpt-4」。可用：sonnet, opus, fast, haiku, opusplan',
    });
    expect(await f.ctx.mapping.get(U)).toMatchObject({ defaultProvider: null });
  });

  it('shows the configured claude.default_model as the fallback, in English too', async () => {
    f.ctx.config.claude.default_model = 'claude-sonnet-4-5';
    f.ctx.lang = 'en';
    const card = (await model()).reply as CardReply;
    expect(card.sections[0]).toEqual({
      type: 'plain',
      text: 'Your default model: not set (using claude.default_model = claude-sonnet-4-5 from the config)',
    });
  });

  it('needs a target to keep the default on', async () => {
    await f.ctx.mapping.clear(U);
    expect((await model({ alias: 'opus' })).reply).toEqual({
      kind: 'text',
      text: '当前没有会话或待创建目录，无法保存默认模型。请先 /switch 或 /new，或在 /new 时使用 --model <别名>。',
    });
  });

  it('says when no aliases are configured', async () => {
    f.ctx.config.claude.models = {};
    f.ctx.models = async () => [];
    const card = (await model()).reply as CardReply;
    expect(card.sections[1]).toEqual({ type: 'markdown', text: expect.stringContaining('没有配置模型别名') });
  });
});
