import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createTelegramChannel, type TelegramChannelOptions } from '../../src/channels/telegram/telegram-channel.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { createLogger } from '../../src/core/logger.js';
import { startFakeTelegram, type FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import type { WebhookDeliveryOptions } from '../fakes/fake-telegram/fake-webhook.js';
import { RecordingBridge } from './feishu-harness.js';

export const OWNER_ID = 4242;

/** Resolves once `check` holds (polled every 20 ms), or rejects after `ms` naming `what`. */
export async function until(check: () => boolean, what: string, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The fake Bot API, a channel of the real grammY pointed at it, a recording bridge, and every log line. */
export class TelegramHarness {
  readonly logs: string[] = [];
  private readonly undo: Array<() => unknown> = [];

  /** Runs `step` at cleanup (before what was registered earlier). */
  later(step: () => unknown): void {
    this.undo.push(step);
  }

  async fake(token?: string, webhook?: WebhookDeliveryOptions): Promise<FakeTelegram> {
    const fake = await startFakeTelegram(token, webhook);
    this.undo.push(() => fake.close());
    return fake;
  }

  async options(fake: FakeTelegram, over: Partial<TelegramChannelOptions> = {}): Promise<TelegramChannelOptions> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cc-linker-telegram-'));
    // A ledger write of a handler still finishing may add a file while the folder goes: retry then.
    this.undo.push(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => this.logs.push(chunk.toString('utf8')));
    const config = defaultConfig();
    return {
      botToken: fake.token,
      apiRoot: fake.apiRoot,
      lang: 'en',
      logger: createLogger({ level: 'debug', sink: { stream: sink } }),
      imagesDir: path.join(dir, 'images'),
      images: config.images,
      attachmentsDir: path.join(dir, 'attachments'),
      files: config.files,
      stream: { ...config.stream, throttle_ms: 50 },
      runtimeDir: path.join(dir, 'runtime'),
      pollTimeoutSeconds: 1,
      backoffMs: 100,
      maxRetryAttempts: 2,
      maxRetryDelaySeconds: 2,
      ...over,
    };
  }

  async channel(fake: FakeTelegram, over: Partial<TelegramChannelOptions> = {}, bridge = new RecordingBridge()) {
    const options = await this.options(fake, over);
    const channel = createTelegramChannel(options);
    this.undo.push(() => channel.stop());
    await channel.start(bridge);
    return { channel, bridge, options };
  }

  async cleanup(): Promise<void> {
    for (const step of this.undo.reverse()) await step();
    this.undo.length = 0;
  }
}
