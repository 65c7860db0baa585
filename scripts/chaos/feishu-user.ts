import { randomBytes } from 'node:crypto';
import {
  cardActionEvent,
  imageMessageEvent,
  postMessageEvent,
  startFakeFeishuServer,
  textMessageEvent,
  type FakeFeishu,
  type FeishuEventEnvelope,
  type SentMessage,
} from '../../test/fakes/fake-feishu/fake-feishu-server.js';
import { sleep } from './bridge-process.js';
import { PERMISSION_TITLE, QUEUED_TITLE, STREAM_TITLE } from './chat-titles.js';
import type { ChatButton, ChatUser, ChaosMessage, MessageKind, ReplyView } from './chat-user.js';
import { FeishuReplies } from './feishu-replies.js';
import type { Rng } from './rng.js';

/** A tiny PNG (valid signature) served as every image's bytes. */
const REST_PREFIXES = ['/open-apis/im/v1/messages', '/open-apis/cardkit/v1/cards', '/open-apis/'];

/** The callback values of a card's buttons (`behaviors[].value`), in document order. */
export function buttonValues(card: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const rec = node as Record<string, unknown>;
    if (Array.isArray(rec.behaviors)) {
      for (const b of rec.behaviors as Array<Record<string, unknown>>)
        if (b && typeof b.value === 'object' && b.value !== null) out.push(b.value as Record<string, unknown>);
    }
    Object.values(rec).forEach(walk);
  };
  walk(card);
  return out;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);

/**
 * The owner on the phone plus the platform's delivery guarantee: every event is pushed over the
 * long connection and pushed again (same event id, same message id) until an ack with code 200
 * arrives — what Feishu does for an event whose ack is missing or failed.
 */
export class FeishuUser implements ChatUser {
  readonly channel = 'feishu';
  readonly label = 'Feishu';
  readonly faultNames = ['429', '5xx', 'slow', 'timeout', 'reset'] as const;
  readonly startArgs: string[] = [];
  readonly config: Record<string, unknown> = {};
  readonly messages: ChaosMessage[] = [];
  readonly clicks: Array<{ cardMessageId: string; decision: string; at: number; ack: number }> = [];
  private readonly loops = new Set<Promise<void>>();
  private readonly replyIndex: FeishuReplies;
  private readonly seenCards = new Set<string>();
  private stopped = false;
  private counter = 0;

  private constructor(
    readonly fake: FakeFeishu,
    readonly owner: string,
    readonly env: Record<string, string>,
    private readonly random: () => number,
  ) {
    this.replyIndex = new FeishuReplies(fake, this.messages);
  }

  /** Starts the fake Feishu server on 127.0.0.1 and returns its owner (`random` spreads re-push timing). */
  static async start(random: () => number): Promise<FeishuUser> {
    const owner = `ou_${randomBytes(16).toString('hex')}`;
    const appId = `cli_${randomBytes(8).toString('hex')}`;
    const fake = await startFakeFeishuServer({ appId, ackTimeoutMs: 5_000 });
    const env = {
      CC_LINKER_FEISHU_APP_ID: appId,
      CC_LINKER_FEISHU_APP_SECRET: fake.appSecret,
      CC_LINKER_FEISHU_OWNER_OPEN_ID: owner,
      CC_LINKER_FEISHU_DOMAIN: fake.baseUrl,
    };
    return new FeishuUser(fake, owner, env, random);
  }

  /** Sends a text (or, for `image` / `post`, an image message) and keeps delivering it until acked. */
  send(kind: MessageKind, text: string, token?: string): ChaosMessage {
    this.counter += 1;
    let env: FeishuEventEnvelope;
    if (kind === 'image') {
      env = imageMessageEvent({ openId: this.owner, imageKey: `img_v3_chaos${this.counter}` });
    } else if (kind === 'post') {
      env = postMessageEvent({
        openId: this.owner,
        title: '',
        paragraphs: [[{ tag: 'text', text }], [{ tag: 'img', image_key: `img_v3_chaos${this.counter}` }]],
      });
    } else {
      env = textMessageEvent({ openId: this.owner, text });
    }
    const messageId = (env.event.message as { message_id: string }).message_id;
    if (kind === 'image' || kind === 'post') this.fake.addImage(messageId, `img_v3_chaos${this.counter}`, PNG);
    const m: ChaosMessage = {
      n: this.counter,
      kind,
      text,
      ...(token ? { token } : {}),
      eventId: env.header.event_id,
      messageId,
      bridgeId: `feishu:${messageId}`,
      firstPushAt: Date.now(),
      pushes: 0,
      acks: [],
      duplicatePushes: 0,
    };
    this.messages.push(m);
    this.track(this.deliver(m, env));
    return m;
  }

  /** Pushes an already acked event again (a duplicate push); its ack is not awaited by the caller. */
  repush(m: ChaosMessage, times = 1): void {
    for (let i = 0; i < times; i += 1) {
      m.duplicatePushes += 1;
      this.track(
        this.fake.repush(m.eventId, { ackTimeoutMs: 5_000 }).then(
          () => undefined,
          () => undefined,
        ),
      );
    }
  }

  /** Clicks a card button; one push, like a user's tap. The ack's data is the toast the user sees. */
  click(button: ChatButton, decision: string): Promise<{ code: number; data?: unknown }> {
    const cardMessageId = button.messageId;
    const env = cardActionEvent({ openId: this.owner, value: button.value, messageId: cardMessageId });
    const acked = this.fake.pushEvent(env, { ackTimeoutMs: 5_000 }).then(
      (r) => r.ack,
      () => ({ code: -1 }),
    );
    this.track(acked.then((ack) => void this.clicks.push({ cardMessageId, decision, at: Date.now(), ack: ack.code })));
    return acked;
  }

  /** Messages not acked yet. */
  get unacked(): ChaosMessage[] {
    return this.messages.filter((m) => m.ackedAt === undefined);
  }

  /** Waits until every delivery loop ended (all acked) or `timeoutMs` passed; then stops re-pushing. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.loops.size > 0 && Date.now() < deadline) await sleep(100);
    this.stopped = true;
  }

  replies(only?: ReadonlySet<string>): ReplyView {
    return this.replyIndex.build(only);
  }

  /** The target's reply card while its head shows "Working" (or "Queued"), with its Stop / Cancel value. */
  stopButton(m: ChaosMessage, which: 'running' | 'queued'): { button?: ChatButton } | undefined {
    const title = which === 'queued' ? QUEUED_TITLE : STREAM_TITLE;
    const card = this.fake.sent.find((s) => {
      if (s.parent_id !== m.messageId || s.msg_type !== 'interactive') return false;
      try {
        return (this.fake.textOf(s).split('\n', 1)[0] ?? '').includes(title);
      } catch {
        return false;
      }
    });
    if (!card) return undefined;
    // A CardKit card is read from its current JSON.
    const c = card.content as { type?: string; data?: { card_id?: unknown } } | null;
    const cardId = c?.type === 'card' && typeof c.data?.card_id === 'string' ? c.data.card_id : undefined;
    const value = buttonValues(cardId ? this.fake.cardJson(cardId) : card.content).find((v) => v.type === 'stop');
    return value ? { button: { messageId: card.message_id, value } } : {};
  }

  noticeOf(m: ChaosMessage): string | undefined {
    const s = this.fake.sent.find((x) => x.parent_id === m.messageId);
    if (!s) return undefined;
    try {
      return this.fake.textOf(s);
    } catch {
      return undefined;
    }
  }

  newPermissionPrompts(): Array<{ allow?: ChatButton; deny?: ChatButton }> {
    const out: Array<{ allow?: ChatButton; deny?: ChatButton }> = [];
    for (const s of this.fake.sent) {
      if (this.seenCards.has(s.message_id) || s.msg_type !== 'interactive') continue;
      this.seenCards.add(s.message_id);
      if (!this.isPermissionCard(s)) continue;
      const values = buttonValues(s.content).filter((v) => v.type === 'permission');
      const button = (decision: string) => {
        const value = values.find((v) => v.decision === decision);
        return value ? { messageId: s.message_id, value } : undefined;
      };
      const allow = button('allow');
      const deny = button('deny');
      out.push({ ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) });
    }
    return out;
  }

  writes(): number {
    return this.fake.sent.length + this.fake.cardkit.length + this.fake.patches.length;
  }

  async afterNextWrite(timeoutMs: number): Promise<boolean> {
    const before = this.writes();
    const deadline = Date.now() + timeoutMs;
    while (this.writes() <= before && Date.now() < deadline) await sleep(15);
    return this.writes() > before;
  }

  connectionsOpened(): number {
    return this.fake.connectionsOpened;
  }

  /** One REST fault: 429, 5xx, a slow answer, a timeout (answer after the client gave up), a reset. */
  platformFault(rng: Rng): string {
    const fake = this.fake;
    const kind = rng.weighted({ rate: 3, server: 3, slow: 2, timeout: 1, reset: 2 });
    const pathPrefix = rng.pick(REST_PREFIXES);
    const times = rng.int(1, 3);
    switch (kind) {
      case 'rate':
        fake.failNext({ pathPrefix }, { status: 429, code: 99991400, msg: 'request trigger frequency limit', times });
        return '429';
      case 'server':
        fake.failNext({ pathPrefix }, { status: rng.pick([500, 502, 503]), times });
        return '5xx';
      case 'slow':
        fake.failNext({ pathPrefix }, { delayMs: rng.int(1_000, 5_000), times: 1 });
        return 'slow';
      case 'timeout':
        // Longer than the channel's 15 s request timeout: Feishu does the work, the answer is lost.
        fake.failNext({ pathPrefix: '/open-apis/im/v1/messages', method: 'POST' }, { delayMs: 16_000, times: 1 });
        return 'timeout';
      default:
        fake.failNext({ pathPrefix }, { resetConnection: true, times: 1 });
        return 'reset';
    }
  }

  async dropConnection(): Promise<void> {
    await this.fake.dropConnection();
  }

  requestStats(): { total: number; injectedErrors: number } {
    const injected = this.fake.requests.filter((r) => r.status === 0 || r.status === 429 || r.status >= 500).length;
    return { total: this.fake.requests.length, injectedErrors: injected };
  }

  close(): Promise<void> {
    return this.fake.close();
  }

  private isPermissionCard(s: SentMessage): boolean {
    try {
      return this.fake.textOf(s).split('\n', 1)[0]?.includes(PERMISSION_TITLE) ?? false;
    } catch {
      return false;
    }
  }

  private track(p: Promise<void>): void {
    this.loops.add(p);
    void p.finally(() => this.loops.delete(p));
  }

  private async deliver(m: ChaosMessage, env: FeishuEventEnvelope): Promise<void> {
    let first = true;
    while (!this.stopped) {
      m.pushes += 1;
      try {
        const fragments = 1 + Math.floor(this.random() * 3);
        const r = first
          ? await this.fake.pushEvent(env, { ackTimeoutMs: 5_000, fragments })
          : await this.fake.repush(m.eventId, { ackTimeoutMs: 5_000, fragments });
        m.acks.push(r.ack.code);
        if (r.ack.code === 200) {
          m.ackedAt = Date.now();
          return;
        }
      } catch {
        m.acks.push(-1);
      }
      first = false;
      // Feishu's re-push comes a few seconds after the missing ack.
      await sleep(1_000 + Math.floor(this.random() * 2_000));
    }
  }
}
