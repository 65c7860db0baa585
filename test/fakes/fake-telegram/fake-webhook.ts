import type { Update } from './fake-telegram-server.js';

type Reply =
  { ok: true; result: unknown } | { ok: false; error_code: number; description: string; parameters?: unknown };

export interface WebhookDeliveryOptions {
  /** Tries per update before it is given up (Telegram gives up after a while too), default 5; `Infinity` never. */
  attempts?: number;
  /** Wait between tries, default 50 ms. */
  backoffMs?: number;
  /** Per-POST timeout, default 10 s. */
  timeoutMs?: number;
}

/** One POST of an update: its id, the HTTP status (0 = the connection failed). */
export interface WebhookPost {
  update_id: number;
  status: number;
}

/**
 * A fault of the way between Telegram and the bridge (the user's reverse proxy) for the next
 * `times` POSTs: `status` answered without forwarding, or `answerLost` — forwarded, the bridge
 * answers, and Telegram sees a failed connection (a proxy timeout), so it sends the update again.
 */
export interface WebhookPostFault {
  status?: number;
  answerLost?: boolean;
  times: number;
}

/**
 * The webhook side of the fake Bot API: `setWebhook` / `deleteWebhook` / `getWebhookInfo` state,
 * and delivery as Telegram does it — each pending update POSTed (JSON) to the URL with the
 * `X-Telegram-Bot-Api-Secret-Token` header, one at a time in order; a 2xx confirms it, anything
 * else or a failed connection is tried again after a short wait. `route` plays the user's HTTPS
 * reverse proxy: an https:// origin → the local http:// server it forwards to.
 */
export class FakeWebhook {
  url = '';
  secret = '';
  readonly posts: WebhookPost[] = [];
  /** Updates given up after `attempts` failed tries. */
  readonly givenUp: number[] = [];
  /** Telegram's record of the last failed delivery (`getWebhookInfo`): unix seconds and its words. */
  lastError: { date: number; message: string } | undefined;
  private readonly routes = new Map<string, string>();
  private readonly postFaults: WebhookPostFault[] = [];
  private readonly postListeners = new Set<(update_id: number, status: Promise<number>) => boolean | void>();
  private inFlight: AbortController | undefined;
  private running = false;
  private wakeSleep: (() => void) | undefined;

  constructor(
    private readonly queue: { next(): Update | undefined; confirm(id: number): void; count(): number },
    private readonly o: WebhookDeliveryOptions = {},
  ) {}

  /** Forward POSTs for `publicOrigin` (`https://host`) to `localOrigin` (`http://127.0.0.1:port`). */
  route(publicOrigin: string, localOrigin: string): void {
    this.routes.set(new URL(publicOrigin).origin, localOrigin);
    this.wakeSleep?.();
    this.kick();
  }

  /** The next POSTs meet `fault` (see `WebhookPostFault`). */
  failNextPosts(fault: WebhookPostFault): void {
    this.postFaults.push({ ...fault });
  }

  /**
   * Calls `listener` as each POST is forwarded to the bridge, with its update id and the bridge's
   * answer to come (the HTTP status, 0 = none); returning true removes the listener.
   */
  onPost(listener: (update_id: number, status: Promise<number>) => boolean | void): void {
    this.postListeners.add(listener);
  }

  /** Cuts the POST in flight, if any (a dropped connection: Telegram sees no answer and sends it again). */
  dropInFlight(): void {
    this.inFlight?.abort();
  }

  /** The Bot API methods this part answers. */
  call(method: string, b: Record<string, unknown>): Reply | undefined {
    switch (method) {
      case 'setWebhook': {
        const url = typeof b.url === 'string' ? b.url : '';
        if (url !== '' && !url.startsWith('https://'))
          return {
            ok: false,
            error_code: 400,
            description: 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
          };
        const secret = typeof b.secret_token === 'string' ? b.secret_token : '';
        if (secret !== '' && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          return { ok: false, error_code: 400, description: 'Bad Request: secret token contains unallowed characters' };
        this.url = url;
        this.secret = secret;
        if (b.drop_pending_updates === true) this.dropPending();
        this.kick();
        return { ok: true, result: true };
      }
      case 'deleteWebhook':
        this.url = '';
        this.secret = '';
        if (b.drop_pending_updates === true) this.dropPending();
        return { ok: true, result: true };
      case 'getWebhookInfo':
        return {
          ok: true,
          result: {
            url: this.url,
            has_custom_certificate: false,
            pending_update_count: this.url === '' ? 0 : this.queue.count(),
            ...(this.lastError
              ? { last_error_date: this.lastError.date, last_error_message: this.lastError.message }
              : {}),
          },
        };
      default:
        return undefined;
    }
  }

  /** `getUpdates` while a webhook is set: Telegram's 409. */
  conflict(): Reply | undefined {
    if (this.url === '') return undefined;
    const description =
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";
    return { ok: false, error_code: 409, description };
  }

  /** New updates (or a new URL or route): deliver whatever is pending. */
  kick(): void {
    if (this.running || this.url === '') return;
    this.running = true;
    void this.deliver().finally(() => (this.running = false));
  }

  /** Ends delivery (the fake is closing). */
  close(): void {
    this.url = '';
    this.wakeSleep?.();
  }

  private dropPending(): void {
    for (let u = this.queue.next(); u; u = this.queue.next()) this.queue.confirm(u.update_id);
  }

  private async deliver(): Promise<void> {
    const attempts = this.o.attempts ?? 5;
    let tries = 0;
    for (let update = this.queue.next(); update && this.url !== ''; update = this.queue.next()) {
      const status = await this.post(update);
      this.posts.push({ update_id: update.update_id, status });
      if (status >= 200 && status < 300) {
        this.queue.confirm(update.update_id);
        tries = 0;
        continue;
      }
      this.lastError = {
        date: Math.floor(Date.now() / 1000),
        message: status === 0 ? 'Connection refused' : `Wrong response from the webhook: ${status}`,
      };
      if (++tries >= attempts) {
        this.givenUp.push(update.update_id);
        this.queue.confirm(update.update_id);
        tries = 0;
        continue;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakeSleep = undefined;
          resolve();
        };
        const timer = setTimeout(done, this.o.backoffMs ?? 50);
        this.wakeSleep = done;
      });
    }
  }

  private post(update: Update): Promise<number> {
    const fault = this.postFaults[0];
    if (fault && --fault.times <= 0) this.postFaults.shift();
    if (fault?.status !== undefined) return Promise.resolve(fault.status);
    const answer = this.forward(update);
    for (const listener of [...this.postListeners])
      if (listener(update.update_id, answer) === true) this.postListeners.delete(listener);
    return fault?.answerLost ? answer.then(() => 0) : answer;
  }

  private async forward(update: Update): Promise<number> {
    const target = new URL(this.url);
    const local = this.routes.get(target.origin);
    if (!local) return 0;
    const abort = new AbortController();
    this.inFlight = abort;
    try {
      const res = await fetch(`${local}${target.pathname}${target.search}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.secret ? { 'x-telegram-bot-api-secret-token': this.secret } : {}),
        },
        body: JSON.stringify(update),
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(this.o.timeoutMs ?? 10_000)]),
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    } finally {
      if (this.inFlight === abort) this.inFlight = undefined;
    }
  }
}
