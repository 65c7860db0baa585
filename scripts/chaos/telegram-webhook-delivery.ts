import type { FakeTelegram } from '../../test/fakes/fake-telegram/fake-telegram-server.js';
import type { WebhookDeliveryOptions } from '../../test/fakes/fake-telegram/fake-webhook.js';
import { freePort } from '../../test/helpers/free-port.js';
import type { Rng } from './rng.js';

/** The public address the bridge registers; the fake's stand-in for the reverse proxy forwards it to the listener. */
const PUBLIC_ORIGIN = 'https://tg-chaos.example.test';
const WEBHOOK_PATH = '/cc-linker/telegram';

/**
 * Telegram keeps re-sending an unanswered update for a long time: the chaos run never gives one up
 * (a given-up update would never be acked and would count as lost), 100 ms between tries.
 */
export const CHAOS_WEBHOOK_DELIVERY: WebhookDeliveryOptions = { attempts: Infinity, backoffMs: 100 };

/** What a webhook run measured of Telegram's POSTs (the report's "webhook" figures). */
export interface WebhookDeliveryStats {
  posts: number;
  /** POSTs that got no answer (connection refused or cut, a lost answer) or a non-2xx status. */
  failed: number;
  /** Updates Telegram gave up on (never, with `CHAOS_WEBHOOK_DELIVERY`; each one is a lost message). */
  givenUp: number;
}

/**
 * Webhook mode of the chaos run's Telegram (docs/chaos.md#channels): the bridge gets
 * `webhook_url` (https, public) and `webhook_listen` (127.0.0.1, a free port); the fake Telegram
 * POSTs each update there and re-sends it until a 2xx. An update is acked by its first 2xx.
 */
export class TelegramWebhookDelivery {
  /** Fault names this mode adds to the Bot API's (report order). */
  static readonly faultNames = ['post-5xx', 'post-answer-lost'] as const;

  private constructor(
    private readonly fake: FakeTelegram,
    readonly listen: string,
  ) {}

  /** Picks the listener's port and routes the public origin to it. */
  static async start(fake: FakeTelegram): Promise<TelegramWebhookDelivery> {
    const port = await freePort();
    fake.webhook.route(PUBLIC_ORIGIN, `http://127.0.0.1:${port}`);
    return new TelegramWebhookDelivery(fake, `127.0.0.1:${port}`);
  }

  /** The `[telegram]` keys that switch the bridge to webhook mode. */
  config(): Record<string, string> {
    return { webhook_url: `${PUBLIC_ORIGIN}${WEBHOOK_PATH}`, webhook_listen: this.listen };
  }

  /** A life is up once it registered the webhook (its listener is open by then). */
  connectionsOpened(): number {
    return this.fake.answered.get('setWebhook') ?? 0;
  }

  /** Update ids answered 2xx at least once, and POSTs per update id. */
  deliveries(): { acked: Set<number>; posts: Map<number, number> } {
    const acked = new Set<number>();
    const posts = new Map<number, number>();
    for (const p of this.fake.webhook.posts) {
      posts.set(p.update_id, (posts.get(p.update_id) ?? 0) + 1);
      if (p.status >= 200 && p.status < 300) acked.add(p.update_id);
    }
    return { acked, posts };
  }

  /** A fault of the way between Telegram and the bridge, on the next 1–3 POSTs; returns its name. */
  postFault(rng: Rng): string {
    const times = rng.int(1, 3);
    if (rng.chance(0.5)) {
      this.fake.webhook.failNextPosts({ status: rng.pick([500, 502]), times });
      return 'post-5xx';
    }
    this.fake.webhook.failNextPosts({ answerLost: true, times });
    return 'post-answer-lost';
  }

  /**
   * Resolves as soon as Telegram has sent its next POST to the bridge (undefined after
   * `timeoutMs`), with the bridge's answer to it to come (the HTTP status, 0 = none).
   */
  nextPostInFlight(timeoutMs: number): Promise<{ answer: Promise<number> } | undefined> {
    return new Promise((resolve) => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        resolve(undefined);
      }, timeoutMs);
      this.fake.webhook.onPost((_id, status) => {
        if (done) return true;
        done = true;
        clearTimeout(timer);
        resolve({ answer: status });
        return true;
      });
    });
  }

  stats(): WebhookDeliveryStats {
    const { posts, givenUp } = this.fake.webhook;
    return {
      posts: posts.length,
      failed: posts.filter((p) => p.status < 200 || p.status >= 300).length,
      givenUp: givenUp.length,
    };
  }
}
