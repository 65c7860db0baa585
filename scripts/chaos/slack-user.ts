import { readSentLedger } from './sent-ledger.js';
import fs from 'node:fs';
import path from 'node:path';
import { pipelineMessages } from '../../src/bridge/pipeline/pipeline-messages.js';
import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import {
  startFakeSlack,
  type FakeSlack,
  type FakeSlackMessage,
  type PushedEvent,
} from '../../test/fakes/fake-slack/fake-slack-server.js';
import type { FakeButton } from '../../test/fakes/fake-slack/slack-blocks.js';
import { sleep, type Life } from './bridge-process.js';
import { PERMISSION_TITLE, QUEUED_TITLE } from './chat-titles.js';
import type { ChatButton, ChatUser, ChaosMessage, MessageKind, ReplyView } from './chat-user.js';
import type { Rng } from './rng.js';
import { afterNextWrite, writesAnswered } from './platform-writes.js';
import type { Sandbox } from './sandbox.js';
import type { SendWindowVerdict } from './send-window.js';
import { refOf, slackOwners, slackReplies, slackState } from './slack-replies.js';
import { judgeSlackSendWindow } from './slack-send-window.js';

const OWNER = 'U0OWNER';
/** A tiny PNG (valid signature) shared as every image. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);
const P = pipelineMessages('en');
const Q = promptMessages('en');
const STOPPED = [P('stoppedTitle'), P('cancelledTitle')];
/** Web API methods a platform fault lands on (`*` = any call). */
const FAULT_METHODS = ['chat.postMessage', 'chat.update', 'chat.postEphemeral', 'auth.test', '*'];
/** The calls that show the user something (a kill right after one's answer hits the send window). */
const WRITES = ['chat.postMessage', 'chat.update'];

/**
 * The owner in a DM with the bot, against the fake Slack (Web API + Socket Mode) in this process.
 * Slack's delivery guarantee is the fake's own: an event envelope not acked within 3 s is sent
 * again with `retry_attempt` + 1, at most 3 times, and queued while no socket is open; a message
 * is acked once any envelope of its event was. Commands are typed with a leading space (" /stop"):
 * Slack's client would take "/stop" for one of its slash commands (src/channels/slack/README.md).
 * Replies are not threaded, so they are attributed through the bridge's sent ledger, read from
 * the sandbox (`slack-replies.ts`).
 */
export class SlackUser implements ChatUser {
  readonly channel = 'slack';
  readonly label = 'Slack';
  readonly faultNames = ['429', '5xx', 'reset', 'unacked'] as const;
  readonly startArgs = ['--no-feishu'];
  readonly messages: ChaosMessage[] = [];
  readonly env: Record<string, string>;
  readonly config: Record<string, unknown>;
  ledgerFile = '';
  private readonly seen = new Set<string>();
  private readonly pushed = new Map<string, PushedEvent>();
  private stopped = false;
  private counter = 0;
  private connections = 0;

  private constructor(readonly fake: FakeSlack) {
    this.env = {
      CC_LINKER_SLACK_BOT_TOKEN: fake.botToken,
      CC_LINKER_SLACK_APP_TOKEN: fake.appToken,
      CC_LINKER_SLACK_OWNER_USER_ID: OWNER,
    };
    this.config = { slack: { enabled: true, api_url: fake.apiUrl, allow_auto_bind_owner: false } };
  }

  static async start(): Promise<SlackUser> {
    return new SlackUser(await startFakeSlack());
  }

  useSandbox(sb: Sandbox): void {
    this.ledgerFile = path.join(sb.ccHome, 'runtime', 'slack-sent.json');
  }

  saveTranscript(file: string): void {
    const strip = this.fake.messages.map(({ file: f, ...m }) => ({
      ...m,
      ...(f ? { file: { id: f.id, name: f.name, bytes: f.bytes.length } } : {}),
    }));
    const ledger = Object.fromEntries(this.ledger());
    fs.writeFileSync(file, `${JSON.stringify({ messages: strip, ledger }, null, 1)}\n`);
  }

  send(kind: MessageKind, text: string, token?: string): ChaosMessage {
    this.counter += 1;
    let over: Record<string, unknown> = {};
    if (kind === 'image' || kind === 'post') {
      const file = this.fake.addFile(`F0CHAOS${this.counter}`, `chaos${this.counter}.png`, 'image/png', PNG);
      over = { subtype: 'file_share', files: [file] };
    }
    const typed = kind === 'command' ? ` ${text}` : kind === 'image' ? '' : text;
    const pushed = this.fake.pushMessage(OWNER, typed, over);
    const m: ChaosMessage = {
      n: this.counter,
      kind,
      text,
      ...(token ? { token } : {}),
      eventId: String(pushed.envelope.payload.event_id),
      messageId: pushed.event.ts,
      bridgeId: `slack:${pushed.event.channel}:${pushed.event.ts}`,
      firstPushAt: Date.now(),
      pushes: 0,
      acks: [],
      duplicatePushes: 0,
    };
    this.messages.push(m);
    this.pushed.set(m.eventId, pushed);
    return m;
  }

  /** Slack sends an acked event again (as after an ack it did not see), `retry_attempt` 1. */
  repush(m: ChaosMessage, times: number): void {
    const pushed = this.pushed.get(m.eventId);
    if (!pushed) return;
    for (let i = 0; i < times; i += 1) {
      m.duplicatePushes += 1;
      this.fake.redeliver(pushed);
    }
  }

  async click(button: ChatButton, _decision: string): Promise<{ code: number; data?: unknown }> {
    const [ref, actionId] = String(button.messageId).split('#');
    const message = this.fake.messages.find((x) => refOf(x) === ref);
    const b = message?.buttons.find((x) => x.action_id === actionId && x.value === button.value);
    if (!message || !b) return { code: -1 };
    const before = this.fake.ephemerals.length;
    const envelope = this.fake.pushClick(OWNER, message, b);
    const deadline = Date.now() + 5_000;
    while (!this.fake.hub.acks.has(envelope.envelope_id) && Date.now() < deadline) await sleep(20);
    if (!this.fake.hub.acks.has(envelope.envelope_id)) return { code: -1 };
    // Slack has no toast: a warning reaches the clicker as an ephemeral message; a stop that was
    // taken shows as its card turning "Stopped" / "Cancelled" (success toasts are not shown).
    const until = Date.now() + 3_000;
    for (;;) {
      const warning = this.fake.ephemerals.slice(before).map((e) => e.text);
      const head = message.visible.split('\n', 1)[0] ?? '';
      if (warning.length > 0) return { code: 200, data: warning.join('\n') };
      if (STOPPED.some((t) => head.includes(t))) return { code: 200, data: P('stopAccepted') };
      if (Date.now() > until) return { code: 200, data: head };
      await sleep(20);
    }
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

  /** Delivery key → message reference, as the bridge recorded its posts (empty before the first). */
  ledger(): Map<string, string> {
    return readSentLedger(this.ledgerFile);
  }

  replies(only?: ReadonlySet<string>): ReplyView {
    this.observeAcks();
    return slackReplies(this.fake.messages, this.messages, this.ledger(), only);
  }

  judgeSendWindow(lives: readonly Life[]): { verdict: SendWindowVerdict; view: ReplyView } {
    this.observeAcks();
    const ledger = this.ledger();
    const verdict = judgeSlackSendWindow(this.fake.messages, this.messages, ledger, lives);
    return { verdict, view: slackReplies(this.fake.messages, this.messages, ledger) };
  }

  stopButton(m: ChaosMessage, which: 'running' | 'queued'): { button?: ChatButton } | undefined {
    const label = which === 'queued' ? P('cancelButton') : P('stopButton');
    const mine = this.mine(m).filter((x) => {
      const queued = (x.visible.split('\n', 1)[0] ?? '').includes(QUEUED_TITLE);
      return which === 'queued' ? queued : !queued && slackState(x) === 'streaming';
    });
    for (const msg of mine) {
      const b = msg.buttons.find((x) => x.text === label);
      if (b) return { button: this.chatButton(msg, b) };
    }
    return mine.length > 0 ? {} : undefined;
  }

  noticeOf(m: ChaosMessage): string | undefined {
    return this.mine(m)[0]?.visible;
  }

  newPermissionPrompts(): Array<{ allow?: ChatButton; deny?: ChatButton }> {
    const out: Array<{ allow?: ChatButton; deny?: ChatButton }> = [];
    for (const msg of this.fake.messages) {
      if (this.seen.has(refOf(msg))) continue;
      this.seen.add(refOf(msg));
      if (!(msg.visible.split('\n', 2).join(' ') ?? '').includes(PERMISSION_TITLE)) continue;
      const button = (label: string) => {
        const b = msg.buttons.find((x) => x.text === label);
        return b ? this.chatButton(msg, b) : undefined;
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

  /** Resolves in the same tick as the fake wrote its answer to the next chat.postMessage / chat.update. */
  afterNextWrite(timeoutMs: number): Promise<boolean> {
    return afterNextWrite(this.fake, WRITES, timeoutMs);
  }

  /** A life is up once Socket Mode connected (the hub said hello on a new socket). */
  connectionsOpened(): number {
    this.connections = Math.max(this.connections, this.fake.hub.connections.length);
    return this.connections;
  }

  platformFault(rng: Rng): string {
    const kind = rng.weighted({ rate: 3, server: 3, reset: 2, unacked: 2 });
    const method = rng.pick(FAULT_METHODS);
    const times = rng.int(1, 3);
    if (kind === 'rate') {
      this.fake.failNext(method, { status: 429, retryAfter: rng.int(1, 3), times });
      return '429';
    }
    if (kind === 'server') {
      this.fake.failNext(method, { status: rng.pick([500, 503]), times });
      return '5xx';
    }
    if (kind === 'reset') {
      this.fake.failNext(method, { reset: true, times: 1 });
      return 'reset';
    }
    // Slack re-sends an envelope whose ack it did not see: an acked message arrives again, retry_attempt 1.
    const acked = this.messages.filter((m) => m.ackedAt !== undefined);
    if (acked.length > 0) this.repush(rng.pick(acked), 1);
    return 'unacked';
  }

  async dropConnection(): Promise<void> {
    this.fake.dropConnections();
  }

  requestStats(): { total: number; injectedErrors: number } {
    return { total: this.fake.calls.length, injectedErrors: this.fake.injected };
  }

  close(): Promise<void> {
    return this.fake.close();
  }

  /** The bot messages the ledger attributes to `m`, in order. */
  private mine(m: ChaosMessage): FakeSlackMessage[] {
    const owners = slackOwners(this.fake.messages, [m], this.ledger());
    return this.fake.messages.filter((x) => owners.has(refOf(x)));
  }

  private chatButton(msg: FakeSlackMessage, b: FakeButton): ChatButton {
    return { messageId: `${refOf(msg)}#${b.action_id}`, value: b.value };
  }

  /** Marks messages one of whose envelopes was acked, and counts the envelopes sent as pushes. */
  private observeAcks(): void {
    const byEvent = new Map<string, { sent: number; acked: boolean }>();
    for (const e of this.fake.hub.sent) {
      const id = String(e.payload.event_id ?? '');
      const s = byEvent.get(id) ?? { sent: 0, acked: false };
      s.sent += 1;
      s.acked ||= this.fake.hub.acks.has(e.envelope_id);
      byEvent.set(id, s);
    }
    const now = Date.now();
    for (const m of this.messages) {
      const s = byEvent.get(m.eventId);
      m.pushes = Math.max(0, (s?.sent ?? 0) - m.duplicatePushes);
      if (m.ackedAt === undefined && s?.acked) {
        m.ackedAt = now;
        m.acks.push(200);
      }
    }
  }
}
