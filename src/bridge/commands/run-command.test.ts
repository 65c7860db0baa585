import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFixture, type CommandFixture } from '../../../test/fakes/fake-command-context.js';
import { fakeSession } from '../../../test/fakes/fake-session-directory.js';
import { parseChatCommand } from './command-parser.js';
import type { CardReply } from '../reply-model.js';
import { runCardAction, runChatCommand } from './run-command.js';

let f: CommandFixture;
const U = 'ou_owner';

beforeEach(async () => {
  f = await commandFixture();
});
afterEach(() => f.cleanup());

const run = (text: string) => {
  const cmd = parseChatCommand(text);
  if (!cmd) throw new Error(`not a command: ${text}`);
  return runChatCommand(cmd, f.ctx);
};

describe('runChatCommand', () => {
  it('/help lists every command (zh and en)', async () => {
    const zh = (await run('/help')).reply as CardReply;
    expect(zh.title).toBe('📖 cc-linker 命令');
    const body = zh.sections.map((s) => ('text' in s ? s.text : '')).join('\n');
    for (const c of [
      '/help',
      '/list',
      '/listDir',
      '/new',
      '/switch',
      '/resume',
      '/model',
      '/search',
      '/cc',
      '/status',
      '/whoami',
    ])
      expect(body).toContain(c);
    expect(body).not.toContain('/cc new');
    f.ctx.lang = 'en';
    expect(((await run('/HELP')).reply as CardReply).title).toBe('📖 cc-linker commands');
    // In Slack the commands go after the app's one slash command.
    f.ctx.channel = 'slack';
    const slack = ((await run('/help')).reply as CardReply).sections.map((s) => ('text' in s ? s.text : '')).join('\n');
    expect(slack.split('\n')[0]).toContain('In Slack, type the commands after /cc: /cc new');
    expect(slack).toContain('/listDir');
  });

  it('/whoami answers with the sender id', async () => {
    expect((await run('/whoami')).reply).toEqual({ kind: 'text', text: '你的 open_id：ou_owner' });
    f.ctx.lang = 'en';
    expect((await run('/whoami')).reply).toEqual({ kind: 'text', text: 'Your open_id: ou_owner' });
    // Another chat app's id is no open_id (the Telegram chaos run showed "Your open_id: 7001").
    f.ctx.channel = 'telegram';
    f.ctx.userId = '7001';
    expect(((await run('/whoami')).reply as { text: string }).text).toMatch(/^Your user id: 7001 /);
  });

  it('/status shows target, model, queue, runs, channels and sessions', async () => {
    const A = '8c4b1297-0000-4000-8000-000000000001';
    f.sessions.sessions.set(A, fakeSession(A, { title: 'Alpha' }));
    await f.ctx.mapping.setSession(U, { sessionUuid: A, cwd: '/w/a', model: 'opus' });
    const card = (await run('/status')).reply as CardReply;
    expect(card).toMatchObject({ kind: 'card', title: '📊 桥接状态', status: 'info' });
    expect(card.sections).toEqual([
      {
        type: 'fields',
        fields: [
          { label: '当前目标', value: '会话 8c4b1297（Alpha）' },
          { label: '默认模型', value: 'opus' },
          { label: '队列', value: '待处理 2 / 处理中 1 / 失败 0（上限 100，并发 5）' },
          { label: '智能体运行中', value: '1' },
          { label: '等待你确认', value: '0' },
          { label: '引擎模式', value: 'auto' },
          { label: '通道', value: 'feishu: 已连接' },
          { label: '会话', value: '共 1 个' },
        ],
      },
    ]);
    await f.ctx.mapping.setPendingNew(U, { cwd: `${f.home}/Git/alpha` });
    f.ctx.lang = 'en';
    const en = (await run('/status')).reply as CardReply;
    expect(en.sections[0]).toMatchObject({
      fields: expect.arrayContaining([{ label: 'Current target', value: 'new session pending in ~/Git/alpha' }]),
    });
  });

  it('/cc without a configured gateway says so (with one, the bridge spools it instead)', async () => {
    expect((await run('/cc 我有哪些笔记')).reply).toEqual({
      kind: 'text',
      text: expect.stringContaining('cc_exec 网关未配置'),
    });
  });

  it('answers usage errors and unknown commands', async () => {
    expect((await run('/switch')).reply).toEqual({
      kind: 'text',
      text: '用法：/switch <序号|会话 ID 前缀>\n序号来自最近一次 /list 的结果。',
    });
    expect((await run('/new ~/x --model')).reply).toEqual({
      kind: 'text',
      text: '--model 后面需要模型别名，例如 --model sonnet。\n用法：/new [目录] [--agent <智能体>] [--model <别名>] [-- 首条问题]',
    });
    expect((await run('/search')).reply).toEqual({ kind: 'text', text: '用法：/search <关键词>' });
    expect((await run('/foo bar')).reply).toEqual({ kind: 'text', text: '未知命令：/foo\n发送 /help 查看可用命令。' });
    f.ctx.lang = 'en';
    expect((await run('/model --x')).reply).toEqual({
      kind: 'text',
      text: 'Unsupported option.\nUsage: /model [number|alias|--clear]',
    });
  });

  it('/new with a prompt returns the run end to end from text', async () => {
    const out = await run('/new ~/Git/alpha -- 帮我先梳理这个项目的架构');
    expect(out.run).toEqual({ prompt: '帮我先梳理这个项目的架构', cwd: `${f.home}/Git/alpha` });
  });
});

describe('runCardAction', () => {
  it('routes navigation buttons and declines pipeline buttons', async () => {
    expect((await runCardAction({ type: 'browse_dir', path: `${f.home}/Git` }, f.ctx)).card).toMatchObject({
      kind: 'card',
      title: '📂 目录浏览',
    });
    expect((await runCardAction({ type: 'select_dir', path: `${f.home}/Git/beta` }, f.ctx)).toast?.type).toBe(
      'success',
    );
    expect((await runCardAction({ type: 'switch', sessionId: 'nope' }, f.ctx)).toast?.type).toBe('error');
    expect(await runCardAction({ type: 'force_send', messageId: 'm', nonce: 'n' }, f.ctx)).toEqual({
      toast: { type: 'warning', text: '此按钮不可用或已失效。' },
    });
  });
});
