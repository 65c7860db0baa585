import { DWClient, type DWClientDownStream } from 'dingtalk-stream';
import WebSocket from 'ws';

/** Where the Stream connection stands, for `Channel.status()`. */
export interface GatewayState {
  state: 'stopped' | 'connecting' | 'connected' | 'error';
  /** Why it is not connected (HTTP status and DingTalk's code, or the network fault); never a secret. */
  detail?: string;
  /** True when DingTalk refused the client id / secret (HTTP 400/401/403 from the gateway). */
  refused?: boolean;
}

export interface GatewayClientOptions {
  clientId: string;
  clientSecret: string;
  /** `<api_base>/v1.0/gateway/connections/open`. */
  gatewayUrl: string;
  /** Topics of the CALLBACK frames we take (robot messages, card clicks). */
  topics: string[];
  onCallback(frame: DWClientDownStream): void;
  onState(state: GatewayState): void;
  /** Wait before reconnecting after a failure or a closed socket (default 1 s, the SDK's own). */
  retryMs?: number;
  /** A WebSocket ping this often; a socket that missed the previous pong is dropped (default 10 s). */
  heartbeatMs?: number;
}

/** The SDK's fields our overrides set; `private` in its .d.ts, plain properties at run time. */
interface Internals {
  socket?: WebSocket;
  dw_url?: string;
  connected: boolean;
}

/**
 * `dingtalk-stream`'s `DWClient` with the parts that do not suit a daemon replaced
 * (docs/design.md#dingtalk): the gateway URL comes from `api_base` instead of the SDK's
 * hard-coded one (`getEndpoint`), the connect loop reports its state and stops for good on
 * `disconnect()` (the SDK's loop retries silently and can revive after a disconnect), a socket that
 * stops answering pings is dropped and reopened, and nothing
 * is written to the console (the SDK logs "connect success" with `console.info` whatever `debug`
 * says). The SDK's own frame handling stays: pings answered, EVENT frames acked, CALLBACK frames
 * emitted by topic and acked by us with `socketCallBackResponse`. The SDK version is pinned and
 * `test/fakes/fake-dingtalk` tests this class against it.
 */
export class GatewayClient extends DWClient {
  private stopped = false;
  private failing = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly retryMs: number;

  constructor(private readonly o: GatewayClientOptions) {
    super({ clientId: o.clientId, clientSecret: o.clientSecret, debug: false });
    this.retryMs = o.retryMs ?? 1_000;
    for (const topic of o.topics) this.registerCallbackListener(topic, (frame) => o.onCallback(frame));
  }

  private get internals(): Internals {
    return this as unknown as Internals;
  }

  override async getEndpoint(): Promise<this> {
    const res = await fetch(this.o.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        clientId: this.config.clientId,
        clientSecret: this.config.clientSecret,
        ua: 'cc-linker',
        subscriptions: this.config.subscriptions,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => ({}))) as { endpoint?: unknown; ticket?: unknown; code?: unknown };
    if (!res.ok) throw new GatewayError(res.status, typeof body.code === 'string' ? body.code : '');
    if (typeof body.endpoint !== 'string' || typeof body.ticket !== 'string')
      throw new GatewayError(res.status, 'no endpoint or ticket in the answer');
    this.internals.dw_url = `${body.endpoint}?ticket=${encodeURIComponent(body.ticket)}`;
    return this;
  }

  override _connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const url = this.internals.dw_url;
      if (!url) return reject(new Error('no endpoint'));
      const socket = new WebSocket(url);
      this.internals.socket = socket;
      // A half-open connection (a network gone without a close) is found by a missed pong.
      let alive = true;
      let beat: NodeJS.Timeout | undefined;
      socket.on('pong', () => (alive = true));
      socket.on('open', () => {
        this.internals.connected = true;
        beat = setInterval(() => {
          if (!alive) return socket.terminate();
          alive = false;
          socket.ping();
        }, this.o.heartbeatMs ?? 10_000);
        resolve();
      });
      socket.on('message', (data) => {
        // A malformed frame (the SDK parses it unguarded) must not throw out of the socket's handler.
        try {
          this.onDownStream(String(data));
        } catch {
          this.o.onState({ state: 'connected', detail: 'a malformed frame was dropped' });
        }
      });
      socket.on('close', () => {
        clearInterval(beat);
        this.internals.connected = false;
        if (this.internals.socket !== socket || this.stopped) return;
        this.o.onState({ state: 'connecting', detail: 'connection closed, reconnecting' });
        this.later();
      });
      socket.on('error', (err) => {
        socket.terminate();
        reject(err);
      });
    });
  }

  override async connect(): Promise<void> {
    if (this.stopped) return;
    // A retry after a failure keeps showing that failure until it connects or fails otherwise.
    if (!this.failing) this.o.onState({ state: 'connecting' });
    try {
      await this.getEndpoint();
      await this._connect();
      if (this.stopped) return;
      this.failing = false;
      this.o.onState({ state: 'connected' });
    } catch (err) {
      if (this.stopped) return;
      this.failing = true;
      const refused = err instanceof GatewayError && [400, 401, 403].includes(err.status);
      this.o.onState({ state: 'error', detail: describe(err), refused });
      this.later();
    }
  }

  override disconnect(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    const socket = this.internals.socket;
    this.internals.socket = undefined;
    socket?.terminate();
    this.o.onState({ state: 'stopped' });
  }

  private later(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), this.retryMs);
  }
}

/** The gateway answered with an HTTP error. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`gateway answered HTTP ${status}${code ? ` ${code}` : ''}`);
  }
}

/** A failure in words without the URL (it carries the one-time ticket) or the secret. */
function describe(err: unknown): string {
  if (err instanceof GatewayError) return err.message;
  const e = err as { name?: unknown; code?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.cause?.code === 'string' ? e.cause.code : typeof e?.code === 'string' ? e.code : '';
  return `gateway unreachable${code ? ` (${code})` : ''}`;
}
