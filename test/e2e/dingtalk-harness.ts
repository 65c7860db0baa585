import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createDingTalkChannel, type DingTalkChannelOptions } from '../../src/channels/dingtalk/dingtalk-channel.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { createLogger } from '../../src/core/logger.js';
import {
  startFakeDingTalk,
  type FakeDingTalk,
  type FakeDingTalkOptions,
} from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { RecordingBridge } from './feishu-harness.js';

export { until } from './telegram-harness.js';
export const OWNER_STAFF_ID = 'owner0001';

/** The fake DingTalk, a channel of the real dingtalk-stream client pointed at it, a recording bridge, every log line. */
export class DingTalkHarness {
  readonly logs: string[] = [];
  private readonly undo: Array<() => unknown> = [];

  async fake(o: FakeDingTalkOptions = {}): Promise<FakeDingTalk> {
    const fake = await startFakeDingTalk({ ackTimeoutMs: 500, ...o });
    this.undo.push(() => fake.close());
    return fake;
  }

  async dir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cc-linker-dingtalk-'));
    // A ledger write of a handler still finishing may add a file while the folder goes: retry then.
    this.undo.push(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
    return dir;
  }

  async options(fake: FakeDingTalk, over: Partial<DingTalkChannelOptions> = {}): Promise<DingTalkChannelOptions> {
    const dir = await this.dir();
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => this.logs.push(chunk.toString('utf8')));
    const config = defaultConfig();
    return {
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      apiBase: fake.apiBase,
      oapiBase: fake.apiBase,
      lang: 'en',
      logger: createLogger({ level: 'debug', sink: { stream: sink } }),
      imagesDir: path.join(dir, 'images'),
      images: config.images,
      attachmentsDir: path.join(dir, 'attachments'),
      files: config.files,
      stream: config.stream,
      runtimeDir: path.join(dir, 'runtime'),
      retryMs: 50,
      ...over,
    };
  }

  async channel(fake: FakeDingTalk, over: Partial<DingTalkChannelOptions> = {}, bridge = new RecordingBridge()) {
    const options = await this.options(fake, over);
    const channel = createDingTalkChannel(options);
    this.undo.push(() => channel.stop());
    await channel.start(bridge);
    return { channel, bridge, options };
  }

  async cleanup(): Promise<void> {
    for (const step of this.undo.reverse()) await step();
    this.undo.length = 0;
  }
}

/** Turns `config`'s DingTalk channel on, against `fake` (both API hosts) with `owner` as its owner. */
export function pointDingTalkAt(
  config: Config,
  fake: Pick<FakeDingTalk, 'clientId' | 'clientSecret' | 'apiBase'>,
  owner: string,
): void {
  Object.assign(config.dingtalk, {
    enabled: true,
    client_id: fake.clientId,
    client_secret: fake.clientSecret,
    owner_staff_id: owner,
    api_base: fake.apiBase,
    oapi_base: fake.apiBase,
  });
}
