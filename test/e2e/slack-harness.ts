import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createSlackChannel, type SlackChannelOptions } from '../../src/channels/slack/slack-channel.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { createLogger } from '../../src/core/logger.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/fake-slack-server.js';
import { RecordingBridge } from './feishu-harness.js';

export const OWNER = 'U0OWNER';
export const STRANGER = 'U0STRANGER';

/** The fake Slack, a channel of the real Bolt pointed at it, a recording bridge, and every log line. */
export class SlackHarness {
  readonly logs: string[] = [];
  private readonly undo: Array<() => unknown> = [];

  async fake(ackTimeoutMs = 3_000): Promise<FakeSlack> {
    const fake = await startFakeSlack();
    fake.hub.ackTimeoutMs = ackTimeoutMs;
    this.undo.push(() => fake.close());
    return fake;
  }

  async options(fake: FakeSlack, over: Partial<SlackChannelOptions> = {}): Promise<SlackChannelOptions> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cc-linker-slack-'));
    // A ledger write of a handler still finishing may add a file while the folder goes: retry then.
    this.undo.push(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => this.logs.push(chunk.toString('utf8')));
    const config = defaultConfig();
    return {
      botToken: fake.botToken,
      appToken: fake.appToken,
      apiUrl: fake.apiUrl,
      lang: 'en',
      logger: createLogger({ level: 'debug', sink: { stream: sink } }),
      imagesDir: path.join(dir, 'images'),
      images: config.images,
      attachmentsDir: path.join(dir, 'attachments'),
      files: config.files,
      stream: { ...config.stream, throttle_ms: 50 },
      runtimeDir: path.join(dir, 'runtime'),
      retries: 2,
      backoffMs: 100,
      clientPingTimeoutMs: 300,
      ...over,
    };
  }

  async channel(fake: FakeSlack, over: Partial<SlackChannelOptions> = {}, bridge = new RecordingBridge()) {
    const options = await this.options(fake, over);
    const channel = createSlackChannel(options);
    this.undo.push(() => channel.stop());
    await channel.start(bridge);
    return { channel, bridge, options };
  }

  async cleanup(): Promise<void> {
    for (const step of this.undo.reverse()) await step();
    this.undo.length = 0;
  }
}
