import { App, LogLevel, webApi, type Logger as SlackLogger } from '@slack/bolt';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { AckAfterReceiver } from './ack-after-receiver.js';
import { missingBotScopes, missingScopesStatus, missingScopesText, type BotScope } from './bot-scopes.js';
import { toSlackError, type SlackApiError } from './slack-api-error.js';

export interface ConnectionState {
  state: 'connecting' | 'connected' | 'error' | 'stopped';
  detail?: string;
}

/** Who the bot is, from `auth.test`. */
export interface BotIdentity {
  userId: string;
  botId: string;
  name: string;
}

export interface SlackConnectionOptions {
  botToken: string;
  appToken: string;
  /** Web API base URL ending in `/`. */
  apiUrl: string;
  lang: Language;
  logger: Logger;
  /** The Bolt app's Web API retry policy (429s and network faults). */
  retryConfig: webApi.RetryOptions;
  /** Wait after a failed connect, default 3 s (a refused token waits 20 times as long). */
  backoffMs?: number;
  /** Socket Mode's client ping timeout, also its wait before reconnecting (default 5 s). */
  clientPingTimeoutMs?: number;
  /** Called with the Bolt app once it exists, before it connects: register the listeners here. */
  listen(app: App, me: BotIdentity): void;
  onState(state: ConnectionState): void;
}

/** The SDKs' own log lines go to ours: their debug lines (whole payloads) are dropped, errors are warnings. */
export function slackLogger(log: Logger): SlackLogger {
  const text = (msg: unknown[]) => msg.map((m) => (m instanceof Error ? m.message : String(m))).join(' ');
  return {
    debug: () => undefined,
    info: (...msg: unknown[]) => log.debug(text(msg)),
    warn: (...msg: unknown[]) => log.warn(text(msg)),
    error: (...msg: unknown[]) => log.warn(text(msg)),
    setLevel: () => undefined,
    getLevel: () => LogLevel.INFO,
    setName: () => undefined,
  };
}

/**
 * The Socket Mode connection (docs/design.md#slack): `auth.test` with the bot token until it
 * works (a refused token is retried 20 times more slowly; bot scopes the app lacks are logged
 * once as a warning), then a Bolt `App` on
 * {@link AckAfterReceiver} connects with the app token (`apps.connections.open`, then the
 * WebSocket), retried the same way, and connects again whenever the socket closes.
 * Nothing here throws out of `start()`: an outage or a bad token shows in the state.
 */
export class SlackConnection {
  private stopped = false;
  private abort = new AbortController();
  private receiver: AckAfterReceiver | undefined;
  private loop: Promise<void> | undefined;
  private scopesWarned = false;
  /** The scopes the last `auth.test` said the app lacks; shown in the connected state's detail. */
  private missingScopes: BotScope[] = [];

  /** `auth.test` without the client's own retries: the loop in `run` retries, and shows the error meanwhile. */
  private readonly client: webApi.WebClient;

  constructor(private readonly o: SlackConnectionOptions) {
    this.client = new webApi.WebClient(o.botToken, {
      slackApiUrl: o.apiUrl,
      retryConfig: { retries: 0 },
      timeout: 30_000,
      logger: slackLogger(o.logger),
    });
  }

  start(): void {
    this.stopped = false;
    this.abort = new AbortController();
    this.loop = this.run().catch((err: unknown) => this.o.logger.error('slack connection ended', { err }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.receiver?.stop().catch(() => undefined);
    await this.loop;
    this.receiver = undefined;
    this.o.onState({ state: 'stopped' });
  }

  private async run(): Promise<void> {
    const backoff = this.o.backoffMs ?? 3_000;
    this.o.onState({ state: 'connecting' });
    let me: BotIdentity | undefined;
    while (!this.stopped && !me) {
      try {
        const r = await this.client.auth.test();
        me = { userId: String(r.user_id ?? ''), botId: String(r.bot_id ?? ''), name: String(r.user ?? '') };
        this.warnMissingScopes(r.response_metadata?.scopes);
      } catch (err) {
        await this.failed(toSlackError('auth.test', err, this.o.lang), 'bot', backoff);
      }
    }
    if (this.stopped || !me) return;
    const clientOptions = {
      slackApiUrl: this.o.apiUrl,
      retryConfig: this.o.retryConfig,
      logger: slackLogger(this.o.logger),
    };
    // apps.connections.open, like auth.test, is retried by our loop (with the state shown), not by the client.
    const socketClientOptions = { ...clientOptions, retryConfig: { retries: 0 } };
    const receiver = new AckAfterReceiver(
      {
        appToken: this.o.appToken,
        logger: slackLogger(this.o.logger),
        clientPingTimeout: this.o.clientPingTimeoutMs ?? 5_000,
        // Reconnecting is ours (the loop in `run`): the client's own retry rejects a promise nobody
        // holds when the Web API is unreachable, which would end the whole process.
        autoReconnectEnabled: false,
        installerOptions: { clientOptions: socketClientOptions },
      },
      (err, type) => this.o.logger.warn('slack envelope handling failed', { type, err: String(err) }),
    );
    this.receiver = receiver;
    const app = new App({
      token: this.o.botToken,
      receiver,
      tokenVerificationEnabled: false,
      botUserId: me.userId,
      botId: me.botId,
      logger: slackLogger(this.o.logger),
      clientOptions,
    });
    app.error(async (err) => {
      throw err;
    });
    this.o.listen(app, me);
    // Connected with scopes missing still works, partly: the state says which (the list the log names).
    const lacking = this.missingScopes.length > 0 ? `; ${missingScopesStatus(this.missingScopes, this.o.lang)}` : '';
    const connected = () => this.o.onState({ state: 'connected', detail: `@${me.name}${lacking}` });
    while (!this.stopped) {
      try {
        await receiver.start();
      } catch (err) {
        await this.failed(toSlackError('apps.connections.open', err, this.o.lang), 'app', backoff);
        continue;
      }
      connected();
      // Connected until the socket closes (Slack's `disconnect`, a missed ping, an outage); then a new connection.
      await new Promise((resolve) => receiver.client.once('disconnected', resolve));
      if (this.stopped) return;
      this.o.onState({ state: 'connecting', detail: 'reconnecting' });
      this.o.logger.info('slack socket closed, reconnecting');
    }
  }

  /**
   * The bot scopes the app lacks (`bot-scopes.ts`): kept for the connected state's detail, and
   * logged once: the calls needing them will fail.
   */
  private warnMissingScopes(granted: string[] | undefined): void {
    const missing = missingBotScopes(granted);
    this.missingScopes = missing ?? [];
    if (this.scopesWarned || !missing || missing.length === 0) return;
    this.scopesWarned = true;
    this.o.logger.warn('slack app lacks bot scopes', {
      missing: missing.join(','),
      fix: missingScopesText(missing, this.o.lang),
    });
  }

  private async failed(err: SlackApiError, token: 'bot' | 'app', backoff: number): Promise<void> {
    if (this.stopped) return;
    const detail = err.refused ? `${token} token refused by Slack` : err.userMessage;
    this.o.onState({ state: 'error', detail });
    this.o.logger.warn('slack connect failed, retrying', { code: err.slackCode, err: detail });
    await this.sleep(err.refused ? backoff * 20 : backoff);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.abort.signal;
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    });
  }
}
