// Webhook mode of the Telegram channel: the REAL grammY registers the webhook with the fake Bot
// API, which POSTs updates to our own node:http server as Telegram does (secret header, re-sent
// on anything but 2xx). `fake.webhook.route` plays the user's HTTPS reverse proxy.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTelegramChannel, type TelegramChannelOptions } from '../../src/channels/telegram/telegram-channel.js';
import { WEBHOOK_SECRET_FILE } from '../../src/channels/telegram/webhook-secret.js';
import type { FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import { RecordingBridge } from './feishu-harness.js';
import { OWNER_ID, TelegramHarness, until } from './telegram-harness.js';

const PUBLIC = 'https://bot.example.test';
const URL_ = `${PUBLIC}/tg/hook`;

let h: TelegramHarness;
afterEach(async () => {
  await h.cleanup();
});

type Channel = ReturnType<typeof createTelegramChannel>;

/** A webhook-mode channel on a free port, the fake's "proxy" routed to it, once it is connected. */
async function webhookChannel(
  fake: FakeTelegram,
  over: Partial<TelegramChannelOptions> = {},
  bridge = new RecordingBridge(),
  options?: TelegramChannelOptions,
) {
  const opts = options ?? (await h.options(fake, over));
  const channel = createTelegramChannel({
    ...opts,
    webhook: { url: URL_, listen: { host: '127.0.0.1', port: 0 }, secret: '' },
    ...over,
  });
  let stopped = false;
  const stop = async () => {
    if (!stopped) await channel.stop();
    stopped = true;
  };
  h.later(stop);
  await channel.start(bridge);
  await until(() => channel.webhookAddress() !== undefined, 'the webhook server listening');
  const local = `http://127.0.0.1:${channel.webhookAddress()?.port}`;
  fake.webhook.route(PUBLIC, local);
  return { channel, bridge, local, options: opts, stop };
}

const connected = (channel: Channel) => until(() => channel.status().connected, 'connected');

describe('Telegram webhook mode (real grammY against the fake Bot API)', () => {
  it('registers the webhook and answers 200 only once the bridge accepted the update', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const bridge = new RecordingBridge();
    let release = () => {};
    bridge.gate = new Promise<void>((r) => (release = r));
    const { channel } = await webhookChannel(fake, {}, bridge);
    await connected(channel);
    const [set] = fake.callsOf('setWebhook');
    expect(set?.body).toMatchObject({
      url: URL_,
      allowed_updates: ['message', 'callback_query'],
      drop_pending_updates: false,
    });
    expect(String(set?.body.secret_token)).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(channel.status().detail).toBe('@cc_linker_test_bot (webhook bot.example.test)');

    const update = fake.pushMessage(OWNER_ID, 'hello by webhook');
    await until(() => bridge.accepted.length === 1, 'accept called');
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.webhook.posts).toEqual([]); // no answer while accept() has not returned
    expect(fake.pending()).toBe(1);
    release();
    await until(() => fake.pending() === 0, 'the update confirmed');
    expect(fake.webhook.posts).toEqual([{ update_id: update.update_id, status: 200 }]);
    expect(bridge.accepted[0]).toMatchObject({ text: 'hello by webhook', userId: String(OWNER_ID) });
    expect(fake.callsOf('getUpdates')).toHaveLength(0);
    expect(fake.callsOf('deleteWebhook')).toHaveLength(0);
  });

  it('answers 500 while accept() fails; Telegram sends it again and it is handled once', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const bridge = new RecordingBridge();
    let failures = 2;
    const accept = bridge.accept.bind(bridge);
    const handled: string[] = [];
    bridge.accept = async (m) => {
      if (failures-- > 0) throw new Error('disk full');
      handled.push(m.id);
      return accept(m);
    };
    const { channel } = await webhookChannel(fake, {}, bridge);
    await connected(channel);
    const update = fake.pushMessage(OWNER_ID, 'keep me');
    await until(() => fake.pending() === 0, 'the third delivery confirmed');
    expect(fake.webhook.posts.map((p) => [p.update_id, p.status])).toEqual([
      [update.update_id, 500],
      [update.update_id, 500],
      [update.update_id, 200],
    ]);
    expect(handled).toHaveLength(1);
    expect(fake.webhook.givenUp).toEqual([]);
  });

  it('refuses a wrong or missing secret (401), a foreign path or method, an oversize or broken body; nothing handled', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { channel, bridge, local } = await webhookChannel(fake);
    await connected(channel);
    const secret = fake.webhook.secret;
    const update = JSON.stringify({
      update_id: 99,
      message: {
        message_id: 1,
        date: 1,
        chat: { id: OWNER_ID, type: 'private' },
        from: { id: OWNER_ID, is_bot: false, first_name: 'o' },
        text: 'forged',
      },
    });
    const post = (headers: Record<string, string>, body: string | Buffer = update, p = '/tg/hook', method = 'POST') =>
      fetch(`${local}${p}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(method === 'POST' ? { body } : {}),
      }).then((r) => r.status);
    expect(await post({})).toBe(401);
    expect(await post({ 'x-telegram-bot-api-secret-token': 'wrong' })).toBe(401);
    expect(await post({ 'x-telegram-bot-api-secret-token': `${secret}x` })).toBe(401);
    expect(await post({ 'x-telegram-bot-api-secret-token': secret }, update, '/other')).toBe(404);
    expect(await post({ 'x-telegram-bot-api-secret-token': secret }, update, '/tg/hook', 'GET')).toBe(405);
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    expect(await post({ 'x-telegram-bot-api-secret-token': secret }, big)).toBe(413);
    // The same without a Content-Length (chunked): cut off while it streams in.
    const chunked = await fetch(`${local}/tg/hook`, {
      method: 'POST',
      headers: { 'x-telegram-bot-api-secret-token': secret },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit).then(
      (r) => r.status,
      () => 0,
    );
    expect(chunked).toBe(413);
    expect(await post({ 'x-telegram-bot-api-secret-token': secret }, '{not json')).toBe(400);
    expect(await post({ 'x-telegram-bot-api-secret-token': secret }, '{"message":{}}')).toBe(400);
    expect(bridge.accepted).toEqual([]);
    // The server still takes a genuine update afterwards.
    expect(await post({ 'x-telegram-bot-api-secret-token': secret })).toBe(200);
    expect(bridge.accepted.map((m) => m.text)).toEqual(['forged']);
  });

  it('retries setWebhook until Telegram takes it, showing the failure meanwhile', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    fake.failNext('setWebhook', { status: 500, times: 2 });
    const { channel } = await webhookChannel(fake);
    await until(() => /setWebhook/.test(channel.status().detail ?? ''), 'the failure in status');
    expect(channel.status().connected).toBe(false);
    await connected(channel);
    expect(fake.callsOf('setWebhook')).toHaveLength(3);
    expect(fake.webhook.url).toBe(URL_);
  });

  it('shows why Telegram refuses the webhook URL and keeps trying', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const opts = await h.options(fake);
    const channel = createTelegramChannel({
      ...opts,
      webhook: { url: 'http://plain.example.test/hook', listen: { host: '127.0.0.1', port: 0 }, secret: '' },
    });
    h.later(() => channel.stop());
    await channel.start(new RecordingBridge());
    await until(() => fake.callsOf('setWebhook').length >= 2, 'a second try');
    expect(channel.status()).toMatchObject({ connected: false });
    expect(channel.status().detail).toMatch(/setWebhook.*400 Bad Request: bad webhook: An HTTPS URL must be provided/);
    expect(fake.webhook.url).toBe('');
  });

  it('shows a busy listen address as an error and keeps trying', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const busy = fake.apiRoot.split(':').pop();
    const opts = await h.options(fake);
    const channel = createTelegramChannel({
      ...opts,
      webhook: { url: URL_, listen: { host: '127.0.0.1', port: Number(busy) }, secret: '' },
    });
    h.later(() => channel.stop());
    await channel.start(new RecordingBridge());
    await until(() => /EADDRINUSE/.test(channel.status().detail ?? ''), 'the listen error');
    expect(channel.status().detail).toContain('telegram.webhook_listen');
    expect(fake.callsOf('setWebhook')).toHaveLength(0);
  });

  it('stop keeps the webhook; a restart re-registers the same kept secret and gets what waited', async () => {
    h = new TelegramHarness();
    const fake = await h.fake(undefined, { attempts: 1_000, backoffMs: 50 });
    const first = await webhookChannel(fake);
    await connected(first.channel);
    await first.stop();
    expect(fake.webhook.url).toBe(URL_);
    expect(fake.callsOf('deleteWebhook')).toHaveLength(0);
    const waiting = fake.pushMessage(OWNER_ID, 'sent while stopped');
    await until(() => fake.webhook.posts.length > 0, 'a failed delivery');
    expect(fake.pending()).toBe(1);

    const file = path.join(first.options.runtimeDir ?? '', WEBHOOK_SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = await webhookChannel(fake, {}, new RecordingBridge(), first.options);
    await until(() => second.bridge.accepted.length === 1, 'the waiting update');
    expect(second.bridge.accepted[0]?.id).toBe(
      `telegram:${OWNER_ID}:${(waiting.message as { message_id: number }).message_id}`,
    );
    const secrets = fake.callsOf('setWebhook').map((c) => c.body.secret_token);
    expect(secrets).toHaveLength(2);
    expect(secrets[1]).toBe(secrets[0]);
  });

  it('switching back to polling deletes the webhook and polls what is pending', async () => {
    h = new TelegramHarness();
    const fake = await h.fake(undefined, { attempts: 1_000, backoffMs: 50 });
    const hooked = await webhookChannel(fake);
    await connected(hooked.channel);
    await hooked.stop();
    fake.pushMessage(OWNER_ID, 'for the poller');
    // While the webhook is set Telegram refuses getUpdates; the poller removes it first.
    const { bridge } = await h.channel(fake);
    await until(() => bridge.accepted.length === 1, 'polled');
    expect(fake.callsOf('deleteWebhook')).toHaveLength(1);
    expect(fake.webhook.url).toBe('');
    expect(bridge.accepted[0]?.text).toBe('for the poller');
  });

  it('never writes the secret (generated or configured) into logs or status', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const configured = 'MyOwnWebhookSecret_0123456789';
    const opts = await h.options(fake);
    const { channel, local } = await webhookChannel(
      fake,
      { webhook: { url: URL_, listen: { host: '127.0.0.1', port: 0 }, secret: configured } },
      new RecordingBridge(),
      opts,
    );
    await connected(channel);
    expect(fake.webhook.secret).toBe(configured);
    fake.pushMessage(OWNER_ID, 'hi');
    await until(() => fake.pending() === 0, 'delivered');
    await fetch(`${local}/tg/hook`, {
      method: 'POST',
      headers: { 'x-telegram-bot-api-secret-token': 'nope' },
      body: '{}',
    });
    await channel.stop();
    const all = h.logs.join('') + JSON.stringify(channel.status());
    expect(h.logs.join('')).toContain('without the right secret refused');
    expect(all).not.toContain(configured);
  });
});
