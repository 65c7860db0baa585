// The chat side of several agents: /agent, /new --agent, /switch to another agent's session,
// /list naming the agent, /model per agent, and the target a plain text gets afterwards.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFixture, type CommandFixture } from '../../../test/fakes/fake-command-context.js';
import { fakeSession } from '../../../test/fakes/fake-session-directory.js';
import type { AgentCatalog } from './agent-catalog.js';
import { parseChatCommand } from './command-parser.js';
import { runChatCommand } from './run-command.js';

const U = 'ou_owner';
const CODEX_ID = '019a0000-aaaa-7bbb-8ccc-000000000001';

const catalog: AgentCatalog = {
  list: () => [
    { name: 'claude', label: 'Claude Code' },
    { name: 'codex', label: 'Codex' },
    { name: 'qwen', label: 'Qwen Code', available: false },
  ],
  defaultAgent: 'claude',
  models: async (agent) => (agent === 'codex' ? [{ id: 'gpt-5.4', name: 'GPT-5.4' }, { id: 'gpt-5.4-mini' }] : []),
};

let f: CommandFixture;
beforeEach(async () => {
  f = await commandFixture({ agents: catalog });
});
afterEach(() => f.cleanup());

const run = async (text: string) => {
  const cmd = parseChatCommand(text);
  if (!cmd) throw new Error(`not a command: ${text}`);
  return runChatCommand(cmd, f.ctx);
};
const text = (out: { reply: unknown }) => (out.reply as { text: string }).text;

describe('parsing', () => {
  it('/new takes --agent in both spellings and keeps the cwd and prompt', () => {
    expect(parseChatCommand('/new ~/Git/my app --agent Codex -- 看看')).toEqual({
      name: 'new',
      cwd: '~/Git/my app',
      agent: 'codex',
      prompt: '看看',
    });
    expect(parseChatCommand('/new --agent=qwen --model m1')).toEqual({ name: 'new', agent: 'qwen', model: 'm1' });
    expect(parseChatCommand('/new ~/x --agent')).toEqual({
      name: 'usage',
      command: 'new',
      problem: 'missing-agent-name',
    });
    expect(parseChatCommand('/agent')).toEqual({ name: 'agent' });
    expect(parseChatCommand('/agents Qwen')).toEqual({ name: 'agent', agent: 'qwen' });
  });
});

describe('/agent', () => {
  it('lists the agents with the one /new uses, and sets the user default', async () => {
    const card = (await run('/agent')).reply as { kind: 'card'; sections: Array<{ text?: string }> };
    const all = card.sections.map((s) => s.text ?? '').join('\n');
    expect(all).toContain('/new 默认使用：Claude Code');
    expect(all).toContain('• codex — Codex');
    expect(all).toContain('• claude — Claude Code ✓');
    expect(all).toContain('• qwen — Qwen Code（未安装）');
    expect(text(await run('/agent codex'))).toBe('✅ /new 默认智能体已设置为 Codex（已有会话不变）');
    const out = await run('/new ~/Git/alpha -- hi');
    expect(out.run).toEqual({ prompt: 'hi', cwd: path.join(f.home, 'Git/alpha'), agent: 'codex' });
  });

  it('refuses an agent that is not configured, naming the ones that are, and changes nothing', async () => {
    expect(text(await run('/agent kodex'))).toBe('没有名为「kodex」的智能体。可用：claude, codex, qwen');
    expect(await f.ctx.mapping.defaultAgentOf(U)).toBeNull();
    const out = await run('/new ~/Git/alpha --agent gemini -- hi');
    expect(out.run).toBeUndefined();
    expect(text(out)).toBe('没有名为「gemini」的智能体。可用：claude, codex, qwen');
    expect(await f.ctx.mapping.get(U)).toBeNull();
  });

  it('without a catalog only Claude Code exists', async () => {
    delete f.ctx.agents;
    expect(text(await run('/new ~/Git/alpha --agent codex -- hi'))).toBe('没有名为「codex」的智能体。可用：claude');
  });
});

describe('/new --agent', () => {
  it('creates the session with the agent; the next plain text goes to it with the agent', async () => {
    const out = await run('/new ~/Git/alpha --agent codex --model gpt-5.4 -- 列出文件');
    expect(text(out)).toBe('🆕 正在 ~/Git/alpha 创建新会话…\n智能体：Codex');
    expect(out.run).toEqual({
      prompt: '列出文件',
      cwd: path.join(f.home, 'Git/alpha'),
      model: 'gpt-5.4',
      agent: 'codex',
    });
    expect(await f.ctx.mapping.completeClaim(U, 'feishu:om_1', CODEX_ID, path.join(f.home, 'Git/alpha'))).toBe(true);
    expect(await f.ctx.mapping.claimForMessage(U, 'feishu:om_2')).toMatchObject({
      kind: 'session',
      sessionId: CODEX_ID,
      agent: 'codex',
      model: 'gpt-5.4',
    });
  });

  it('a pending directory remembers its agent; a Claude model is not carried into a Codex session', async () => {
    await run('/new ~/Git/beta --model sonnet');
    await run('/new ~/Git/alpha --agent qwen');
    const claim = await f.ctx.mapping.claimForMessage(U, 'feishu:om_9');
    expect(claim).toMatchObject({ kind: 'new', agent: 'qwen' });
    expect(claim).not.toHaveProperty('model');
  });
});

describe('sessions of other agents', () => {
  beforeEach(() => {
    f.sessions.sessions.set(
      CODEX_ID,
      fakeSession(CODEX_ID, { agent: 'codex', cwd: path.join(f.home, 'Git/alpha'), title: 'Codex work' }),
    );
  });

  it('/list names the agent; /switch carries it into the mapping', async () => {
    const list = (await run('/list')).reply as { kind: 'card'; sections: Array<{ text?: string }> };
    expect(list.sections.map((s) => s.text ?? '').join('\n')).toMatch(/Codex work[\s\S]*Codex · 终端/);
    await run('/switch 1');
    expect(await f.ctx.mapping.claimForMessage(U, 'feishu:om_3')).toMatchObject({
      kind: 'session',
      sessionId: CODEX_ID,
      agent: 'codex',
    });
  });

  it('/switch refuses a session whose agent is not configured here, and keeps the target', async () => {
    f.ctx.agents = { ...catalog, list: () => catalog.list().filter((a) => a.name !== 'codex') };
    await run('/new ~/Git/beta');
    const out = await run(`/switch ${CODEX_ID.slice(0, 8)}`);
    expect(text(out)).toContain('属于 codex，但本机未配置该智能体（[agents.codex]）');
    expect(await f.ctx.mapping.get(U)).toMatchObject({ type: 'pending_new_session' });
  });

  it('/model lists what the agent offers and sets one of them; an unknown id is refused', async () => {
    await run(`/switch ${CODEX_ID.slice(0, 8)}`);
    const card = (await run('/model')).reply as { kind: 'card'; title: string; sections: Array<{ text?: string }> };
    expect(card.title).toContain('Codex');
    expect(card.sections.map((s) => s.text ?? '').join('\n')).toContain('1. gpt-5.4 (GPT-5.4)\n2. gpt-5.4-mini');
    expect(text(await run('/model 2'))).toContain('gpt-5.4-mini');
    expect(await f.ctx.mapping.claimForMessage(U, 'feishu:om_4')).toMatchObject({ model: 'gpt-5.4-mini' });
    expect(text(await run('/model sonnet'))).toBe('未知模型「sonnet」。可用：gpt-5.4, gpt-5.4-mini');
  });
});
