// The fake Feishu server's public shapes: its options, the records a test reads, and the
// `FakeFeishu` interface (fake-feishu-server.ts implements it).
import type { CardKitOp } from './cardkit-cards.js';
import type { FeishuEventEnvelope } from './event-envelopes.js';
import { type Fault, type FaultMatcher } from './fault-injector.js';
import { type PatchRecord, type SentMessage } from './im-messages.js';
import { type AckRecord, type PingRecord, type PushOptions, type PushResult } from './long-connection.js';
import { FakeSpeech } from './speech.js';
import type { UploadRecord } from './uploads.js';

export interface FakeFeishuOptions {
  /** Accept only this app id (default: any `cli_` + 16 hex). */
  appId?: string;
  /** The app secret the token and WS endpoints require (default `fake-app-secret`). */
  appSecret?: string;
  /** `ClientConfig.PingInterval` in seconds (default 120, Feishu's value). */
  pingIntervalS?: number;
  /** `ClientConfig.ReconnectInterval` in seconds between failed reconnects (default 1). */
  reconnectIntervalS?: number;
  /** `ClientConfig.ReconnectNonce` in seconds: random delay before a reconnect (default 0; Feishu uses 30). */
  reconnectNonceS?: number;
  /** Default wait for a connection and an ack in `pushEvent` (default 5000 ms). */
  ackTimeoutMs?: number;
  /** Clock of the rate limits and records (default `Date.now`); freeze it to test limits without racing time. */
  clock?: () => number;
  /**
   * Answer to a call over the per-message patch limit (5/s) or the per-card CardKit limit (10/s).
   * Default HTTP 429 / code 99991400. Feishu documents 400 / 230020 for the patch limit and
   * 400 / 99991400 for app-level limits: client code must treat all of them as "slow down".
   */
  rateLimitReply?: { status: number; code: number; msg?: string };
}

/** One REST request the fake answered (or dropped): the log to assert retries and faults on. */
export interface RequestRecord {
  method: string;
  path: string;
  /** HTTP status answered; 0 when the connection was reset by an injected fault. */
  status: number;
  /** Feishu `code` of a JSON answer. */
  code?: number;
  at: number;
}

/** One call of the tenant token endpoint. */
export interface TokenRequest {
  app_id: string;
  ok: boolean;
  at: number;
}

/** A running fake Feishu: pass `baseUrl` as the SDK's `domain`; everything it saw is in the records. */
export interface FakeFeishu {
  readonly baseUrl: string;
  readonly appSecret: string;
  /** Stops the HTTP and WebSocket server, drops connections, rejects pending pushes. */
  close(): Promise<void>;

  /** Pushes a schema-2.0 event in `fragments` frames and resolves with the client's ack. */
  pushEvent(envelope: FeishuEventEnvelope, opts?: PushOptions): Promise<PushResult>;
  /** Re-sends the event first pushed as `eventId` (same event_id, same IM message_id). */
  repush(eventId: string, opts?: Omit<PushOptions, 'eventId'>): Promise<PushResult>;
  /** Kills the open long connection(s); the SDK reconnects by itself. */
  dropConnection(): Promise<void>;
  /** Resolves when a long connection is open. */
  waitForConnection(timeoutMs?: number): Promise<void>;
  readonly connectionCount: number;
  readonly connectionsOpened: number;

  /** Serves `bytes` at `GET /open-apis/im/v1/messages/:messageId/resources/:key` (type image or file). */
  addImage(messageId: string, key: string, bytes: Uint8Array): void;
  /** The same for a file, served with a `content-disposition` naming `fileName`. */
  addFile(messageId: string, key: string, bytes: Uint8Array, fileName: string): void;
  /** `speech_to_text` file recognition: its requests, and `deny` to answer the missing-scope error. */
  readonly speech: FakeSpeech;
  /** Injects a fault into the next matching REST request(s). */
  failNext(matcher: FaultMatcher, fault: Fault): void;

  readonly sent: readonly SentMessage[];
  /** Images and files uploaded (`im.v1.image.create` / `im.v1.file.create`), in order. */
  readonly uploads: readonly UploadRecord[];
  readonly patches: readonly PatchRecord[];
  readonly cardkit: readonly CardKitOp[];
  readonly acks: readonly AckRecord[];
  readonly pings: readonly PingRecord[];
  readonly tokenRequests: readonly TokenRequest[];
  readonly requests: readonly RequestRecord[];

  /** Messages the bot sent that `openId` sees (p2p creates and replies to that user's messages). */
  messagesTo(openId: string): SentMessage[];
  /** What the user sees of a message now (after patches / CardKit updates); see `visibleText`. */
  textOf(message: SentMessage | string): string;
  /** Current JSON of a CardKit card entity. */
  cardJson(cardId: string): Record<string, unknown> | undefined;
  /** Resolves when `predicate()` is true (polled every 10 ms), rejects after `timeoutMs` (default 5000). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
}
