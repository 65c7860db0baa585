import { afterEach, describe, expect, it } from 'vitest';
import { clearSecrets, registerSecret } from '../../core/redact.js';
import { backoffMs, callFeishu, DEFAULT_RETRY_POLICY, failureOfError, type CallFeishuDeps } from './call-feishu.js';
import { FeishuApiError } from './feishu-api-error.js';

/** An axios-like error with a Feishu answer. */
function httpError(status: number, data: unknown = {}, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`Request failed with status code ${status}`), { response: { status, data, headers } });
}
function netError(code: string): Error {
  return Object.assign(new Error(code === 'ECONNRESET' ? 'socket hang up' : 'network'), { code });
}

/** A fake clock whose sleep advances time; records every delay. */
function clock(): Required<Pick<CallFeishuDeps, 'sleep' | 'now' | 'random'>> & { delays: number[] } {
  let t = 0;
  const delays: number[] = [];
  return {
    delays,
    now: () => t,
    random: () => 0.5,
    sleep: async (ms) => {
      delays.push(ms);
      t += ms;
    },
  };
}

/** A call that fails with `failures` in order, then answers `{code: 0}`; records its calls. */
function script(failures: unknown[]): { fn: () => Promise<{ code: number; data: string }>; calls: number } {
  const s = {
    calls: 0,
    fn: async () => {
      const f = failures[s.calls];
      s.calls += 1;
      if (f instanceof Error) throw f;
      if (f !== undefined) return f as { code: number; data: string };
      return { code: 0, data: 'ok' };
    },
  };
  return s;
}

afterEach(() => clearSecrets());

describe('callFeishu retry policy', () => {
  it('retries 429, code 99991400 in a 200, 5xx and network errors, then succeeds', async () => {
    const c = clock();
    const s = script([
      httpError(429, { code: 99991400 }),
      { code: 99991400, msg: 'limit' },
      httpError(502),
      netError('ECONNRESET'),
    ]);
    const res = await callFeishu('im.message.create', s.fn, c);
    expect(res).toEqual({ code: 0, data: 'ok' });
    expect(s.calls).toBe(5);
    expect(c.delays).toEqual([225, 450, 900, 1_800]); // 300·2^n, jittered to ¾ with random 0.5
  });

  it('honours Retry-After and x-ogw-ratelimit-reset when longer than the backoff', async () => {
    const c = clock();
    const s = script([
      httpError(429, {}, { 'retry-after': '3' }),
      httpError(429, { code: 99991400 }, { 'x-ogw-ratelimit-reset': '2' }),
    ]);
    await callFeishu('op', s.fn, c);
    expect(c.delays).toEqual([3_000, 2_000]);
  });

  it('stops after maxAttempts with a FeishuApiError describing the last failure', async () => {
    const c = clock();
    const s = script(Array.from({ length: 10 }, () => httpError(503, { code: 1500, msg: 'unavailable' })));
    const err = await callFeishu('im.message.patch', s.fn, c).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FeishuApiError);
    expect(s.calls).toBe(DEFAULT_RETRY_POLICY.maxAttempts);
    expect((err as FeishuApiError).attempts).toBe(5);
    expect((err as FeishuApiError).failure).toMatchObject({ kind: 'server', status: 503, code: 1500 });
    expect((err as FeishuApiError).localize('en')).toBe(
      'Feishu API call failed (im.message.patch): “code 1500 unavailable”',
    );
  });

  it('does not start a retry that would end past maxTotalMs', async () => {
    const c = clock();
    const s = script(Array.from({ length: 10 }, () => httpError(429, {}, { 'retry-after': '20' })));
    await expect(callFeishu('op', s.fn, { ...c, policy: { maxTotalMs: 30_000 } })).rejects.toBeInstanceOf(
      FeishuApiError,
    );
    expect(s.calls).toBe(2);
    expect(c.delays).toEqual([20_000]);
  });

  it('refreshes the token once on a token error and retries at once; a second token error is final', async () => {
    const c = clock();
    let refreshed = 0;
    const ok = script([httpError(400, { code: 99991663, msg: 'invalid token' })]);
    await callFeishu('op', ok.fn, { ...c, refreshToken: () => void (refreshed += 1) });
    expect([refreshed, ok.calls, c.delays]).toEqual([1, 2, []]);

    const bad = script([httpError(400, { code: 99991663 }), httpError(400, { code: 99991668 })]);
    await expect(callFeishu('op', bad.fn, { ...c, refreshToken: () => void (refreshed += 1) })).rejects.toMatchObject({
      failure: { kind: 'token' },
    });
    expect([refreshed, bad.calls]).toEqual([2, 2]);
  });

  it('does not retry a refusal (4xx with a Feishu code) or an unknown error', async () => {
    const c = clock();
    const refusal = script([httpError(400, { code: 230001, msg: 'invalid param' })]);
    await expect(callFeishu('op', refusal.fn, c)).rejects.toMatchObject({
      failure: { kind: 'rejected', code: 230001 },
    });
    expect(refusal.calls).toBe(1);
    const bug = script([new TypeError('x is undefined')]);
    await expect(callFeishu('op', bug.fn, c)).rejects.toMatchObject({ failure: { kind: 'rejected' } });
    expect(bug.calls).toBe(1);
    expect(c.delays).toEqual([]);
  });

  it('calls the same closure every time (so a create carries the same uuid on every retry)', async () => {
    const c = clock();
    const uuids: string[] = [];
    const body = { uuid: '5a0e3c1e-0000-5000-8000-000000000009' };
    let n = 0;
    await callFeishu(
      'im.message.create',
      async () => {
        uuids.push(body.uuid);
        n += 1;
        if (n < 3) throw netError('ETIMEDOUT');
        return { code: 0 };
      },
      c,
    );
    expect(uuids).toEqual([body.uuid, body.uuid, body.uuid]);
  });

  it('keeps secrets out of the error message', async () => {
    registerSecret('super-secret-app-secret');
    const s = script([
      httpError(400, {
        code: 10014,
        msg: 'app secret super-secret-app-secret invalid; Bearer t-g1abcdefghijklmnopqrstuvwxyz',
      }),
    ]);
    const err = (await callFeishu('auth', s.fn, clock()).catch((e: unknown) => e)) as FeishuApiError;
    expect(err.userMessage).not.toContain('super-secret-app-secret');
    expect(err.userMessage).not.toContain('t-g1abcdefghijklmnopqrstuvwxyz');
    expect(err.userMessage).toContain('code 10014');
  });
});

describe('failureOfError / backoffMs', () => {
  it('classifies network faults by code and message', () => {
    expect(failureOfError(netError('ETIMEDOUT')).kind).toBe('network');
    expect(failureOfError(new Error('socket hang up')).kind).toBe('network');
    expect(failureOfError(netError('ERR_BAD_OPTION')).kind).toBe('rejected');
  });

  it('grows exponentially up to maxDelayMs, with jitter in the upper half', () => {
    const p = DEFAULT_RETRY_POLICY;
    expect(backoffMs(1, p, () => 0)).toBe(150);
    expect(backoffMs(1, p, () => 1)).toBe(300);
    expect(backoffMs(10, p, () => 1)).toBe(p.maxDelayMs);
  });
});
