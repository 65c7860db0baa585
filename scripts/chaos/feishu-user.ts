import {
  cardActionEvent,
  imageMessageEvent,
  postMessageEvent,
  textMessageEvent,
  type FakeFeishu,
  type FeishuEventEnvelope,
} from '../../test/fakes/fake-feishu/fake-feishu-server.js';
import { sleep } from './bridge-process.js';

/** What a chaos message is, for the verdict (commands expect a notice, the rest an answer). */
export type MessageKind =
  'text' | 'new-prompt' | 'new-bare' | 'switch' | 'command' | 'image' | 'post' | 'tool' | 'slow';

/** One message the simulated user sent, and what the platform saw of its delivery. */
export interface ChaosMessage {
  n: number;
  kind: MessageKind;
  text: string;
  /** A word that must appear in the answer (and in no other message's answer). */
  token?: string;
  eventId: string;
  /** The IM message id (`om_…`) replies thread on. */
  messageId: string;
  /** Bridge message id (`feishu:<om_…>`): the base of the delivery uuids. */
  bridgeId: string;
  firstPushAt: number;
  /** Every push of the event (first + re-pushes after a missing or failed ack). */
  pushes: number;
  /** Ack codes in order; -1 = no ack arrived (bridge down or killed mid-handler). */
  acks: number[];
  ackedAt?: number;
  /** Extra re-pushes of an already acked event (the "Feishu pushed it twice" fault). */
  duplicatePushes: number;
  /** When the harness first saw a final reply (answer, error or notice). */
  finalSeenAt?: number;
  /** When the harness first saw the answer's token in a reply, a card still streaming included. */
  shownAt?: number;
}

/** A tiny PNG (valid signature) served as every image's bytes. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);

/**
 * The owner on the phone plus the platform's delivery guarantee: every event is pushed over the
 * long connection and pushed again (same event id, same message id) until an ack with code 200
 * arrives — what Feishu does for an event whose ack is missing or failed.
 */
export class FeishuUser {
  readonly messages: ChaosMessage[] = [];
  readonly clicks: Array<{ cardMessageId: string; decision: string; at: number; ack: number }> = [];
  private readonly loops = new Set<Promise<void>>();
  private stopped = false;
  private counter = 0;

  constructor(
    private readonly fake: FakeFeishu,
    readonly owner: string,
    private readonly random: () => number,
  ) {}

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

  /**
   * Clicks a card button (`value` = the button's callback value); one push, like a user's tap.
   * Resolves with the ack (`code` -1 when none came) and its data (the toast the user sees).
   */
  click(cardMessageId: string, value: unknown, decision: string): Promise<{ code: number; data?: unknown }> {
    const env = cardActionEvent({ openId: this.owner, value, messageId: cardMessageId });
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
