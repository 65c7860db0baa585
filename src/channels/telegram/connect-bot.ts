import type { Api } from 'grammy';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { toTelegramError, type TelegramApiError } from './telegram-api-error.js';

/** What handling one update came to: `retry` = not persisted, deliver it again later. */
export type HandleResult = 'done' | 'retry';

export interface PollState {
  state: 'connecting' | 'connected' | 'error' | 'stopped';
  detail?: string;
}

/** What both ways of receiving updates (long polling, webhook) need to reach Telegram. */
export interface BotConnectionOptions {
  api: Api;
  lang: Language;
  logger: Logger;
  /** Called once the bot's identity is known (`getMe`), before the first update. */
  onMe(me: { username: string }): void;
  onState(state: PollState): void;
  /** Wait after a failed call, default 3 s; a refused token waits 20 times as long. */
  backoffMs?: number;
}

/** grammY's Node build types its signal after the `abort-controller` package; the native one is what it gets. */
export function grammySignal(signal: AbortSignal): Parameters<Api['getMe']>[0] {
  return signal as unknown as Parameters<Api['getMe']>[0];
}

/**
 * `getMe`, then `setUp` (`deleteWebhook` for polling, `setWebhook` for a webhook), retried until
 * both work: a Telegram outage or a bad token never stops the rest of cc-linker, it shows in the
 * state. False when `signal` ended it first.
 */
export async function connectBot(
  o: BotConnectionOptions,
  signal: AbortSignal,
  setUp: { op: string; run(signal: Parameters<Api['getMe']>[0]): Promise<unknown> },
): Promise<boolean> {
  o.onState({ state: 'connecting' });
  while (!signal.aborted) {
    let op = 'getMe';
    try {
      const me = await o.api.getMe(grammySignal(signal));
      op = setUp.op;
      await setUp.run(grammySignal(signal));
      o.onMe({ username: me.username });
      o.onState({ state: 'connected', detail: `@${me.username}` });
      return true;
    } catch (err) {
      if (signal.aborted) return false;
      await waitAfterFailure(o, toTelegramError(op, err, o.lang), signal);
    }
  }
  return false;
}

/** Shows a failed call in the state and waits before the next try (a refused token 20 times as long). */
export async function waitAfterFailure(o: BotConnectionOptions, err: TelegramApiError, signal: AbortSignal) {
  const backoff = o.backoffMs ?? 3_000;
  const refused = err.errorCode === 401 || err.errorCode === 404;
  o.onState({ state: 'error', detail: refused ? 'bot token refused by Telegram' : err.userMessage });
  o.logger.warn('telegram call failed, retrying', { code: err.errorCode, err: err.userMessage });
  await abortableSleep(refused ? backoff * 20 : backoff, signal);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
