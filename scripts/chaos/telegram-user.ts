import { readSentLedger } from './sent-ledger.js';
import fs from 'node:fs';
import path from 'node:path';
import { pipelineMessages } from '../../src/bridge/pipeline/pipeline-messages.js';
import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import { startFakeTelegram, type FakeTelegram } from '../../test/fakes/fake-telegram/fake-telegram-server.js';
import { sleep } from './bridge-process.js';
import { PERMISSION_TITLE, QUEUED_TITLE } from './chat-titles.js';
import type { ChatButton, ChatUser, ChaosMessage, MessageKind, ReplyView } from './chat-user.js';
import type { Rng } from './rng.js';
import type { Life } from './bridge-process.js';
import { afterNextWrite, writesAnswered } from './platform-writes.js';
import type { Sandbox } from './sandbox.js';
import { judgeSendWindow, type SendWindowVerdict } from './send-window.js';
import { telegramReplies } from './telegram-replies.js';
import {
  CHAOS_WEBHOOK_DELIVERY,
  TelegramWebhookDelivery,
  type WebhookDeliveryStats,
} from './telegram-webhook-delivery.js';

const OWNER_ID = 7001;
/** A tiny PNG (valid signature) served as every photo's bytes. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);
const P = pipelineMessages('en');
/** The calls that show the user something (a kill right after one's answer hits the send window). */
const WRITES = ['sendMessage', 'editMessageText'];
const Q = promptMessages('en');
/** Methods a platform fault lands on (`*` = any call but the long poll). */
const FAULT_METHODS = ['sendMessage', 'editMessageText', 'getUpdates', 'answerCallbackQuery', '*'];
/** Webhook mode: no long poll; `*` also lands on `getMe` / `setWebhook` of a starting life. */
const WEBHOOK_FAULT_METHODS = ['sendMessage', 'editMessageText', 'answerCallbackQuery', '*'];

/**
 * The owner in a private chat with the bot, against the fake Bot API in this process. Telegram's
 * delivery guarantee is the fake's own: an update stays in `getUpdates` until an `offset` confirms
 * it, so a bridge killed before it confirmed gets it again after the restart. A message is acked
 * once its update is confirmed. Replies are attributed by `reply_to` (a notice replying to the
 * bot's own message belongs to that message's owner); chunk indexes come from the bridge's sent
 * ledger (delivery key → message), read from the sandbox. In webhook mode (`webhook`) the fake POSTs
 * each update to the bridge instead and re-sends it until a 2xx, which acks it.
 */
export class TelegramUser implements ChatUser {
  readonly channel = 'telegram';
  readonly label = 'Telegram';
  readonly faultNames: readonly string[];
  /** Webhook mode only: resolves once Telegram POSTed its next update to the bridge (see `TelegramWebhookDelivery`). */
  readonly nextDeliveryInFlight?: (timeoutMs: number) => Promise<{ answer: Promise<number> } | undefined>;
  readonly startArgs = ['--no-feishu'];
  readonly messages: ChaosMessage[] = [];
  readonly env: Record<string, string>;
  readonly config: Record<string, unknown>;
  /** The bridge's sent ledger (`runtime/telegram-sent.json`), known once the sandbox exists. */
  ledgerFile = '';
  private readonly seen = new Set<number>();
  private readonly updates = new Map<string, { update_id: number } & Record<string, unknown>>();
  private stopped = false;
  private counter = 0;

  private constructor(
    readonly fake: FakeTelegram,
    private readonly webhook?: TelegramWebhookDelivery,
  ) {
    this.env = { CC_LINKER_TELEGRAM_BOT_TOKEN: fake.token, CC_LINKER_TELEGRAM_OWNER_USER_ID: String(OWNER_ID) };
    const telegram = { enabled: true, api_root: fake.apiRoot, allow_auto_bind_owner: false, ...webhook?.config() };
    this.config = { telegram };
    this.faultNames = ['429', '5xx', 'reset', ...(webhook ? TelegramWebhookDelivery.faultNames : [])];
    if (webhook) this.nextDeliveryInFlight = (timeoutMs) => webhook.nextPostInFlight(timeoutMs);
  }

  static async start(o: { webhook?: boolean } = {}): Promise<TelegramUser> {
    if (!o.webhook) return new TelegramUser(await startFakeTelegram());
    const fake = await startFakeTelegram(undefined, CHAOS_WEBHOOK_DELIVERY);
    return new TelegramUser(fake, await TelegramWebhookDelivery.start(fake));
  }

  /** How Telegram delivers updates in this run. */
  get mode(): 'polling' | 'webhook' {
    return this.webhook ? 'webhook' : 'polling';
  }

  deliveryStats(): WebhookDeliveryStats | undefined {
    return this.webhook?.stats();
  }

  saveTranscript(file: string): void {
    const strip = this.fake.messages.map(({ file: upload, ...m }) => ({
      ...m,
      ...(upload ? { file: { kind: upload.kind, name: upload.name, bytes: upload.bytes.length } } : {}),
    }));
    fs.writeFileSync(
      file,
      `${JSON.stringify({ messages: strip, ledger: Object.fromEntries(this.ledger()) }, null, 1)}\n`,
    );
  }

  useSandbox(sb: Sandbox): void {
    this.ledgerFile = path.join(sb.ccHome, 'runtime', 'telegram-sent.json');
  }

  send(kind: MessageKind, text: string, token?: string): ChaosMessage {
    this.counter += 1;
    let over: Record<string, unknown> = {};
    if (kind === 'image' || kind === 'post') {
      const fileId = `photo_chaos${this.counter}`;
      this.fake.files.set(fileId, PNG);
      const photo = [{ file_id: fileId, file_unique_id: `u${fileId}`, width: 10, height: 10, file_size: PNG.length }];
      over = { text: undefined, photo, ...(kind === 'post' ? { caption: text } : {}) };
    }
    const update = this.fake.pushMessage(OWNER_ID, text, over);
    const messageId = String((update.message as { message_id: number }).message_id);
    const m: ChaosMessage = {
      n: this.counter,
      kind,
      text,
      ...(token ? { token } : {}),
      eventId: String(update.update_id),
      messageId,
      bridgeId: `telegram:${OWNER_ID}:${messageId}`,
      firstPushAt: Date.now(),
      pushes: 0,
      acks: [],
      duplicatePushes: 0,
    };
    this.messages.push(m);
    this.updates.set(m.eventId, update);
    return m;
  }

  /** Telegram hands a confirmed update out again (it does after a lost confirmation). */
  repush(m: ChaosMessage, times: number): void {
    const update = this.updates.get(m.eventId);
    if (!update) return;
    for (let i = 0; i < times; i += 1) {
      m.duplicatePushes += 1;
      this.fake.redeliver(update);
    }
  }

  async click(button: ChatButton, _decision: string): Promise<{ code: number; data?: unknown }> {
    const message = this.fake.messages.find((x) => String(x.message_id) === button.messageId);
    if (!message || typeof button.value !== 'string') return { code: -1 };
    const { callback_query } = this.fake.pushCallback(OWNER_ID, message, button.value);
    const deadline = Date.now() + 5_000;
    while (!this.fake.answers.has(callback_query.id) && Date.now() < deadline) await sleep(20);
    return this.fake.answers.has(callback_query.id)
      ? { code: 200, data: this.fake.answers.get(callback_query.id) ?? '' }
      : { code: -1 };
  }

  get unacked(): ChaosMessage[] {
    this.observeAcks();
    return this.messages.filter((m) => m.ackedAt === undefined);
  }

  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.unacked.length > 0 && Date.now() < deadline && !this.stopped) await sleep(100);
    this.stopped = true;
  }

  replies(only?: ReadonlySet<string>): ReplyView {
    this.observeAcks();
    return telegramReplies(this.fake.messages, this.messages, this.ledger(), only);
  }

  judgeSendWindow(lives: readonly Life[]): { verdict: SendWindowVerdict; view: ReplyView } {
    this.observeAcks();
    const ledger = this.ledger();
    const { verdict, accounted } = judgeSendWindow(this.fake.messages, this.messages, ledger, lives);
    return { verdict, view: telegramReplies(this.fake.messages, this.messages, ledger, undefined, accounted) };
  }

  /** Delivery key → message reference, as the bridge recorded its sends (empty before the first). */
  ledger(): Map<string, string> {
    return readSentLedger(this.ledgerFile);
  }

  stopButton(m: ChaosMessage, which: 'running' | 'queued'): { button?: ChatButton } | undefined {
    const label = which === 'queued' ? P('cancelButton') : P('stopButton');
    // The running reply is the streamed message (untitled while it runs); a queued one is titled "Queued".
    const msg = this.fake.messages.find((x) => {
      if (String(x.reply_to) !== m.messageId) return false;
      const queued = (x.visible.split('\n', 1)[0] ?? '').includes(QUEUED_TITLE);
      return which === 'queued' ? queued : !queued && !x.text.startsWith('<b>') && x.reply_markup !== undefined;
    });
    if (!msg) return undefined;
    const data = msg.reply_markup?.inline_keyboard.flat().find((b) => b.text === label)?.callback_data;
    return data ? { button: { messageId: String(msg.message_id), value: data } } : {};
  }

  noticeOf(m: ChaosMessage): string | undefined {
    return this.fake.messages.find((x) => String(x.reply_to) === m.messageId)?.visible;
  }

  newPermissionPrompts(): Array<{ allow?: ChatButton; deny?: ChatButton }> {
    const out: Array<{ allow?: ChatButton; deny?: ChatButton }> = [];
    for (const msg of this.fake.messages) {
      if (this.seen.has(msg.message_id)) continue;
      this.seen.add(msg.message_id);
      if (!(msg.visible.split('\n', 1)[0] ?? '').includes(PERMISSION_TITLE)) continue;
      const button = (label: string) => {
        const data = msg.reply_markup?.inline_keyboard.flat().find((b) => b.text === label)?.callback_data;
        return data ? { messageId: String(msg.message_id), value: data } : undefined;
      };
      const allow = button(Q('allow'));
      const deny = button(Q('deny'));
      out.push({ ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) });
    }
    return out;
  }

  writes(): number {
    return writesAnswered(this.fake, WRITES);
  }

  /** Resolves in the same tick as the fake writes its answer to the next sendMessage / editMessageText. */
  afterNextWrite(timeoutMs: number): Promise<boolean> {
    return afterNextWrite(this.fake, WRITES, timeoutMs);
  }

  /** A life is up once its poller got past `deleteWebhook` (right before its first `getUpdates`), or registered its webhook. */
  connectionsOpened(): number {
    return this.webhook?.connectionsOpened() ?? this.fake.answered.get('deleteWebhook') ?? 0;
  }

  platformFault(rng: Rng): string {
    if (this.webhook && rng.chance(0.4)) return this.webhook.postFault(rng);
    const kind = rng.weighted({ rate: 3, server: 3, reset: 2 });
    const method = rng.pick(this.webhook ? WEBHOOK_FAULT_METHODS : FAULT_METHODS);
    const times = rng.int(1, 3);
    if (kind === 'rate') {
      this.fake.failNext(method, { status: 429, retryAfter: rng.int(1, 3), times });
      return '429';
    }
    if (kind === 'server') {
      this.fake.failNext(method, { status: rng.pick([500, 502]), times });
      return '5xx';
    }
    this.fake.failNext(method, { reset: true, times: 1 });
    return 'reset';
  }

  async dropConnection(): Promise<void> {
    this.fake.dropConnections();
    this.fake.webhook.dropInFlight();
  }

  requestStats(): { total: number; injectedErrors: number } {
    return { total: this.fake.calls.length, injectedErrors: this.fake.injected };
  }

  close(): Promise<void> {
    return this.fake.close();
  }

  /** Marks messages whose update an `offset` confirmed (a POST answered 2xx), and counts each hand-out (POST) as a push. */
  private observeAcks(): void {
    const now = Date.now();
    const posted = this.webhook?.deliveries();
    for (const m of this.messages) {
      const id = Number(m.eventId);
      m.pushes = (posted ? posted.posts : this.fake.deliveries).get(id) ?? 0;
      if (m.ackedAt === undefined && (posted ? posted.acked.has(id) : id < this.fake.confirmedOffset)) {
        m.ackedAt = now;
        m.acks.push(200);
      }
    }
  }
}
