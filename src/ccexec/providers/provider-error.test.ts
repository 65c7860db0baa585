import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/app-error.js';
import { ProviderError, providerErrorFrom, scrubSecret, type ProviderErrorContext } from './provider-error.js';

const KEY = 'plain-looking-secret-value-42';
const ctx: ProviderErrorContext = {
  providerId: 'deepseek',
  model: 'deepseek-chat',
  baseURL: 'https://api.deepseek.com/v1?key=abc',
  apiKey: KEY,
  apiKeyEnv: 'DEEPSEEK_API_KEY',
};

describe('providerErrorFrom', () => {
  it.each([
    [401, 'PROVIDER_AUTH'],
    [403, 'PROVIDER_AUTH'],
    [404, 'PROVIDER_MODEL_NOT_FOUND'],
    [429, 'PROVIDER_RATE_LIMIT'],
    [402, 'PROVIDER_RATE_LIMIT'],
    [400, 'PROVIDER_BAD_REQUEST'],
    [422, 'PROVIDER_BAD_REQUEST'],
    [500, 'PROVIDER_SERVER'],
    [529, 'PROVIDER_SERVER'],
  ])('HTTP %i → %s', (status, code) => {
    expect(providerErrorFrom({ type: 'http', status, detail: 'x' }, ctx).code).toBe(code);
  });

  it.each([
    ['rate_limit_error', 'PROVIDER_RATE_LIMIT'],
    ['authentication_error', 'PROVIDER_AUTH'],
    ['invalid_request_error', 'PROVIDER_BAD_REQUEST'],
    ['overloaded_error', 'PROVIDER_SERVER'],
    [undefined, 'PROVIDER_SERVER'],
  ])('stream error type %s → %s', (errorType, code) => {
    expect(providerErrorFrom({ type: 'http', detail: 'x', errorType }, ctx).code).toBe(code);
  });

  it('calls a refusal about tools of a request that sent tools tools_rejected, with what to do', () => {
    const sent = { ...ctx, toolsSent: true, language: 'en' as const };
    const ollama = 'registry.ollama.ai/library/gemma:2b does not support tools';
    expect(providerErrorFrom({ type: 'http', status: 400, detail: ollama }, sent).code).toBe('PROVIDER_TOOLS_REJECTED');
    const vllm = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';
    expect(providerErrorFrom({ type: 'http', status: 400, detail: vllm }, sent).code).toBe('PROVIDER_TOOLS_REJECTED');
    expect(providerErrorFrom({ type: 'http', status: 422, detail: 'functions not supported' }, sent).code).toBe(
      'PROVIDER_TOOLS_REJECTED',
    );
    const inStream = providerErrorFrom({ type: 'http', detail: 'This model does not support function calling' }, sent);
    expect(inStream.code).toBe('PROVIDER_TOOLS_REJECTED');
    expect(inStream.userMessage).toContain('tools = false');
    expect(
      providerErrorFrom({ type: 'http', status: 400, detail: ollama }, { ...sent, language: 'zh' }).userMessage,
    ).toContain('不接受工具调用');
    // Not about tools, not a 400/422, or no tools sent: the usual classes.
    expect(providerErrorFrom({ type: 'http', status: 400, detail: 'max_tokens too large' }, sent).code).toBe(
      'PROVIDER_BAD_REQUEST',
    );
    expect(providerErrorFrom({ type: 'http', status: 401, detail: 'tools' }, sent).code).toBe('PROVIDER_AUTH');
    expect(providerErrorFrom({ type: 'http', status: 500, detail: 'tools' }, sent).code).toBe('PROVIDER_SERVER');
    expect(providerErrorFrom({ type: 'http', status: 400, detail: ollama }, ctx).code).toBe('PROVIDER_BAD_REQUEST');
  });

  it('maps connection failures and timeouts to a retryable network error that shows the URL without its query', () => {
    const err = providerErrorFrom({ type: 'connection', detail: 'connect ECONNREFUSED' }, ctx);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'PROVIDER_NETWORK', retryable: true });
    expect(err.userMessage).toContain('https://api.deepseek.com/v1');
    expect(err.userMessage).not.toContain('key=abc');
    expect(providerErrorFrom({ type: 'timeout', detail: 'timeout' }, ctx).code).toBe('PROVIDER_NETWORK');
  });

  it('lets an aborted signal win over whatever the SDK threw while closing', () => {
    const err = providerErrorFrom({ type: 'connection', detail: 'socket hang up' }, ctx, AbortSignal.abort());
    expect(err).toMatchObject({ code: 'PROVIDER_ABORTED', kind: 'aborted', retryable: false, exitCode: 130 });
  });

  it('never quotes the server on auth failures and scrubs the key from every other detail', () => {
    const auth = providerErrorFrom({ type: 'http', status: 401, detail: `Incorrect API key provided: ${KEY}` }, ctx);
    expect(auth.userMessage).toContain('DEEPSEEK_API_KEY');
    expect(auth.userMessage).not.toContain('Incorrect');
    const bad = providerErrorFrom({ type: 'http', status: 400, detail: `header ${KEY} rejected` }, ctx);
    expect(bad.userMessage).toContain('header *** rejected');
    for (const err of [auth, bad]) {
      expect([err.message, err.userMessage, String(err.cause), JSON.stringify(err)].join('|')).not.toContain(KEY);
    }
    expect(providerErrorFrom({ type: 'unknown', detail: `oops ${KEY}` }, ctx)).toMatchObject({
      code: 'PROVIDER_PROTOCOL',
    });
  });

  it('speaks English when asked', () => {
    const err = providerErrorFrom({ type: 'http', status: 429, detail: 'slow down' }, { ...ctx, language: 'en' });
    expect(err.userMessage).toMatch(/^The model service deepseek is rate-limiting/);
  });
});

describe('ProviderError', () => {
  it('names the variable, not a value, when the key is missing', () => {
    const err = new ProviderError('missing_key', { providerId: 'doubao', envVar: 'ARK_API_KEY' });
    expect(err.code).toBe('PROVIDER_MISSING_KEY');
    expect(err.userMessage).toBe('模型服务 doubao 缺少 API key：环境变量 ARK_API_KEY 未设置。');
  });
});

describe('scrubSecret', () => {
  it('masks the key and key-shaped tokens, flattens whitespace and caps the length', () => {
    expect(scrubSecret(`a ${KEY}\n\nb sk-abcdefghijklmnopqrstuv`, KEY)).toBe('a *** b ***');
    expect(scrubSecret('x'.repeat(1000), KEY)).toHaveLength(301);
    expect(scrubSecret('no secret here', '')).toBe('no secret here');
  });
});
