import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { redact } from '../../core/redact.js';
import {
  abortableSleep,
  connectBot,
  type BotConnectionOptions,
  type HandleResult,
  type PollState,
} from './connect-bot.js';
import { telegramMessages } from './telegram-messages.js';
import { webhookListenExposure } from './webhook-listen-exposure.js';

type Update = { update_id: number } & Record<string, unknown>;

export interface WebhookUpdatesOptions extends BotConnectionOptions {
  handle(update: Update): Promise<HandleResult>;
  /** `telegram.webhook_url`: the public HTTPS URL registered with `setWebhook`; its path is the one we serve. */
  url: string;
  /** Where our own HTTP server listens (`telegram.webhook_listen`; port 0 = any, for tests). */
  listen: { host: string; port: number };
  /** Telegram's `secret_token`: every POST must carry it in `X-Telegram-Bot-Api-Secret-Token`. */
  secret: string;
  /** Largest body taken, default 1 MB (Telegram's updates are a few KB). */
  maxBodyBytes?: number;
}

export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * Updates by webhook (docs/design.md#telegram), the same seam as `UpdatePoller`: our own
 * node:http server on `listen` (behind the user's HTTPS reverse proxy or tunnel), then `getMe` and
 * `setWebhook`, retried like polling's start. A POST is answered 200 only once `handle` returned
 * `done` (the bridge accepted it); `retry` or a throw is a 500, so Telegram delivers the update
 * again and the bridge's receipts drop a copy. Updates are handled one at a time, in order, as
 * polling does (`max_connections: 1`). `stop()` closes the server but keeps the webhook: Telegram
 * holds the updates until the next start.
 */
export class WebhookUpdates {
  private abort = new AbortController();
  private server: http.Server | undefined;
  private loop: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly path: string;
  private readonly secretDigest: Buffer;

  constructor(private readonly o: WebhookUpdatesOptions) {
    this.path = new URL(o.url).pathname;
    this.secretDigest = digest(o.secret);
  }

  start(): void {
    this.abort = new AbortController();
    this.loop = this.run().catch((err: unknown) => this.o.logger.error('telegram webhook ended', { err }));
  }

  /** Where the server listens once started (tests bind port 0). */
  address(): { host: string; port: number } | undefined {
    const a = this.server?.address() as AddressInfo | null | undefined;
    return a ? { host: a.address, port: a.port } : undefined;
  }

  /** Closes the server (an update being handled finishes first); the webhook stays registered with Telegram. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    const server = this.server;
    this.server = undefined;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.allSettled([...this.inFlight]);
      server.closeAllConnections();
      await closed;
    }
    this.o.onState({ state: 'stopped' });
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    this.o.onState({ state: 'connecting' });
    // Said once per start, before listening: plain HTTP beyond loopback is a warning, never refused.
    const exposed = webhookListenExposure(this.o.listen, this.o.lang);
    if (exposed) this.o.logger.warn('telegram webhook listens beyond this machine over plain HTTP', { fix: exposed });
    while (!signal.aborted && !(await this.listen())) await abortableSleep(this.o.backoffMs ?? 3_000, signal);
    if (signal.aborted) return;
    await connectBot({ ...this.o, onState: (s) => this.o.onState(this.withHost(s)) }, signal, {
      op: 'setWebhook',
      run: (s) =>
        this.o.api.setWebhook(
          this.o.url,
          {
            secret_token: this.o.secret,
            allowed_updates: ['message', 'callback_query'],
            drop_pending_updates: false,
            max_connections: 1,
          },
          s,
        ),
    });
  }

  /** Connected shows "webhook" and the URL's host (never the path or the secret). */
  private withHost(s: PollState): PollState {
    return s.state === 'connected' && s.detail
      ? { ...s, detail: `${s.detail} (webhook ${new URL(this.o.url).host})` }
      : s;
  }

  private async listen(): Promise<boolean> {
    const server = http.createServer((req, res) => this.serve(req, res));
    const { host, port } = this.o.listen;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      this.server = server;
      return true;
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? String(err);
      const detail = telegramMessages(this.o.lang)('webhookListenFailed', { address: `${host}:${port}`, reason });
      this.o.onState({ state: 'error', detail });
      this.o.logger.warn('telegram webhook server could not listen, retrying', { host, port, reason });
      return false;
    }
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    const answer = (status: number) => {
      // A body cut short (413) is not read to its end: the connection goes with it.
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 413 ? { connection: 'close' } : {}) });
      res.end(status === 200 ? '{}' : JSON.stringify({ error: http.STATUS_CODES[status] }));
    };
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname !== this.path) return answer(404);
    if (req.method !== 'POST') return answer(405);
    if (!this.secretMatches(req.headers[SECRET_HEADER])) {
      this.o.logger.warn('telegram webhook request without the right secret refused', { ip: req.socket.remoteAddress });
      return answer(401);
    }
    const max = this.o.maxBodyBytes ?? 1024 * 1024;
    if (Number(req.headers['content-length'] ?? 0) > max) return answer(413);
    const work = this.readAndHandle(req, max).then(answer, (err: unknown) => {
      this.o.logger.error('telegram webhook update failed; Telegram delivers it again', { err: redact(String(err)) });
      answer(500);
    });
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async readAndHandle(req: http.IncomingMessage, max: number): Promise<number> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) return 413;
      chunks.push(chunk);
    }
    let update: Update;
    try {
      update = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Update;
    } catch {
      return 400;
    }
    if (typeof update !== 'object' || update === null || typeof update.update_id !== 'number') return 400;
    // One at a time, in arrival order, as polling hands them out.
    const turn = this.queue.then(() => this.o.handle(update));
    this.queue = turn.catch(() => undefined);
    return (await turn) === 'done' ? 200 : 500;
  }

  private secretMatches(header: string | string[] | undefined): boolean {
    return typeof header === 'string' && timingSafeEqual(digest(header), this.secretDigest);
  }
}

/** Equal-length digests, so the comparison takes the same time whatever the header's length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
