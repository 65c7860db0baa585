import {
  abortableSleep,
  connectBot,
  grammySignal,
  waitAfterFailure,
  type BotConnectionOptions,
  type HandleResult,
} from './connect-bot.js';
import { toTelegramError } from './telegram-api-error.js';

export type { HandleResult, PollState } from './connect-bot.js';

export interface UpdatePollerOptions extends BotConnectionOptions {
  handle(update: { update_id: number } & Record<string, unknown>): Promise<HandleResult>;
  /** Long-poll length in seconds (Telegram's `timeout`), default 30. The wait after a `retry` is `backoffMs`. */
  timeoutSeconds?: number;
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
    // A webhook left from webhook mode would make Telegram refuse getUpdates (409): polling removes it first.
    const connected = await connectBot(this.o, this.abort.signal, {
      op: 'deleteWebhook',
      run: (signal) => this.o.api.deleteWebhook({}, signal),
    });
    if (!connected) return;
    while (!this.stopped) {
      let updates: Array<{ update_id: number } & Record<string, unknown>>;
      try {
        updates = (await this.o.api.getUpdates(
          { offset: this.offset, timeout: this.o.timeoutSeconds ?? 30, allowed_updates: ['message', 'callback_query'] },
          grammySignal(this.abort.signal),
        )) as unknown as typeof updates;
      } catch (err) {
        if (this.stopped) return;
        await waitAfterFailure(this.o, toTelegramError('getUpdates', err, this.o.lang), this.abort.signal);
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
          await abortableSleep(backoff, this.abort.signal);
          break;
        }
        this.offset = update.update_id + 1;
      }
    }
  }
}
