import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFeishuCredentials } from '../../src/channels/feishu/check-credentials.js';
import { startFakeFeishuServer, type FakeFeishu } from '../fakes/fake-feishu/fake-feishu-server.js';

/** `cc-linker setup`'s credential check: the real SDK against the fake Feishu token endpoint. */
const APP_ID = 'cli_aaaabbbbccccdddd';
const SECRET = 'Pt4-check-secret-0d9e2b';

let fake: FakeFeishu;
beforeAll(async () => {
  fake = await startFakeFeishuServer({ appSecret: SECRET });
});
afterAll(async () => {
  await fake.close();
});

describe('checkFeishuCredentials', () => {
  it('accepts the right pair, and a later wrong secret for the same app is still rejected (no token cache)', async () => {
    expect(await checkFeishuCredentials({ appId: APP_ID, appSecret: SECRET, domain: fake.baseUrl })).toEqual({
      ok: true,
    });
    const before = fake.tokenRequests.length;
    const r = await checkFeishuCredentials({ appId: APP_ID, appSecret: `${SECRET}x`, domain: `${fake.baseUrl}/` });
    expect(r).toEqual({ ok: false, reason: 'rejected', detail: 'code 10014: app secret invalid (HTTP 400)' });
    expect(fake.tokenRequests.slice(before)).toEqual([expect.objectContaining({ app_id: APP_ID, ok: false })]);
  });

  it('a malformed app id is refused without a request', async () => {
    const before = fake.tokenRequests.length;
    expect(await checkFeishuCredentials({ appId: 'cli_0123', appSecret: SECRET, domain: fake.baseUrl })).toMatchObject({
      ok: false,
      reason: 'bad-app-id',
    });
    expect(fake.tokenRequests.length).toBe(before);
  });

  it('server errors, rate limits, timeouts and dead hosts are "unreachable", never "rejected"', async () => {
    fake.failNext({ pathPrefix: '/open-apis/auth' }, { status: 503, code: 1, msg: 'busy' });
    expect(await checkFeishuCredentials({ appId: APP_ID, appSecret: SECRET, domain: fake.baseUrl })).toMatchObject({
      ok: false,
      reason: 'unreachable',
      detail: expect.stringContaining('HTTP 503'),
    });
    fake.failNext({ pathPrefix: '/open-apis/auth' }, { status: 400, code: 99991400, msg: 'rate limited' });
    expect(await checkFeishuCredentials({ appId: APP_ID, appSecret: SECRET, domain: fake.baseUrl })).toMatchObject({
      ok: false,
      reason: 'unreachable',
    });
    fake.failNext({ pathPrefix: '/open-apis/auth' }, { delayMs: 2_000 });
    expect(
      await checkFeishuCredentials({ appId: APP_ID, appSecret: SECRET, domain: fake.baseUrl, timeoutMs: 200 }),
    ).toEqual({ ok: false, reason: 'unreachable', detail: 'no answer within 200 ms' });
    fake.failNext({ pathPrefix: '/open-apis/auth' }, { resetConnection: true });
    expect(await checkFeishuCredentials({ appId: APP_ID, appSecret: SECRET, domain: fake.baseUrl })).toMatchObject({
      ok: false,
      reason: 'unreachable',
    });

    const dead = await startFakeFeishuServer();
    const deadUrl = dead.baseUrl;
    await dead.close();
    const r = await checkFeishuCredentials({ appId: APP_ID, appSecret: SECRET, domain: deadUrl });
    expect(r).toMatchObject({
      ok: false,
      reason: 'unreachable',
      detail: expect.stringMatching(/ECONNREFUSED|ECONNRESET|socket hang up/),
    });
  });

  it('a host that is not a Feishu Open API is "unreachable", with a hint about the domain', async () => {
    const r = await checkFeishuCredentials({ appId: APP_ID, appSecret: SECRET, domain: `${fake.baseUrl}/not-feishu` });
    expect(r).toMatchObject({
      ok: false,
      reason: 'unreachable',
      detail: expect.stringContaining('is the domain right?'),
    });
  });

  it('never puts the secret in the detail, even when the server echoes it', async () => {
    fake.failNext(
      { pathPrefix: '/open-apis/auth' },
      { status: 400, code: 10003, msg: `invalid param app_secret=${SECRET}` },
    );
    const r = await checkFeishuCredentials({ appId: APP_ID, appSecret: SECRET, domain: fake.baseUrl });
    expect(r).toMatchObject({ ok: false, reason: 'rejected' });
    expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(JSON.stringify(r)).toContain('app_secret=***');
  });
});
