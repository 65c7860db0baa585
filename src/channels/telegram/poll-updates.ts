import type { Api } from 'grammy';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { toTelegramError, type TelegramApiError } from './telegram-api-error.js';

/** What handling one update came to: `retry` = not persisted, fetch it again later. */
export type HandleResult = 'done' | 'retry';

export interface PollState {
  state: 'connecting' | 'connected' | 'error' | 'stopped';
  detail?: string;
}

export interface UpdatePollerOptions {
  api: Api;
  lang: Language;
  logger: Logger;
  handle(update: { update_id: number } & Record<string, unknown>): Promise<HandleResult>;
  /** Called once the bot's identity is known (`getMe`), before the first update. */
  onMe(me: { username: string }): void;
  onState(state: PollState): void;
  /** Long-poll length in seconds (Telegram's `timeout`), default 30. */
  timeoutSeconds?: number;
  /** Wait after a failed call or a `retry`, default 3 s; a refused token waits 20 times as long. */
  backoffMs?: number;
}

/**
 * Long polling we drive ourselves instead of grammY's `bot.start()`, because `bot.start()`
 * confirms an update (moves the offset past it) whether or not handling it persisted anything,
 * and on `stop()` confirms the one in progress too. Here the offset moves past an update only
 * once `handle` returned `done` (the bridge accepted it); anything else is delivered again by
 * Telegram on the next poll or the next start, and the bridge's receipts drop what it already has.
 * `getMe` and `deleteWebhook` are retried until they work (a refused token waits longer), so a
 * Telegram outage or a bad token never stops the rest of cc-linker.
 */
export class UpdatePoller {
  private stopped = false;
  private abort = new AbortController();
  private loop: Promise<void> | undefined;
  private offset = 0;

  constructor(private readonly o: UpdatePollerOptions) {}

  start(): void {
    this.stopped = false;
    this.abort = new AbortController();
    this.loop = this.run().catch((err: unknown) => this.o.logger.error('telegram polling ended', { err }));
  }

  /** Ends the pending long poll; an update being handled finishes first. Nothing is confirmed on the way out. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.loop;
    this.o.onState({ state: 'stopped' });
  }

  private async run(): Promise<void> {
    const backoff = this.o.backoffMs ?? 3_000;
    this.o.onState({ state: 'connecting' });
    while (!this.stopped) {
      try {
        const me = await this.o.api.getMe(this.signal());
        await this.o.api.deleteWebhook({}, this.signal());
        this.o.onMe({ username: me.username });
        this.o.onState({ state: 'connected', detail: `@${me.username}` });
        break;
      } catch (err) {
        if (this.stopped) return;
        await this.failed(toTelegramError('getMe', err, this.o.lang), backoff);
      }
    }
    while (!this.stopped) {
      let updates: Array<{ update_id: number } & Record<string, unknown>>;
      try {
        updates = (await this.o.api.getUpdates(
          { offset: this.offset, timeout: this.o.timeoutSeconds ?? 30, allowed_updates: ['message', 'callback_query'] },
          this.signal(),
        )) as unknown as typeof updates;
      } catch (err) {
        if (this.stopped) return;
        await this.failed(toTelegramError('getUpdates', err, this.o.lang), backoff);
        continue;
      }
      this.o.onState({ state: 'connected' });
      for (const update of updates) {
        if (this.stopped) return;
        let result: HandleResult;
        try {
          result = await this.o.handle(update);
        } catch (err) {
          // Only a click or an ignored update can get here (a message's failure is a `retry`): drop it, keep polling.
          this.o.logger.error('telegram update could not be handled; skipped', { err, updateId: update.update_id });
          result = 'done';
        }
        if (result === 'retry') {
          await this.sleep(backoff);
          break;
        }
        this.offset = update.update_id + 1;
      }
    }
  }

  /** grammY's Node build types its signal after the `abort-controller` package; the native one is what it gets. */
  private signal(): Parameters<Api['getMe']>[0] {
    return this.abort.signal as unknown as Parameters<Api['getMe']>[0];
  }

  private async failed(err: TelegramApiError, backoff: number): Promise<void> {
    const refused = err.errorCode === 401 || err.errorCode === 404;
    this.o.onState({ state: 'error', detail: refused ? 'bot token refused by Telegram' : err.userMessage });
    this.o.logger.warn('telegram call failed, retrying', { code: err.errorCode, err: err.userMessage });
    await this.sleep(refused ? backoff * 20 : backoff);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const signal = this.abort.signal;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    });
  }
}
