import { readSentLedger } from './sent-ledger.js';
import fs from 'node:fs';
import path from 'node:path';
import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import {
  startFakeDingTalk,
  type FakeDingTalk,
  type Push,
} from '../../test/fakes/fake-dingtalk/fake-dingtalk-server.js';
import { sleep, type Life } from './bridge-process.js';
import { PERMISSION_TITLE, QUEUED_TITLE } from './chat-titles.js';
import type { ChatButton, ChatUser, ChaosMessage, MessageKind, ReplyPiece, ReplyView } from './chat-user.js';
import { dingtalkReplies, dingtalkVisible, refOf } from './dingtalk-replies.js';
import { judgeDingTalkSendWindow } from './dingtalk-send-window.js';
import { afterNextWrite, writesAnswered } from './platform-writes.js';
import type { Rng } from './rng.js';
import type { Sandbox } from './sandbox.js';
import type { SendWindowVerdict } from './send-window.js';

const OWNER = 'owner0001';
/** A tiny PNG (valid signature) served as every picture. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 9)]);
const Q = promptMessages('en');
/** OpenAPI calls a platform fault lands on (`*` = any call). */
const FAULT_CALLS = ['batchSend', 'accessToken', 'download', '*'];
/** The call that shows the user something (a kill right after its answer hits the send window). */
const WRITES = ['batchSend'];
/**
 * DingTalk pushes a CALLBACK again while no ack came; the fake every 2 s, up to 60 times, so a
 * message outlives a bridge that is down for a while (the count is DingTalk's business, not ours).
 */
const FAKE_OPTIONS = { ackTimeoutMs: 2_000, maxRepushes: 60 };

/**
 * The owner in the robot's single chat, against the fake DingTalk (Stream gateway + OpenAPI) in
 * this process. DingTalk's delivery guarantee is the fake's own: a CALLBACK not acked within 2 s
 * is pushed again, same frame, so a bridge killed before its ack (it acks only after `accept()`)
 * gets it again. Robot messages cannot be edited and carry no buttons: a reply is an opening
 * message (a "started" message when it waited behind a "Queued" card) followed by its final card,
 * a card shown again is a new message, a stop is typed (`/stop`) and a prompt is answered by
 * sending the number of its option. Replies are not
 * threaded, so they are attributed through the bridge's sent ledger (`dingtalk-replies.ts`).
 */
export class DingTalkUser implements ChatUser {
  readonly channel = 'dingtalk';
  readonly label = 'DingTalk';
  readonly faultNames = ['429', '5xx', 'reset', 'flow-control', 'token-expired', 'unacked'] as const;
  readonly startArgs = ['--no-feishu'];
  readonly typedStopsOnly = true;
  readonly messages: ChaosMessage[] = [];
  readonly env: Record<string, string>;
  readonly config: Record<string, unknown>;
  ledgerFile = '';
  private readonly seen = new Set<string>();
  private readonly pushed = new Map<string, Push>();
  private stopped = false;
  private counter = 0;

  private constructor(readonly fake: FakeDingTalk) {
    this.env = {
      CC_LINKER_DINGTALK_CLIENT_ID: fake.clientId,
      CC_LINKER_DINGTALK_CLIENT_SECRET: fake.clientSecret,
      CC_LINKER_DINGTALK_OWNER_STAFF_ID: OWNER,
    };
    this.config = { dingtalk: { enabled: true, api_base: fake.apiBase, allow_auto_bind_owner: false } };
  }

  static async start(): Promise<DingTalkUser> {
    return new DingTalkUser(await startFakeDingTalk(FAKE_OPTIONS));
  }

  useSandbox(sb: Sandbox): void {
    this.ledgerFile = path.join(sb.ccHome, 'runtime', 'dingtalk-sent.json');
  }

  saveTranscript(file: string): void {
    const ledger = Object.fromEntries(this.ledger());
    fs.writeFileSync(file, `${JSON.stringify({ messages: this.fake.sent, ledger }, null, 1)}\n`);
  }

  send(kind: MessageKind, text: string, token?: string): ChaosMessage {
    this.counter += 1;
    let over: Record<string, unknown> = {};
    if (kind === 'image' || kind === 'post') {
      const downloadCode = `dl-chaos-${this.counter}`;
      this.fake.addFile(downloadCode, PNG);
      const picture = { type: 'picture', downloadCode };
      over =
        kind === 'image'
          ? { msgtype: 'picture', text: undefined, content: { downloadCode } }
          : { msgtype: 'richText', text: undefined, content: { richText: [{ text }, picture] } };
    }
    const data = this.fake.robotMessage(OWNER, text, over);
    const push = this.fake.push(data);
    const msgId = String(data.msgId);
    const m: ChaosMessage = {
      n: this.counter,
      kind,
      text,
      ...(token ? { token } : {}),
      eventId: push.messageId,
      messageId: msgId,
      bridgeId: `dingtalk:${msgId}`,
      firstPushAt: Date.now(),
      pushes: 0,
      acks: [],
      duplicatePushes: 0,
    };
    this.messages.push(m);
    this.pushed.set(m.eventId, push);
    return m;
  }

  /** DingTalk pushes an acked CALLBACK again (as after an ack it did not see): same frame. */
  repush(m: ChaosMessage, times: number): void {
    const push = this.pushed.get(m.eventId);
    if (!push) return;
    for (let i = 0; i < times; i += 1) {
      m.duplicatePushes += 1;
      this.fake.redeliver(push);
    }
  }

  /**
   * Answers a prompt the DingTalk way: sends the option's number as a message of its own; the
   * "click" is acked when that message was, and its toast is the bridge's answer to the number.
   */
  async click(button: ChatButton, _decision: string): Promise<{ code: number; data?: unknown }> {
    const number = this.send('command', String(button.value));
    const deadline = Date.now() + 5_000;
    for (;;) {
      const answer = this.noticeOf(number);
      if (answer !== undefined) return { code: 200, data: answer };
      if (Date.now() > deadline) return { code: number.ackedAt !== undefined ? 200 : -1 };
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

  /** Delivery key → `<staffId>/<processQueryKey>`, as the bridge recorded its sends (empty before the first). */
  ledger(): Map<string, string> {
    return readSentLedger(this.ledgerFile);
  }

  replies(only?: ReadonlySet<string>): ReplyView {
    this.observeAcks();
    return dingtalkReplies(this.fake.sent, this.messages, this.ledger(), only);
  }

  judgeSendWindow(lives: readonly Life[]): { verdict: SendWindowVerdict; view: ReplyView } {
    this.observeAcks();
    const ledger = this.ledger();
    const { verdict, accounted } = judgeDingTalkSendWindow(this.fake.sent, this.messages, ledger, lives);
    return { verdict, view: dingtalkReplies(this.fake.sent, this.messages, ledger, undefined, accounted) };
  }

  /**
   * The user types `/stop` rather than tapping (the Stop and Cancel links send `1 #<token>`, the
   * number of a button set the harness does not track): `{}` while `m`'s reply shows its "Queued"
   * card (`queued`), or (`running`) its opening or, for a message that waited, its "started"
   * message — the first moment the user can tell the run began.
   */
  stopButton(m: ChaosMessage, which: 'running' | 'queued'): { button?: ChatButton } | undefined {
    const pieces = this.replies(new Set([m.messageId])).pieces.get(m.messageId) ?? [];
    const queued = (p: ReplyPiece) => p.text.startsWith(QUEUED_TITLE);
    const showing = pieces.some((p) => (which === 'queued' ? queued(p) : p.state === 'streaming' && !queued(p)));
    return showing ? {} : undefined;
  }

  noticeOf(m: ChaosMessage): string | undefined {
    return this.replies(new Set([m.messageId])).pieces.get(m.messageId)?.[0]?.text;
  }

  /** Permission prompts: their options "1. Allow", "2. Deny" are answered by sending the number. */
  newPermissionPrompts(): Array<{ allow?: ChatButton; deny?: ChatButton }> {
    const out: Array<{ allow?: ChatButton; deny?: ChatButton }> = [];
    for (const msg of this.fake.sent) {
      if (this.seen.has(refOf(msg))) continue;
      this.seen.add(refOf(msg));
      const visible = dingtalkVisible(msg.text);
      if (!visible.split('\n', 1)[0]?.includes(PERMISSION_TITLE)) continue;
      const option = (label: string) => {
        const n = new RegExp(`^(\\d+)\\. ${label}$`, 'm').exec(visible)?.[1];
        return n ? { messageId: refOf(msg), value: n } : undefined;
      };
      const allow = option(Q('allow'));
      const deny = option(Q('deny'));
      out.push({ ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) });
    }
    return out;
  }

  writes(): number {
    return writesAnswered(this.fake, WRITES);
  }

  /** Resolves in the same tick as the fake wrote its answer to the next batchSend. */
  afterNextWrite(timeoutMs: number): Promise<boolean> {
    return afterNextWrite(this.fake, WRITES, timeoutMs);
  }

  /** A life is up once its Stream connection is open. */
  connectionsOpened(): number {
    return this.fake.connectionsOpened;
  }

  platformFault(rng: Rng): string {
    const kind = rng.weighted({ rate: 3, server: 3, reset: 2, flow: 2, token: 1, unacked: 2 });
    const call = rng.pick(FAULT_CALLS);
    const times = rng.int(1, 3);
    switch (kind) {
      case 'rate':
        this.fake.faults.failNext(call, { status: 429, retryAfter: rng.int(1, 2), times });
        return '429';
      case 'server':
        this.fake.faults.failNext(call, { status: rng.pick([500, 502, 503]), times });
        return '5xx';
      case 'reset':
        this.fake.faults.failNext(call, { reset: true, times: 1 });
        return 'reset';
      case 'flow':
        // 200, the user listed as flow controlled, nothing delivered (DingTalk's per-user limit).
        this.fake.faults.failNext('batchSend', { flowControlled: true, times });
        return 'flow-control';
      case 'token':
        this.fake.expireTokens();
        return 'token-expired';
      default: {
        const acked = this.messages.filter((m) => m.ackedAt !== undefined);
        if (acked.length > 0) this.repush(rng.pick(acked), 1);
        return 'unacked';
      }
    }
  }

  async dropConnection(): Promise<void> {
    this.fake.dropConnections();
  }

  requestStats(): { total: number; injectedErrors: number } {
    return { total: this.fake.requests, injectedErrors: this.fake.faults.injected };
  }

  close(): Promise<void> {
    return this.fake.close();
  }

  /** Marks messages whose CALLBACK was acked, and counts the frames pushed. */
  private observeAcks(): void {
    const now = Date.now();
    for (const m of this.messages) {
      const push = this.pushed.get(m.eventId);
      if (!push) continue;
      m.pushes = Math.max(0, push.pushes - m.duplicatePushes);
      if (m.ackedAt === undefined && push.acked) {
        m.ackedAt = now;
        m.acks.push(200);
      }
    }
  }
}
