// The cc_exec chat beyond the nine scenarios: Anthropic and Doubao streaming their tool calls, no
// provider key reaching the CLI, a CLI too old or missing, and the provider list — the real SDK
// clients against scripted servers on 127.0.0.1, through createGateway.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/ccexec/create-gateway.js';
import { harnessLogger, HARNESS_KEYS } from '../fakes/fake-chainlesschain/gateway-harness.js';
import { anthropicTextTurn, anthropicToolUseTurn } from '../fakes/fake-llm/fake-anthropic-messages-server.js';
import {
  doubaoSingleChunkToolCallTurn,
  openaiTextTurn,
  openaiToolCallTurn,
} from '../fakes/fake-llm/fake-openai-server.js';
import { cards, cc, openaiMessages, pieces, states, useGateway } from './ccexec-gateway-rig.js';

const { setup } = useGateway();

describe('the other providers and the gateway surface', () => {
  it('E1 with Anthropic: tool_use via input_json_delta, result returned in a user tool_result block', async () => {
    const { h, gateway } = await setup();
    const json = cc('note', ['list', '--limit', '10']);
    h.anthropic.enqueue(
      anthropicToolUseTurn({ id: 'toolu_1', name: 'cc_exec', jsonPieces: pieces(json), prefix: '我来查一下。' }),
      anthropicTextTurn('你有 3 条笔记。'),
    );
    const result = await gateway.newChat({ provider: 'anthropic' }).run('列一下最近的 10 个 note');
    expect(states(result.events)).toEqual([
      'THINKING',
      'TOOL_CALLED',
      'TOOL_RUNNING',
      'TOOL_DONE',
      'FINALIZING',
      'COMPLETE',
    ]);
    expect(cards(result.events)[0]).toMatchObject({ commandLine: 'cc note list --limit 10', exitCode: 0 });
    const second = h.anthropic.requests[1]?.body as {
      messages: Array<{ role: string; content: unknown }>;
      system?: string;
    };
    const last = second.messages.at(-1) as {
      role: string;
      content: Array<{ type: string; tool_use_id?: string; content?: string }>;
    };
    expect(last.role).toBe('user');
    expect(last.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(last.content[0]?.content).toContain('RAG 检索增强笔记');
    expect(second.system).toContain('cc_exec');
    expect(result.answer).toBe('你有 3 条笔记。');
  });

  it('Doubao: the whole tool call in one chunk runs the same way', async () => {
    const { h, gateway } = await setup();
    h.openai.enqueue(
      doubaoSingleChunkToolCallTurn({ id: 'call_db', name: 'cc_exec', arguments: cc('memory', ['show']) }),
      openaiTextTurn('你记住了：gateway 的设计。'),
    );
    const result = await gateway.newChat({ provider: 'doubao' }).run('我记了什么？');
    expect(cards(result.events)[0]).toMatchObject({ commandLine: 'cc memory show --limit 20', exitCode: 0 });
    expect(cards(result.events)[0]?.stdout).toContain('记住 gateway 的设计');
    expect((h.openai.requests[0]?.body as { model: string }).model).toBe('ep-20250101-fake');
  });

  it('no provider key reaches the CLI', async () => {
    const dump = 'env-dump.json';
    const { h } = await setup();
    const gateway = createGateway({
      config: h.config,
      paths: h.paths,
      env: { ...h.env, FAKE_CC_DUMP_ENV: path.join(h.fake.home, dump) },
      lang: 'zh',
      logger: harnessLogger,
    });
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: [cc('status', [])] }),
      openaiTextTurn('ok'),
    );
    await gateway.newChat().run('status');
    const childEnv = JSON.stringify(
      (JSON.parse(fs.readFileSync(path.join(h.fake.home, dump), 'utf8')) as { env: unknown }).env,
    );
    for (const value of Object.values(HARNESS_KEYS)) expect(childEnv).not.toContain(value);
  });

  it('reports a CLI that is too old or missing, and then offers no tool', async () => {
    const { h } = await setup({ env: { FAKE_CC_VERSION: '0.160.0' } });
    const old = createGateway({ config: h.config, paths: h.paths, env: h.env, lang: 'en', logger: harnessLogger });
    expect(await old.availability()).toMatchObject({
      status: 'cli-too-old',
      version: '0.160.0',
      min: '0.165.0',
      reason: expect.stringContaining('too old'),
    });
    h.openai.enqueue(openaiTextTurn('The CLI is too old.'));
    const result = await old.newChat().run('list my notes');
    expect(openaiMessages(h, 0).tools).toBeUndefined();
    expect(result.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'tools-unavailable' });

    const missing = createGateway({
      config: { ...h.config, ccexec: { ...h.config.ccexec, cli: ['definitely-not-chainlesschain-4711'] } },
      paths: h.paths,
      env: h.env,
      lang: 'zh',
      logger: harnessLogger,
    });
    expect(await missing.availability()).toMatchObject({
      status: 'cli-not-found',
      reason: expect.stringContaining('definitely-not-chainlesschain-4711'),
    });
  });

  it('lists providers (default first) and explains unknown or missing ones', async () => {
    const { h, gateway } = await setup();
    expect(gateway.providers()).toEqual([
      { id: 'openai', label: 'OpenAI', kind: 'openai', model: 'gpt-4o-mini', tools: true, isDefault: true },
      {
        id: 'doubao',
        label: '豆包 Doubao (Volcengine Ark)',
        kind: 'doubao',
        model: 'ep-20250101-fake',
        tools: true,
        isDefault: false,
      },
      {
        id: 'anthropic',
        label: 'Anthropic Claude',
        kind: 'anthropic',
        model: 'claude-sonnet-4-5',
        tools: true,
        isDefault: false,
      },
      {
        id: 'qwen',
        label: '通义千问 Qwen (DashScope)',
        kind: 'openai-compatible',
        model: 'qwen-plus',
        tools: false,
        isDefault: false,
      },
    ]);
    expect(() => gateway.newChat({ provider: 'nope' })).toThrow(
      expect.objectContaining({ code: 'CCEXEC_UNKNOWN_PROVIDER' }),
    );
    expect(gateway.newChat({ provider: 'openai', model: 'gpt-4.1' }).provider.model).toBe('gpt-4.1');
    const noKey = createGateway({
      config: h.config,
      paths: h.paths,
      env: { ...h.env, OPENAI_API_KEY: '' },
      lang: 'zh',
      logger: harnessLogger,
    });
    expect(() => noKey.newChat()).toThrow(expect.objectContaining({ code: 'PROVIDER_MISSING_KEY' }));
    const none = createGateway({
      config: { ...h.config, ccexec: { ...h.config.ccexec, default_provider: '', providers: {} } },
      paths: h.paths,
      env: h.env,
      lang: 'zh',
      logger: harnessLogger,
    });
    expect(() => none.newChat()).toThrow(expect.objectContaining({ code: 'CCEXEC_NO_PROVIDER' }));
  });
});
