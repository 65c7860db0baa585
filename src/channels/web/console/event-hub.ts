import type { ServerResponse } from 'node:http';

/** One event for the pages: `type` becomes the SSE `event:` name, `data` its JSON payload. */
export interface ConsoleEvent {
  type: 'bridge.message' | 'chat.item' | 'chat.run' | 'status';
  data: unknown;
}

/**
 * Server-sent events to every open page. Each event gets an increasing id; a comment line every
 * `heartbeatMs` keeps proxies and phones from closing an idle stream. Pages refetch their snapshot
 * (history, chat, status) whenever the stream (re)opens, so nothing needs replaying here.
 */
export class EventHub {
  private readonly clients = new Set<ServerResponse>();
  private seq = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(heartbeatMs = 15_000) {
    this.timer = setInterval(() => {
      for (const res of this.clients) res.write(': ping\n\n');
    }, heartbeatMs);
    this.timer.unref();
  }

  /** Number of open streams (the status poller only runs while someone is watching). */
  get size(): number {
    return this.clients.size;
  }

  /** Turns an authorised response into an event stream; it is dropped when the client leaves. */
  attach(res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n: open\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  publish(event: ConsoleEvent): void {
    if (this.clients.size === 0) return;
    this.seq += 1;
    const frame = `id: ${this.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
    for (const res of this.clients) res.write(frame);
  }

  /** Ends every stream (server shutdown). */
  close(): void {
    clearInterval(this.timer);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
