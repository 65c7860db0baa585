// The shared rig of the fake Feishu server's own tests: a fake per test (closed after it), the
// real SDK's clients pointed at it, and small helpers to send and to read a failure.
import { randomBytes } from 'node:crypto';
import * as Lark from '@larksuiteoapi/node-sdk';
import { afterEach } from 'vitest';
import { startFakeFeishuServer, type FakeFeishu, type FakeFeishuOptions } from './fake-feishu-server.js';

// The SDK caches tenant tokens process-wide per app id: a fresh app id per test keeps counts honest.
export const newAppId = (): string => `cli_${randomBytes(8).toString('hex')}`;

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

export async function startFake(opts: FakeFeishuOptions = {}): Promise<FakeFeishu> {
  const fake = await startFakeFeishuServer(opts);
  cleanups.push(() => fake.close());
  return fake;
}

type Handler = (data: Record<string, unknown>) => unknown;

/**
 * Drops every SDK log line. Needed for the calls these tests make fail on purpose: the Client and
 * EventDispatcher read `loggerLevel || info`, so `LoggerLevel.fatal` (0) silently means `info`.
 */
export const quietLogger: Lark.Logger = {
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  trace: () => {},
};

/** A real WSClient + EventDispatcher against the fake, connected, closed after the test. */
export async function connectWsClient(
  fake: FakeFeishu,
  handlers: Record<string, Handler>,
  extra: { appSecret?: string; onError?: (e: Error) => void; wait?: boolean; quiet?: boolean } = {},
): Promise<Lark.WSClient> {
  const eventDispatcher = new Lark.EventDispatcher({ loggerLevel: Lark.LoggerLevel.error }).register(handlers);
  const wsClient = new Lark.WSClient({
    appId: newAppId(),
    appSecret: extra.appSecret ?? fake.appSecret,
    domain: fake.baseUrl,
    loggerLevel: Lark.LoggerLevel.error,
    ...(extra.quiet ? { logger: quietLogger } : {}),
    ...(extra.onError ? { onError: extra.onError } : {}),
  });
  cleanups.push(() => wsClient.close({ force: true }));
  await wsClient.start({ eventDispatcher });
  if (extra.wait !== false) await fake.waitForConnection();
  return wsClient;
}

/** A real REST client, quiet about the errors these tests provoke on purpose. */
export function restClient(fake: FakeFeishu, appSecret = fake.appSecret): Lark.Client {
  return new Lark.Client({ appId: newAppId(), appSecret, domain: fake.baseUrl, logger: quietLogger });
}

/** What a failed SDK call throws: an AxiosError with `response.status` and the Feishu body in `response.data`. */
export async function failure(call: Promise<unknown>): Promise<{ status?: number; code?: unknown; errCode?: string }> {
  try {
    await call;
  } catch (error) {
    const e = error as { response?: { status: number; data?: { code?: unknown } }; code?: string };
    return { status: e.response?.status, code: e.response?.data?.code, errCode: e.code };
  }
  throw new Error('expected the SDK call to fail');
}

export function sendText(client: Lark.Client, openId: string, text: string, uuid?: string) {
  return client.im.v1.message.create({
    params: { receive_id_type: 'open_id' },
    data: { receive_id: openId, msg_type: 'text', content: JSON.stringify({ text }), ...(uuid ? { uuid } : {}) },
  });
}

export function sendCard(client: Lark.Client, openId: string, card: unknown) {
  return client.im.v1.message.create({
    params: { receive_id_type: 'open_id' },
    data: { receive_id: openId, msg_type: 'interactive', content: JSON.stringify(card) },
  });
}

export const markdownCard = (text: string, streaming = false) => ({
  schema: '2.0',
  config: { streaming_mode: streaming, update_multi: true },
  header: { title: { tag: 'plain_text', content: 'Claude' } },
  body: { elements: [{ tag: 'markdown', element_id: 'answer', content: text }] },
});
