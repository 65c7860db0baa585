// An openai-compatible provider that leaves `tools` unset tries them; a server without tool calling
// (the fake OpenAI server scripted to answer 400 "does not support tools" to any request with tools,
// as Ollama does) gets the question again as plain chat with the anti-hallucination guard, and the
// gateway remembers it for its life. `tools = true` and the same refusal is a clear error instead.
// The real `openai` client, the fake CLI, all through createGateway.
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/ccexec/create-gateway.js';
import { plainChatGuardMessage } from '../../src/ccexec/providers/plain-chat-guard.js';
import {
  harnessLogger,
  startGatewayHarness,
  type GatewayHarness,
} from '../fakes/fake-chainlesschain/gateway-harness.js';
import {
  rejectingToolsScript,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from '../fakes/fake-llm/fake-openai-server.js';

let h: GatewayHarness | undefined;
let noTools: FakeOpenAIServer | undefined;
afterEach(async () => {
  await h?.close();
  await noTools?.close();
  h = undefined;
  noTools = undefined;
});

const ANSWER = '本模型不支持工具调用，请切换到 OpenAI/Doubao/Anthropic 模型。';

async function setup(tools?: boolean) {
  noTools = await startFakeOpenAIServer({ script: rejectingToolsScript(ANSWER) });
  const baseURL = noTools.baseURL;
  h = await startGatewayHarness({
    configure: (config) => {
      config.ccexec.providers.ollama = {
        kind: 'openai-compatible',
        base_url: baseURL,
        api_key_env: '',
        model: 'gemma:2b',
        ...(tools !== undefined ? { tools } : {}),
      };
    },
  });
  const gateway = createGateway({ config: h.config, paths: h.paths, env: h.env, lang: 'zh', logger: harnessLogger });
  return { h, gateway, server: noTools };
}

type Body = { tools?: unknown[]; messages: Array<{ role: string; content?: unknown }> };
const bodies = (server: FakeOpenAIServer) => server.requests.map((r) => r.body as Body);

describe('tools on an openai-compatible server without tool calling', () => {
  it('tools unset: tried, refused, asked again as plain chat with the guard; remembered for later chats', async () => {
    const { gateway, server } = await setup();
    expect(await gateway.availability({ provider: 'ollama' })).toMatchObject({ status: 'available' });
    const chat = gateway.newChat({ provider: 'ollama' });
    expect(chat.provider.supportsTools).toBe(true);
    const first = await chat.run('列下笔记');
    expect(first.state).toBe('COMPLETE');
    expect(first.answer).toBe(ANSWER);
    expect(first.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'tools-rejected' });
    const [offered, plain] = bodies(server);
    expect(offered?.tools).toHaveLength(1);
    expect(plain?.tools).toBeUndefined();
    expect(plain?.messages[0]).toEqual({ role: 'system', content: plainChatGuardMessage('zh').content });
    expect(chat.provider.supportsTools).toBe(false);

    // The same chat and a new one start plain: no request with tools, no second refusal.
    expect((await chat.run('再列一次')).state).toBe('COMPLETE');
    const later = gateway.newChat({ provider: 'ollama' });
    expect(later.provider.supportsTools).toBe(false);
    expect((await later.run('你好')).state).toBe('COMPLETE');
    expect(bodies(server).map((b) => b.tools === undefined)).toEqual([false, true, true, true]);
    // The badge says the model has no tools, and why; the CLI itself is fine.
    expect(await gateway.availability({ provider: 'ollama' })).toMatchObject({
      status: 'no-tools-for-model',
      why: 'rejected',
      reason: expect.stringContaining('拒绝了工具调用'),
    });
    expect(await gateway.cli()).toMatchObject({ status: 'available', version: '0.165.7' });
    expect(gateway.providers().find((p) => p.id === 'ollama')?.tools).toBe(false);
    // Other providers are not affected.
    expect(await gateway.availability({ provider: 'openai' })).toMatchObject({ status: 'available' });
  });

  it('tools = true: the refusal is a clear error naming the fix, and nothing is remembered', async () => {
    const { gateway, server } = await setup(true);
    const result = await gateway.newChat({ provider: 'ollama' }).run('列下笔记');
    expect(result.state).toBe('FAILED');
    expect(result.error?.code).toBe('PROVIDER_TOOLS_REJECTED');
    expect(result.error?.message).toContain('does not support tools');
    expect(result.error?.message).toContain('tools = false');
    expect(server.requests).toHaveLength(1);
    expect(gateway.newChat({ provider: 'ollama' }).provider.supportsTools).toBe(true);
  });

  it('tools = false: never offered, plain chat from the first request', async () => {
    const { gateway, server } = await setup(false);
    expect(await gateway.availability({ provider: 'ollama' })).toMatchObject({
      status: 'no-tools-for-model',
      why: 'config',
    });
    expect((await gateway.newChat({ provider: 'ollama' }).run('列下笔记')).state).toBe('COMPLETE');
    expect(bodies(server).map((b) => b.tools)).toEqual([undefined]);
  });
});
