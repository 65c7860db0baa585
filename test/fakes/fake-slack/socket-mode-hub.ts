import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

/** One envelope as Slack sends it over Socket Mode. */
export interface Envelope {
  envelope_id: string;
  type: 'events_api' | 'interactive' | 'slash_commands';
  accepts_response_payload: boolean;
  retry_attempt?: number;
  retry_reason?: string;
  payload: Record<string, unknown>;
}

/**
 * The Socket Mode side of the fake: a `ws` server on the fake's HTTP server (upgrades to
 * `/link/?ticket=…`, each ticket from `apps.connections.open` good for one connection). On connect
 * it says `hello`; envelopes go to the newest open connection (queued while none is open) and wait
 * for the client's `{envelope_id}` ack (its `payload`, the answer a slash command shows, is kept in
 * `ackPayloads`). An events_api envelope not acked within `ackTimeoutMs` is sent again with
 * `retry_attempt` + 1 and `retry_reason: "timeout"`, at most 3 times, as Slack does; a
 * slash_commands envelope likewise (the same payload, hence the same `trigger_id`).
 * Each connection is pinged every 5 s (the client counts on server pings).
 */
export class SocketModeHub {
  ackTimeoutMs = 3_000;
  /** Every envelope sent (re-sends included) and every ack received, by envelope id. */
  readonly sent: Envelope[] = [];
  readonly acks = new Set<string>();
  readonly ackPayloads = new Map<string, unknown>();
  readonly connections: WebSocket[] = [];
  private readonly tickets = new Set<string>();
  private readonly queue: Envelope[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor(server: http.Server) {
    server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const ticket = url.searchParams.get('ticket') ?? '';
      if (url.pathname !== '/link/' || !this.tickets.delete(ticket)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws));
    });
  }

  /** A one-use ticket for `apps.connections.open`'s URL. */
  ticket(): string {
    const t = randomUUID();
    this.tickets.add(t);
    return t;
  }

  open(): WebSocket[] {
    return this.connections.filter((c) => c.readyState === c.OPEN);
  }

  /** Sends a new envelope of `type` with `payload`; returns it (its id is what an ack names). */
  send(type: Envelope['type'], payload: Record<string, unknown>, retryAttempt = 0): Envelope {
    const envelope: Envelope = {
      envelope_id: randomUUID(),
      type,
      accepts_response_payload: type !== 'events_api',
      ...(type === 'events_api'
        ? { retry_attempt: retryAttempt, retry_reason: retryAttempt > 0 ? 'timeout' : '' }
        : {}),
      payload,
    };
    this.attempts.set(envelope.envelope_id, retryAttempt);
    this.deliver(envelope);
    return envelope;
  }

  /** Slack says `disconnect` (refresh_requested) on every open connection; the client reconnects. */
  disconnectAll(reason = 'refresh_requested'): void {
    for (const ws of this.open()) ws.send(JSON.stringify({ type: 'disconnect', reason }));
  }

  /** Envelopes sent but not acked yet (a re-sent one counts once, by its newest copy). */
  unacked(): Envelope[] {
    return this.sent.filter((e) => !this.acks.has(e.envelope_id) && !this.resent.has(e.envelope_id));
  }

  private readonly resent = new Set<string>();
  /** Which copy each envelope is (0 = the first), also for slash commands, whose envelope does not say. */
  private readonly attempts = new Map<string, number>();

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    for (const ws of this.connections) ws.terminate();
    this.wss.close();
  }

  private connected(ws: WebSocket): void {
    this.connections.push(ws);
    // Slack pings every few seconds; the client reconnects when no ping came for its serverPingTimeout (30 s).
    const ping = setInterval(() => ws.readyState === ws.OPEN && ws.ping('fake-slack'), 5_000);
    ping.unref();
    ws.on('close', () => clearInterval(ping));
    ws.on('message', (data) => {
      let msg: { envelope_id?: unknown; payload?: unknown };
      try {
        msg = JSON.parse(String(data)) as { envelope_id?: unknown; payload?: unknown };
      } catch {
        return;
      }
      if (typeof msg.envelope_id !== 'string') return;
      this.acks.add(msg.envelope_id);
      if (msg.payload !== undefined) this.ackPayloads.set(msg.envelope_id, msg.payload);
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.open().length,
        debug_info: { host: 'fake-slack', approximate_connection_time: 3600 },
        connection_info: { app_id: 'A0FAKEAPP' },
      }),
    );
    for (const envelope of this.queue.splice(0)) this.deliver(envelope);
  }

  private deliver(envelope: Envelope): void {
    const ws = this.open().at(-1);
    if (!ws) {
      this.queue.push(envelope);
      return;
    }
    this.sent.push(envelope);
    ws.send(JSON.stringify(envelope));
    if (envelope.type === 'interactive') return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const attempt = this.attempts.get(envelope.envelope_id) ?? 0;
      if (this.acks.has(envelope.envelope_id) || attempt >= 3) return;
      this.resent.add(envelope.envelope_id);
      this.send(envelope.type, envelope.payload, attempt + 1);
    }, this.ackTimeoutMs);
    this.timers.add(timer);
  }
}
