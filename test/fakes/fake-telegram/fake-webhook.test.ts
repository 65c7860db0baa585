import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from './fake-telegram-server.js';

const PUBLIC = 'https://hook.example.test';

/** The bridge's side: a listener that records each update POSTed to it and answers as `answer` says. */
async function receiver(answer: (updateId: number, res: http.ServerResponse) => void) {
  const got: number[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const id = (JSON.parse(body) as { update_id: number }).update_id;
      got.push(id);
      answer(id, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    got,
    origin,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let fake: FakeTelegram | undefined;
let closeReceiver: (() => Promise<void>) | undefined;
afterEach(async () => {
  await fake?.close();
  await closeReceiver?.();
});

async function setUp(answer: (id: number, res: http.ServerResponse) => void, attempts?: number) {
  fake = await startFakeTelegram(undefined, { backoffMs: 5, timeoutMs: 60_000, ...(attempts ? { attempts } : {}) });
  const r = await receiver(answer);
  closeReceiver = r.close;
  fake.webhook.route(PUBLIC, r.origin);
  const set = await fetch(`${fake.apiRoot}/bot${fake.token}/setWebhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${PUBLIC}/hook` }),
  });
  expect(set.status).toBe(200);
  return { fake, got: r.got };
}

describe('the fake Telegram webhook: faults of the way to the bridge', () => {
  it('a 5xx of the proxy never reaches the bridge; the update is sent again until a 2xx', async () => {
    const { fake, got } = await setUp((_id, res) => res.end('{}'));
    fake.webhook.failNextPosts({ status: 502, times: 2 });
    const u = fake.pushMessage(1, 'hi');
    await until(() => fake.pending() === 0, 'the update confirmed');
    expect(fake.webhook.posts.map((p) => p.status)).toEqual([502, 502, 200]);
    expect(got).toEqual([u.update_id]);
  });

  it('a lost answer: the bridge handled the POST, Telegram saw no answer and sends the same update again', async () => {
    const { fake, got } = await setUp((_id, res) => res.end('{}'));
    fake.webhook.failNextPosts({ answerLost: true, times: 1 });
    const u = fake.pushMessage(1, 'hi');
    await until(() => fake.pending() === 0, 'the update confirmed');
    expect(fake.webhook.posts.map((p) => p.status)).toEqual([0, 200]);
    expect(got).toEqual([u.update_id, u.update_id]);
  });

  it('onPost sees a POST in flight; dropInFlight cuts it (no answer) and the update comes again', async () => {
    const held: http.ServerResponse[] = [];
    const { fake, got } = await setUp((_id, res) => (held.length === 0 ? held.push(res) : res.end('{}')));
    const answers: Array<Promise<number>> = [];
    fake.webhook.onPost((_id, status) => (answers.push(status), true));
    fake.pushMessage(1, 'hi');
    await until(() => held.length === 1, 'the bridge holding the first POST');
    fake.webhook.dropInFlight();
    expect(await answers[0]).toBe(0);
    await until(() => fake.pending() === 0, 'the update confirmed');
    expect(answers).toHaveLength(1);
    expect(fake.webhook.posts.map((p) => p.status)).toEqual([0, 200]);
    expect(got).toHaveLength(2);
  });

  it('attempts: Infinity never gives an update up; a finite number does (and names it)', async () => {
    let fails = 8;
    const { fake } = await setUp((_id, res) => {
      res.statusCode = fails-- > 0 ? 500 : 200;
      res.end('{}');
    }, Infinity);
    fake.pushMessage(1, 'hi');
    await until(() => fake.pending() === 0, 'the update confirmed');
    expect(fake.webhook.givenUp).toEqual([]);
    expect(fake.webhook.posts.at(-1)?.status).toBe(200);
    await fake.close();
    await closeReceiver?.();

    const second = await setUp((_id, res) => ((res.statusCode = 500), res.end('{}')), 3);
    const u = second.fake.pushMessage(1, 'hi');
    await until(() => second.fake.pending() === 0, 'the update given up');
    expect(second.fake.webhook.givenUp).toEqual([u.update_id]);
    expect(second.fake.webhook.posts).toHaveLength(3);
  });
});
