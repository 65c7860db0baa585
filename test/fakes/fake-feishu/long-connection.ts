import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { decodeFrame, encodeFrame, frameHeader, FrameMethod, type Frame } from './frame-codec.js';
import { newFeishuId, type FeishuEventEnvelope } from './event-envelopes.js';

/** Path of the fake's WebSocket endpoint. */
export const WS_PATH = '/ws/v2';
/** The `service_id` the fake hands out (the SDK echoes it in every ping's `service`). */
export const FAKE_SERVICE_ID = 33554678;

/** Settings of the long connection, in seconds as Feishu's `ClientConfig` carries them. */
export interface LongConnectionConfig {
  appId?: string;
  appSecret: string;
  pingIntervalS: number;
  reconnectIntervalS: number;
  reconnectNonceS: number;
  ackTimeoutMs: number;
}

/** The client's ack of one pushed event, decoded: `data` is the handler's return value, un-base64'd and parsed. */
export interface AckRecord {
  eventId: string;
  eventType: string;
  /** The frame-level `message_id` header grouping the fragments (not the IM message id). */
  frameMessageId: string;
  /** 200 when the handler settled, 500 when it threw. */
  code: number;
  data?: unknown;
  /** The `biz_rt` header the SDK adds (handler time; the SDK computes it as start − end, so ≤ 0). */
  bizRt?: string;
  at: number;
}

/** One ping the client sent. */
export interface PingRecord {
  service: number;
  at: number;
}

/** Options of one push. */
export interface PushOptions {
  /** Split the envelope's UTF-8 bytes into this many frames (`sum`/`seq` headers), default 1. */
  fragments?: number;
  /** Overrides `header.event_id`. */
  eventId?: string;
  /** How long to wait for a connection and then for the ack; default from the server options. */
  ackTimeoutMs?: number;
}

/** What a push resolves with once the client acked. */
export interface PushResult {
  ack: { code: number; data?: unknown };
  frameMessageId: string;
}

interface PushedEvent {
  eventId: string;
  eventType: string;
}

interface PendingAck {
  resolve: (result: PushResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Feishu's long-connection side: answers `/callback/ws/endpoint`, accepts the WebSocket, answers
 * pings with pongs, pushes schema-2.0 events as (fragmented) protobuf frames and collects acks.
 */
export class LongConnection {
  readonly acks: AckRecord[] = [];
  readonly pings: PingRecord[] = [];
  /** How many connections ever became ready (a reconnect makes it grow). */
  connectionsOpened = 0;

  private readonly wss = new WebSocketServer({ noServer: true });
  /** Every upgraded socket, ready or not. */
  private readonly upgraded = new Set<WebSocket>();
  /** Sockets whose client is listening (see {@link accept}), oldest first. */
  private readonly sockets: WebSocket[] = [];
  private readonly tickets = new Map<string, string>();
  private readonly pending = new Map<string, PendingAck>();
  /** Which event each frame-level message_id carried, kept after the ack so late acks are attributed. */
  private readonly pushed = new Map<string, PushedEvent>();
  private readonly envelopes = new Map<string, FeishuEventEnvelope>();
  private readonly waiters = new Set<() => void>();
  private nextSeq = 1;
  private closed = false;

  constructor(
    private readonly config: LongConnectionConfig,
    private readonly onEnvelope: (envelope: FeishuEventEnvelope) => void,
  ) {}

  /** Sockets open (and listening) right now. */
  get connectionCount(): number {
    return this.sockets.length;
  }

  /** Reply to `POST /callback/ws/endpoint` with body `{AppID, AppSecret}`. */
  endpointReply(body: unknown, wsBase: string): { status: number; json: unknown } {
    const { AppID, AppSecret } = (body ?? {}) as { AppID?: unknown; AppSecret?: unknown };
    const appOk = this.config.appId === undefined ? typeof AppID === 'string' : AppID === this.config.appId;
    if (!appOk || AppSecret !== this.config.appSecret) {
      return { status: 200, json: { code: 514, msg: 'auth failed: invalid app id or secret', data: {} } };
    }
    const ticket = randomBytes(12).toString('hex');
    const deviceId = String(7_000_000_000_000_000 + Math.floor(Math.random() * 1e15));
    this.tickets.set(ticket, deviceId);
    // fpid comes first: the SDK qs.parse()s the whole URL, so the first key swallows the URL prefix.
    const url =
      `${wsBase}${WS_PATH}?fpid=493&aid=552564&device_id=${deviceId}` +
      `&access_key=${randomBytes(8).toString('hex')}&service_id=${FAKE_SERVICE_ID}&ticket=${ticket}`;
    return {
      status: 200,
      json: {
        code: 0,
        msg: 'ok',
        data: { URL: url, ClientConfig: this.clientConfig() },
      },
    };
  }

  /** Handles an HTTP upgrade; returns false when the path is not the fake's WebSocket path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== WS_PATH) return false;
    const ticket = url.searchParams.get('ticket') ?? '';
    const ok =
      !this.closed &&
      this.tickets.get(ticket) === url.searchParams.get('device_id') &&
      url.searchParams.get('service_id') === String(FAKE_SERVICE_ID);
    if (!ok) {
      socket.end('HTTP/1.1 403 Forbidden\r\nhandshake-status: 403\r\nhandshake-msg: invalid ticket\r\n\r\n');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    return true;
  }

  /** Pushes `envelope` to the newest connection and resolves with the client's ack. */
  pushEvent(envelope: FeishuEventEnvelope, opts: PushOptions = {}): Promise<PushResult> {
    const env: FeishuEventEnvelope =
      opts.eventId === undefined ? envelope : { ...envelope, header: { ...envelope.header, event_id: opts.eventId } };
    this.envelopes.set(env.header.event_id, env);
    this.onEnvelope(env);
    return this.send(env, opts);
  }

  /** Re-sends the event first pushed as `eventId`, byte-identical (Feishu's re-push after a missing ack). */
  repush(eventId: string, opts: Omit<PushOptions, 'eventId'> = {}): Promise<PushResult> {
    const env = this.envelopes.get(eventId);
    if (!env) return Promise.reject(new Error(`fake-feishu: no event ${eventId} was pushed`));
    return this.send(env, opts);
  }

  /** Resolves once a socket is open (at once if one is), rejects after `timeoutMs`. */
  waitForConnection(timeoutMs: number): Promise<void> {
    if (this.sockets.length > 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        reject(new Error(`fake-feishu: no long connection within ${timeoutMs} ms (was WSClient.start() called?)`));
      }, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Kills every open socket without a close handshake, like a network drop; resolves when they are closed. */
  async dropConnection(): Promise<void> {
    await Promise.all(
      [...this.upgraded].map(
        (ws) =>
          new Promise<void>((resolve) => {
            ws.once('close', () => resolve());
            ws.terminate();
          }),
      ),
    );
  }

  /** Rejects pending pushes, closes sockets and the WebSocket server. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error('fake-feishu: server closed before the ack'));
      this.pending.delete(id);
    }
    await this.dropConnection();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private clientConfig(): Record<string, number> {
    return {
      PingInterval: this.config.pingIntervalS,
      ReconnectCount: -1,
      ReconnectInterval: this.config.reconnectIntervalS,
      ReconnectNonce: this.config.reconnectNonceS,
    };
  }

  /**
   * A socket counts as connected from its first ping on: the SDK attaches its message listener
   * only after 'open' has settled, so a frame pushed the instant the upgrade completes would be
   * dropped by the real client; its first ping (sent on open) proves the listener is attached.
   */
  private accept(ws: WebSocket): void {
    this.upgraded.add(ws);
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.onFrame(ws, toBytes(data));
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      this.upgraded.delete(ws);
      const i = this.sockets.indexOf(ws);
      if (i >= 0) this.sockets.splice(i, 1);
    });
  }

  private markReady(ws: WebSocket): void {
    if (this.sockets.includes(ws)) return;
    this.sockets.push(ws);
    this.connectionsOpened += 1;
    for (const wake of [...this.waiters]) wake();
  }

  private onFrame(ws: WebSocket, bytes: Uint8Array): void {
    let frame: Frame;
    try {
      frame = decodeFrame(bytes);
    } catch {
      return;
    }
    if (frame.method === FrameMethod.control && frameHeader(frame, 'type') === 'ping') {
      this.pings.push({ service: frame.service, at: Date.now() });
      const pong: Frame = {
        SeqID: frame.SeqID,
        LogID: frame.LogID,
        service: frame.service,
        method: FrameMethod.control,
        headers: [{ key: 'type', value: 'pong' }],
        payload: Buffer.from(JSON.stringify(this.clientConfig())),
      };
      ws.send(encodeFrame(pong));
      this.markReady(ws);
      return;
    }
    if (frame.method === FrameMethod.data) this.onAck(frame);
  }

  private onAck(frame: Frame): void {
    const frameMessageId = frameHeader(frame, 'message_id') ?? '';
    const pending = this.pending.get(frameMessageId);
    const pushed = this.pushed.get(frameMessageId);
    let payload: { code?: number; data?: string } = {};
    let data: unknown;
    try {
      payload = JSON.parse(Buffer.from(frame.payload ?? new Uint8Array()).toString('utf8')) as typeof payload;
      if (payload.data !== undefined)
        data = JSON.parse(Buffer.from(payload.data, 'base64').toString('utf8')) as unknown;
    } catch {
      // a malformed ack is recorded with code -1 (or without data) below
    }
    const ack = { code: typeof payload.code === 'number' ? payload.code : -1, ...(data === undefined ? {} : { data }) };
    const bizRt = frameHeader(frame, 'biz_rt');
    this.acks.push({
      eventId: pushed?.eventId ?? '',
      eventType: pushed?.eventType ?? '',
      frameMessageId,
      ...ack,
      ...(bizRt === undefined ? {} : { bizRt }),
      at: Date.now(),
    });
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(frameMessageId);
    pending.resolve({ ack, frameMessageId });
  }

  private async send(env: FeishuEventEnvelope, opts: PushOptions): Promise<PushResult> {
    const timeoutMs = opts.ackTimeoutMs ?? this.config.ackTimeoutMs;
    await this.waitForConnection(timeoutMs);
    const ws = this.sockets[this.sockets.length - 1];
    if (!ws) throw new Error('fake-feishu: connection vanished');
    const bytes = Buffer.from(JSON.stringify(env), 'utf8');
    const pieces = splitBytes(bytes, opts.fragments ?? 1);
    const frameMessageId = newFeishuId('');
    const traceId = randomBytes(8).toString('hex');
    this.pushed.set(frameMessageId, { eventId: env.header.event_id, eventType: env.header.event_type });
    const result = new Promise<PushResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(frameMessageId);
        reject(new Error(`fake-feishu: no ack for event ${env.header.event_id} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(frameMessageId, { resolve, reject, timer });
    });
    pieces.forEach((payload, seq) => {
      const id = this.nextSeq++;
      const frame: Frame = {
        SeqID: id,
        LogID: id,
        service: FAKE_SERVICE_ID,
        method: FrameMethod.data,
        headers: [
          { key: 'type', value: 'event' },
          { key: 'message_id', value: frameMessageId },
          { key: 'sum', value: String(pieces.length) },
          { key: 'seq', value: String(seq) },
          { key: 'trace_id', value: traceId },
        ],
        payload,
      };
      ws.send(encodeFrame(frame));
    });
    return result;
  }
}

function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/** Splits `bytes` into `n` non-empty, contiguous pieces (even across multi-byte UTF-8 characters, like Feishu). */
function splitBytes(bytes: Buffer, n: number): Buffer[] {
  if (!Number.isInteger(n) || n < 1 || n > bytes.length) {
    throw new Error(`fake-feishu: fragments must be an integer in 1..${bytes.length}, got ${n}`);
  }
  const pieces: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    pieces.push(bytes.subarray(Math.floor((i * bytes.length) / n), Math.floor(((i + 1) * bytes.length) / n)));
  }
  return pieces;
}
