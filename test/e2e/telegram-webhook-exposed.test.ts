/**
 * The Telegram channel in webhook mode with `webhook_listen` beyond loopback: one warning at start
 * (plain HTTP open to the network, keep it behind the HTTPS proxy or listen on 127.0.0.1), said
 * once however often listening is retried — and never a refusal. On loopback nothing is said.
 * The non-loopback address is a documentation one (192.0.2.1, never this machine's), so the test
 * opens no port beyond 127.0.0.1: listening fails and is retried, which shows the warning is not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTelegramChannel } from '../../src/channels/telegram/telegram-channel.js';
import { RecordingBridge } from './feishu-harness.js';
import { TelegramHarness, until } from './telegram-harness.js';

let h: TelegramHarness;
afterEach(async () => {
  await h.cleanup();
});

const lines = (what: string) =>
  h.logs
    .join('')
    .split('\n')
    .filter((l) => l.includes(what));
const EXPOSED = 'telegram webhook listens beyond this machine over plain HTTP';

async function start(host: string) {
  h = new TelegramHarness();
  const fake = await h.fake();
  const channel = createTelegramChannel({
    ...(await h.options(fake)),
    webhook: { url: 'https://bot.example.test/tg/hook', listen: { host, port: 0 }, secret: '' },
  });
  h.later(() => channel.stop());
  await channel.start(new RecordingBridge());
  return { channel, fake };
}

describe('Telegram webhook listening beyond loopback', () => {
  it('warns once at start, keeps trying to listen, and never refuses', async () => {
    const { channel } = await start('192.0.2.1');
    await until(() => lines('could not listen, retrying').length >= 2, 'listening retried');
    expect(lines(EXPOSED)).toHaveLength(1);
    const line = lines(EXPOSED)[0] ?? '';
    expect(line).toContain(' WARN ');
    expect(line).toContain('192.0.2.1:0 is not a loopback address');
    expect(line).toContain('plain HTTP');
    expect(line).toContain('127.0.0.1:0');
    expect(channel.status().connected).toBe(false);
  });

  it('says nothing on loopback', async () => {
    const { channel } = await start('127.0.0.1');
    await until(() => channel.status().connected, 'connected');
    expect(lines(EXPOSED)).toEqual([]);
  });
});
