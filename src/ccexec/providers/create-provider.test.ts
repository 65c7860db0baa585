import { describe, expect, it } from 'vitest';
import type { CcexecProviderConfig } from '../../core/config-schema.js';
import type { ModelProvider, ProviderEvent } from './canonical.js';
import {
  createProvider,
  findProviderPreset,
  knownProviderPresets,
  providerKeyEnv,
  toolsModeOf,
} from './create-provider.js';
import { ProviderError } from './provider-error.js';

/** A fetch that never leaves the process: records where the SDK went and answers an empty stream. */
function recordingFetch(): { fetch: typeof fetch; calls: Array<{ url: string; authorization: string | null }> } {
  const calls: Array<{ url: string; authorization: string | null }> = [];
  const fake: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ url, authorization: new Headers(init?.headers).get('authorization') });
    return new Response('data: [DONE]\n\n', { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch: fake, calls };
}

async function drain(p: ModelProvider): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const ev of p.stream([{ role: 'user', content: 'q' }], [])) out.push(ev);
  return out;
}

function thrown(fn: () => unknown): ProviderError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw err;
  }
  throw new Error('did not throw');
}

describe('createProvider', () => {
  it('openai: OpenAI’s endpoint and OPENAI_API_KEY by default; works on a schema-parsed table', async () => {
    const rec = recordingFetch();
    const p = createProvider(
      'openai',
      { kind: 'openai', model: 'gpt-x', base_url: '', api_key_env: '' } satisfies CcexecProviderConfig,
      { OPENAI_API_KEY: 'sk-openai-env-key-000000000' },
      { fetch: rec.fetch },
    );
    expect(p).toMatchObject({
      id: 'openai',
      kind: 'openai',
      model: 'gpt-x',
      supportsTools: true,
      contextLimit: 128_000,
    });
    await drain(p);
    expect(rec.calls).toEqual([
      { url: 'https://api.openai.com/v1/chat/completions', authorization: 'Bearer sk-openai-env-key-000000000' },
    ]);
  });

  it('doubao: Volcengine Ark by default, the key from the named variable (trimmed)', async () => {
    const rec = recordingFetch();
    const p = createProvider(
      'my-doubao',
      { kind: 'doubao', model: 'ep-20250101-abc', api_key_env: 'MY_ARK_KEY', context_limit: 32_000 },
      { MY_ARK_KEY: ' ark-key-123456 \n' },
      { fetch: rec.fetch },
    );
    expect(p).toMatchObject({ kind: 'doubao', supportsTools: true, contextLimit: 32_000 });
    await drain(p);
    expect(rec.calls).toEqual([
      { url: 'https://ark.cn-beijing.volces.com/api/v3/chat/completions', authorization: 'Bearer ark-key-123456' },
    ]);
  });

  it('doubao without api_key_env reads ARK_API_KEY', async () => {
    const rec = recordingFetch();
    await drain(
      createProvider(
        'doubao',
        { kind: 'doubao', model: 'doubao-x' },
        { ARK_API_KEY: 'ark-default-key' },
        { fetch: rec.fetch },
      ),
    );
    expect(rec.calls[0]?.authorization).toBe('Bearer ark-default-key');
  });

  it('a table named after a preset gets its base URL and key variable; tools unset are tried (auto)', async () => {
    const rec = recordingFetch();
    const p = createProvider(
      'deepseek',
      { kind: 'openai-compatible', model: 'deepseek-chat' },
      { DEEPSEEK_API_KEY: 'ds-key-abcdef' },
      { fetch: rec.fetch },
    );
    expect(p.supportsTools).toBe(true);
    expect(p.toolsAuto).toBe(true);
    await drain(p);
    expect(rec.calls).toEqual([
      { url: 'https://api.deepseek.com/v1/chat/completions', authorization: 'Bearer ds-key-abcdef' },
    ]);
  });

  it('an explicit tools = true and base_url win over the preset; aliases select presets', async () => {
    const rec = recordingFetch();
    const p = createProvider(
      'Kimi',
      { kind: 'openai-compatible', model: 'moonshot-v1-8k', tools: true, base_url: 'https://proxy.example/v1' },
      { MOONSHOT_API_KEY: 'ms-key-abcdef' },
      { fetch: rec.fetch },
    );
    expect(p.supportsTools).toBe(true);
    expect(p.toolsAuto).toBe(false);
    await drain(p);
    expect(rec.calls).toEqual([
      { url: 'https://proxy.example/v1/chat/completions', authorization: 'Bearer ms-key-abcdef' },
    ]);
  });

  it('anthropic: Anthropic’s endpoint and ANTHROPIC_API_KEY by default', async () => {
    const rec = recordingFetch();
    const p = createProvider(
      'claude',
      { kind: 'anthropic', model: 'claude-x' },
      { ANTHROPIC_API_KEY: 'anthropic-env-key-1' },
      { fetch: rec.fetch, maxTokens: 2048 },
    );
    expect(p).toMatchObject({ kind: 'anthropic', supportsTools: true });
    const events = await drain(p);
    expect(events).toEqual([{ type: 'finish', reason: 'other' }]);
    expect(rec.calls[0]?.url).toBe('https://api.anthropic.com/v1/messages');
  });

  it('prepare() loads the SDK ahead of the first stream, and the stream still works after it', async () => {
    for (const kind of ['openai', 'anthropic'] as const) {
      const rec = recordingFetch();
      const key = kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
      const p = createProvider(kind, { kind, model: 'm' }, { [key]: 'sk-prepare-000000000' }, { fetch: rec.fetch });
      await expect(p.prepare?.()).resolves.toBeUndefined();
      await drain(p).catch(() => undefined);
      expect(rec.calls).toHaveLength(1);
    }
  });

  it('ollama needs no key', async () => {
    const rec = recordingFetch();
    await drain(createProvider('ollama', { kind: 'openai-compatible', model: 'qwen2.5' }, {}, { fetch: rec.fetch }));
    expect(rec.calls[0]?.url).toBe('http://127.0.0.1:11434/v1/chat/completions');
  });

  it('an unset or empty key variable is PROVIDER_MISSING_KEY naming the variable', () => {
    for (const env of [{}, { DEEPSEEK_API_KEY: '  ' }]) {
      const err = thrown(() => createProvider('deepseek', { kind: 'openai-compatible', model: 'deepseek-chat' }, env));
      expect(err.code).toBe('PROVIDER_MISSING_KEY');
      expect(err.userMessage).toContain('DEEPSEEK_API_KEY');
    }
  });

  it('a key pasted into api_key_env is refused without being repeated', () => {
    const pasted = 'sk-proj-PASTEDKEYVALUE1234567890';
    const err = thrown(() => createProvider('openai', { kind: 'openai', model: 'm', api_key_env: pasted }, {}));
    expect(err.code).toBe('PROVIDER_CONFIG');
    expect(`${err.message}${JSON.stringify(err)}`).not.toContain('PASTEDKEYVALUE');
  });

  it('needs a model, and a base URL for an openai-compatible table no preset covers', () => {
    expect(thrown(() => createProvider('openai', { kind: 'openai' }, { OPENAI_API_KEY: 'k-123456' })).code).toBe(
      'PROVIDER_CONFIG',
    );
    expect(thrown(() => createProvider('my-server', { kind: 'openai-compatible', model: 'm' }, {})).code).toBe(
      'PROVIDER_CONFIG',
    );
    expect(thrown(() => createProvider('custom', { kind: 'openai-compatible', model: 'm' }, {})).code).toBe(
      'PROVIDER_CONFIG',
    );
  });

  it('applies a preset only within its protocol family', () => {
    // `anthropic` names the Anthropic preset, whose URL must not be used for an OpenAI-protocol table.
    const err = thrown(() =>
      createProvider(
        'anthropic',
        { kind: 'openai-compatible', model: 'm' },
        { ANTHROPIC_API_KEY: 'k-123456' },
        { language: 'en' },
      ),
    );
    expect(err.code).toBe('PROVIDER_CONFIG');
    expect(err.userMessage).toContain('base_url');
  });
});

describe('knownProviderPresets', () => {
  it('lists the twelve well-known providers', () => {
    expect(Object.keys(knownProviderPresets).sort()).toEqual([
      'anthropic',
      'custom',
      'deepseek',
      'doubao',
      'ernie',
      'gemini',
      'moonshot',
      'ollama',
      'openai',
      'qwen',
      'spark',
      'zhipu',
    ]);
  });

  it('names the key variable: api_key_env, else the preset’s (same family), else the kind’s', () => {
    expect(providerKeyEnv('deepseek', { kind: 'openai-compatible' })).toBe('DEEPSEEK_API_KEY');
    expect(providerKeyEnv('deepseek', { kind: 'openai-compatible', api_key_env: 'MY_KEY' })).toBe('MY_KEY');
    expect(providerKeyEnv('kimi', { kind: 'openai-compatible' })).toBe('MOONSHOT_API_KEY');
    expect(providerKeyEnv('mine', { kind: 'openai' })).toBe('OPENAI_API_KEY');
    expect(providerKeyEnv('claude', { kind: 'anthropic' })).toBe('ANTHROPIC_API_KEY');
    expect(providerKeyEnv('local', { kind: 'openai-compatible' })).toBe('');
  });

  it('tools: an explicit switch wins; unset is on for OpenAI, Doubao, Anthropic and tried (auto) for openai-compatible', () => {
    expect(toolsModeOf({ kind: 'openai' })).toBe('on');
    expect(toolsModeOf({ kind: 'doubao' })).toBe('on');
    expect(toolsModeOf({ kind: 'anthropic' })).toBe('on');
    expect(toolsModeOf({ kind: 'openai-compatible' })).toBe('auto');
    expect(toolsModeOf({ kind: 'openai-compatible', tools: true })).toBe('on');
    expect(toolsModeOf({ kind: 'openai-compatible', tools: false })).toBe('off');
    expect(toolsModeOf({ kind: 'openai', tools: false })).toBe('off');
    const off = createProvider(
      'qwen',
      { kind: 'openai-compatible', model: 'q', tools: false },
      { DASHSCOPE_API_KEY: 'k' },
    );
    expect([off.supportsTools, off.toolsAuto]).toEqual([false, false]);
  });

  it('gives every hosted preset an https base URL and a key variable', () => {
    for (const [id, p] of Object.entries(knownProviderPresets)) {
      if (id === 'custom' || id === 'ollama') continue;
      expect(p.baseURL, id).toMatch(/^https:\/\//);
      expect(p.apiKeyEnv, id).toMatch(/^[A-Z_]+_API_KEY$/);
    }
  });

  it('finds presets by name or alias, case-insensitively', () => {
    expect(findProviderPreset('DashScope')?.label).toContain('Qwen');
    expect(findProviderPreset('volcengine')?.kind).toBe('doubao');
    expect(findProviderPreset('nope')).toBeUndefined();
  });
});
