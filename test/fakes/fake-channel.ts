import type { BridgeInbound, Channel, ChannelOutbox, ReplyStream, StreamState } from '../../src/bridge/channel.js';
import type { InboundMessage, ReplyTarget } from '../../src/bridge/inbound-message.js';
import type { CardButton, CardReply, Reply } from '../../src/bridge/reply-model.js';

export interface SentMessage {
  messageId: string;
  target: ReplyTarget;
  reply: Reply;
  key: string;
  updates: Reply[];
  streamStates: StreamState[];
  finished?: CardReply;
  /** The buttons the last stream into this message was opened with (Stop). */
  streamButtons?: CardButton[];
}

/**
 * An in-memory channel for bridge tests. Like Feishu, a repeated idempotency key returns the first
 * message instead of creating a second one, so duplicates are visible as `sends` > `messages`.
 * `failNext` makes the next N outbound calls throw (a platform outage).
 */
export class FakeChannel implements Channel {
  readonly id: string;
  readonly messages: SentMessage[] = [];
  /** Every outbound call, including idempotent repeats. */
  readonly calls: Array<{ op: string; key?: string; messageId?: string }> = [];
  /** Every `notify` call (a repeated key included: count these to catch a second send). */
  readonly notifications: Array<{ target: ReplyTarget; cardMessageId: string; text: string; key: string }> = [];
  bridge?: BridgeInbound;
  /** Set by a test to play the platform's processing-time step (downloads, transcription). */
  prepare?: (message: InboundMessage) => Promise<InboundMessage>;
  private failures = 0;
  maxCardChars = 4000;
  readonly outbox: ChannelOutbox;

  constructor(id = 'fake', maxTextChunk = 200) {
    this.id = id;
    const byKey = new Map<string, SentMessage>();
    const create = (target: ReplyTarget, reply: Reply, key: string): SentMessage => {
      const existing = byKey.get(key);
      if (existing) return existing;
      const m: SentMessage = {
        messageId: `m${this.messages.length + 1}`,
        target,
        reply,
        key,
        updates: [],
        streamStates: [],
      };
      byKey.set(key, m);
      this.messages.push(m);
      return m;
    };
    const find = (messageId: string) => {
      const m = this.messages.find((x) => x.messageId === messageId);
      if (!m) throw new Error(`unknown message ${messageId}`);
      return m;
    };
    this.outbox = {
      maxTextChunk,
      send: async (target, reply, key) => {
        this.calls.push({ op: 'send', key });
        this.maybeFail();
        return { messageId: create(target, reply, key).messageId };
      },
      update: async (messageId, reply) => {
        this.calls.push({ op: 'update', messageId });
        this.maybeFail();
        find(messageId).updates.push(reply);
      },
      openStream: async (target, key, options) => {
        this.calls.push({ op: 'openStream', key });
        this.maybeFail();
        const m = options?.existingMessageId
          ? find(options.existingMessageId)
          : create(target, { kind: 'card', title: 'processing', status: 'processing', sections: [] }, key);
        m.streamButtons = options?.buttons ?? [];
        const stream: ReplyStream = {
          messageId: m.messageId,
          update: (state) => void m.streamStates.push(state),
          finish: async (final, fullText) => {
            this.calls.push({ op: 'finish', messageId: m.messageId });
            this.maybeFail();
            m.finished = final;
            const overflow = fullText.length > this.maxCardChars ? fullText.slice(this.maxCardChars) : '';
            return { overflow };
          },
        };
        return stream;
      },
    };
  }

  async notify(target: ReplyTarget, cardMessageId: string, text: string, key: string): Promise<void> {
    this.calls.push({ op: 'notify', key, messageId: cardMessageId });
    this.maybeFail();
    this.notifications.push({ target, cardMessageId, text, key });
  }

  failNext(n: number): void {
    this.failures = n;
  }

  private maybeFail(): void {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('fake channel outage');
    }
  }

  async start(bridge: BridgeInbound): Promise<void> {
    this.bridge = bridge;
  }

  async stop(): Promise<void> {}

  status() {
    return { connected: true };
  }

  /** Plain text of everything sent to a user, in order (final cards rendered as their plain sections). */
  transcript(): string[] {
    return this.messages.map((m) => {
      const r = m.finished ?? m.reply;
      if (r.kind === 'text') return r.text;
      return r.sections.map((s) => ('text' in s ? s.text : '')).join('\n');
    });
  }
}
