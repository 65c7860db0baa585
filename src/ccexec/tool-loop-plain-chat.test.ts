// The tool loop when tools are not to be used: plain chat, refused tools, an unavailable CLI.
import { describe, expect, it, vi } from 'vitest';
import { scriptedProvider, textTurn } from '../../test/fakes/scripted-model-provider.js';
import { plainChatGuardMessage } from './providers/plain-chat-guard.js';
import { ProviderError } from './providers/provider-error.js';
import { harness, zh } from '../../test/fakes/tool-loop-harness.js';

describe('runToolLoop: plain chat and unavailable tools', () => {
  it('gives a provider without tools plain chat with the anti-hallucination guard', async () => {
    const provider = scriptedProvider([textTurn('请切换到支持工具的模型。')], { supportsTools: false });
    const h = harness([], { provider });
    const r = await h.run();
    expect(r.state).toBe('COMPLETE');
    expect(provider.requests[0]?.tools).toEqual([]);
    expect(provider.requests[0]?.messages[0]).toEqual(plainChatGuardMessage('zh'));
    expect(provider.requests[0]?.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(h.exec).not.toHaveBeenCalled();
  });

  it('falls back to plain chat with the guard when a toolsAuto server refuses the tools', async () => {
    const refused = new ProviderError('tools_rejected', { providerId: 'ollama', status: 400, detail: 'no tools' });
    const provider = scriptedProvider([{ throws: refused }, textTurn('请切换到支持工具的模型。')], {
      toolsAuto: true,
      id: 'ollama',
    });
    const onToolsRejected = vi.fn();
    const h = harness([], { provider, onToolsRejected });
    const r = await h.run();
    expect(r.state).toBe('COMPLETE');
    expect(r.answer).toBe('请切换到支持工具的模型。');
    expect(provider.requests.map((q) => q.tools.length)).toEqual([1, 0]);
    expect(provider.requests[1]?.messages.filter((m) => m.role === 'system')).toEqual([plainChatGuardMessage('zh')]);
    expect(r.events.find((e) => e.type === 'notice')).toMatchObject({
      code: 'tools-rejected',
      message: zh('noticeToolsRejected', { provider: 'ollama', model: 'scripted-model' }),
    });
    expect(onToolsRejected).toHaveBeenCalledTimes(1);
    expect(h.exec).not.toHaveBeenCalled();
  });

  it('fails with the clear error when tools were asked for explicitly (no toolsAuto) and refused', async () => {
    const refused = new ProviderError('tools_rejected', {
      providerId: 'vllm',
      model: 'm',
      status: 400,
      detail: 'tool choice requires --enable-auto-tool-choice',
    });
    const provider = scriptedProvider([{ throws: refused }], { toolsAuto: false });
    const onToolsRejected = vi.fn();
    const r = await harness([], { provider, onToolsRejected }).run();
    expect(r.state).toBe('FAILED');
    expect(r.error?.code).toBe('PROVIDER_TOOLS_REJECTED');
    expect(r.error?.message).toContain('tools = false');
    expect(provider.requests).toHaveLength(1);
    expect(onToolsRejected).not.toHaveBeenCalled();
  });

  it('starts as plain chat when told so (the server refused tools earlier)', async () => {
    const provider = scriptedProvider([textTurn('好的。')], { toolsAuto: true });
    const r = await harness([], { provider, plainChat: true }).run();
    expect(r.state).toBe('COMPLETE');
    expect(provider.requests[0]?.tools).toEqual([]);
    expect(provider.requests[0]?.messages[0]).toEqual(plainChatGuardMessage('zh'));
  });

  it('does not offer the tool when the CLI is unavailable, and tells the model why', async () => {
    const h = harness([textTurn('CLI 版本过旧。')], { cli: { available: false, reason: 'CLI too old (0.160.0)' } });
    const r = await h.run();
    expect(h.provider.requests[0]?.tools).toEqual([]);
    expect(h.provider.requests[0]?.messages[1]).toEqual({
      role: 'system',
      content: zh('toolsUnavailable', { reason: 'CLI too old (0.160.0)' }),
    });
    expect(r.events.find((e) => e.type === 'notice')).toMatchObject({ code: 'tools-unavailable' });
  });
});
