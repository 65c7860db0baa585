import type { ServerResponse } from 'node:http';

/** One event for the pages: `type` becomes the SSE `event:` name, `data` its JSON payload. */
export interface ConsoleEvent {
  /** `sessions.changed`: the registry changed (a new or updated session); pages reload their list. */
  type: 'bridge.message' | 'bridge.notify' | 'chat.item' | 'chat.run' | 'status' | 'sessions.changed';
  data: unknown;
}

/**
 * Server-sent events to every open page. Each event gets an increasing id; a comment line every
 * `heartbeatMs` keeps proxies and phones from closing an idle stream. Pages refetch their snapshot
 * (history, chat, status) whenever the stream (re)opens, so nothing needs replaying here. One
 * client (a login) may hold at most `maxPerClient` streams: a phone and a few tabs, not hundreds.
 */
export class EventHub {
  private readonly clients = new Map<ServerResponse, string>();
  private readonly perClient = new Map<string, number>();
  private seq = 0;
  private readonly timer: NodeJS.Timeout;
  /** Open streams one client may hold at once. */
  readonly maxPerClient: number;

  constructor(opts: { heartbeatMs?: number; maxPerClient?: number } = {}) {
    this.maxPerClient = opts.maxPerClient ?? 8;
    this.timer = setInterval(() => {
      for (const res of this.clients.keys()) res.write(': ping\n\n');
    }, opts.heartbeatMs ?? 15_000);
    this.timer.unref();
  }

  /** Number of open streams (the status poller only runs while someone is watching). */
  get size(): number {
    return this.clients.size;
  }

  /**
   * Turns an authorised response into an event stream for `client`; it is dropped when the client
   * leaves. Returns false, answering nothing, when that client already holds `maxPerClient`
   * streams: the caller refuses the new one and the open ones go on.
   */
  attach(res: ServerResponse, client: string): boolean {
    const open = this.perClient.get(client) ?? 0;
    if (open >= this.maxPerClient) return false;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n: open\n\n');
    this.clients.set(res, client);
    this.perClient.set(client, open + 1);
    res.on('close', () => {
      if (!this.clients.delete(res)) return;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    });
    return true;
  }

  publish(event: ConsoleEvent): void {
    if (this.clients.size === 0) return;
    this.seq += 1;
    const frame = `id: ${this.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
    for (const res of this.clients.keys()) res.write(frame);
  }

  /** Ends every stream (server shutdown). */
  close(): void {
    clearInterval(this.timer);
    for (const res of this.clients.keys()) res.end();
    this.clients.clear();
    this.perClient.clear();
  }
}
