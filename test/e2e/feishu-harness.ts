import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AcceptResult, ActionResult, BridgeInbound } from '../../src/bridge/channel.js';
import type { InboundMessage } from '../../src/bridge/inbound-message.js';
import type { CardAction } from '../../src/bridge/reply-model.js';
import {
  createFeishuChannel,
  type FeishuChannel,
  type FeishuChannelOptions,
} from '../../src/channels/feishu/feishu-channel.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { silentLogger } from '../../src/core/logger.js';
import {
  startFakeFeishuServer,
  type FakeFeishu,
  type FakeFeishuOptions,
} from '../fakes/fake-feishu/fake-feishu-server.js';

/** The SDK caches tenant tokens per app id: a fresh id per channel keeps token counts honest. */
/** The owner of the channel tests' private chats. */
export const OWNER = 'ou_owner0000000000000000000000001';
/** Where a reply to the owner goes (threaded on `replyTo` when given). */
export const ownerTarget = (replyTo?: string) => ({
  channel: 'feishu',
  userId: OWNER,
  chatId: '',
  ...(replyTo ? { replyTo } : {}),
});

export const newAppId = (): string => `cli_${randomBytes(8).toString('hex')}`;

/**
 * A stand-in for the bridge: records every `accept()` and `handleAction()`; `accept` can be held
 * at a gate (a slow disk), `handleAction` answers with a scripted result.
 */
export class RecordingBridge implements BridgeInbound {
  readonly accepted: InboundMessage[] = [];
  /** Index in `accepted` → Date.now() when that accept() returned. */
  readonly acceptReturnedAt: number[] = [];
  readonly actions: Array<{ channel: string; userId: string; action: CardAction; messageId?: string }> = [];
  gate: Promise<void> | undefined;
  acceptResult: AcceptResult = { status: 'accepted' };
  actionResult: () => Promise<ActionResult> = async () => ({ toast: { type: 'success', text: 'ok' } });

  async accept(message: InboundMessage): Promise<AcceptResult> {
    this.accepted.push(message);
    if (this.gate) await this.gate;
    this.acceptReturnedAt.push(Date.now());
    return this.acceptResult;
  }

  async handleAction(input: {
    channel: string;
    userId: string;
    action: CardAction;
    messageId?: string;
  }): Promise<ActionResult> {
    this.actions.push(input);
    return this.actionResult();
  }
}

/** Temp dirs, fakes and channels of one test, undone in reverse order by `cleanup()`. */
export class FeishuHarness {
  private readonly undo: Array<() => unknown> = [];

  async fake(opts: FakeFeishuOptions = {}): Promise<FakeFeishu> {
    const fake = await startFakeFeishuServer(opts);
    this.undo.push(() => fake.close());
    return fake;
  }

  async tempDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'cc-linker-feishu-'));
    // A ledger write of a handler still finishing may add a file while the folder goes: retry then.
    this.undo.push(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
    return dir;
  }

  /** Options of a channel pointed at `fake`, with fast retries and temp images/attachments/runtime dirs. */
  async options(fake: FakeFeishu, over: Partial<FeishuChannelOptions> = {}): Promise<FeishuChannelOptions> {
    const dir = await this.tempDir();
    const config = defaultConfig();
    return {
      appId: newAppId(),
      appSecret: fake.appSecret,
      domain: fake.baseUrl,
      lang: 'zh',
      logger: silentLogger,
      imagesDir: path.join(dir, 'images'),
      images: config.images,
      attachmentsDir: path.join(dir, 'attachments'),
      files: config.files,
      voice: config.voice,
      stream: config.stream,
      runtimeDir: path.join(dir, 'runtime'),
      retryPolicy: { baseDelayMs: 20, maxDelayMs: 200 },
      ...over,
    };
  }

  /** A started channel (connected to `fake`) with a recording bridge. */
  async channel(
    fake: FakeFeishu,
    over: Partial<FeishuChannelOptions> = {},
    bridge = new RecordingBridge(),
  ): Promise<{ channel: FeishuChannel; bridge: RecordingBridge; options: FeishuChannelOptions }> {
    const options = await this.options(fake, over);
    const channel = createFeishuChannel(options);
    this.undo.push(() => channel.stop());
    await channel.start(bridge);
    await fake.waitForConnection();
    return { channel, bridge, options };
  }

  /** A channel that is never started: outbound only. */
  async outboundOnly(
    fake: FakeFeishu,
    over: Partial<FeishuChannelOptions> = {},
  ): Promise<{ channel: FeishuChannel; options: FeishuChannelOptions }> {
    const options = await this.options(fake, over);
    return { channel: createFeishuChannel(options), options };
  }

  async cleanup(): Promise<void> {
    for (const step of this.undo.reverse()) await step();
    this.undo.length = 0;
  }
}

/** Resolves after `ms` (for driving a stream at a realistic pace; never used in assertions). */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The most operations that fall in any window of `windowMs` (timestamps in ms, any order). */
export function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
