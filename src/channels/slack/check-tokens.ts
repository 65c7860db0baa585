import { webApi } from '@slack/bolt';
import { silentLogger } from '../../core/logger.js';
import { toSlackError } from './slack-api-error.js';
import { slackLogger } from './slack-connection.js';

/**
 * What Slack said about one token; for the bot token also the scopes it was granted (Slack's
 * `x-oauth-scopes` header; absent when the answer did not carry it).
 */
export type TokenCheck =
  { ok: true; name?: string; team?: string; scopes?: string[] } | { ok: false; refused: boolean; detail: string };

/**
 * Asks Slack (at `apiUrl`) about both tokens within `timeoutMs`, without retries (used by
 * `doctor` and `setup`): `auth.test` with the bot token (the bot's name and workspace) and
 * `apps.connections.open` with the app token (a Socket Mode URL is issued and left unused).
 * The bot token's answer also says which scopes it has (`bot-scopes.ts` compares them).
 * `refused` = Slack answered no; otherwise it could not be asked. `detail` is Slack's error code.
 */
export async function checkSlackTokens(
  o: { botToken: string; appToken: string; apiUrl: string },
  timeoutMs = 5_000,
): Promise<{ bot: TokenCheck; app: TokenCheck }> {
  const options = {
    slackApiUrl: o.apiUrl,
    timeout: timeoutMs,
    retryConfig: { retries: 0 },
    logger: slackLogger(silentLogger),
  };
  const failed = (op: string, err: unknown): TokenCheck => {
    const e = toSlackError(op, err, 'en');
    return {
      ok: false,
      refused: e.slackCode !== 'network request failed' && !e.slackCode.startsWith('http_'),
      detail: e.slackCode,
    };
  };
  const bot = await new webApi.WebClient(o.botToken, options).auth
    .test()
    .then((r): TokenCheck => ({
      ok: true,
      name: String(r.user ?? ''),
      team: String(r.team ?? ''),
      ...(r.response_metadata?.scopes ? { scopes: r.response_metadata.scopes } : {}),
    }))
    .catch((err: unknown) => failed('auth.test', err));
  const app = await new webApi.WebClient(o.appToken, options).apps.connections
    .open({})
    .then((): TokenCheck => ({ ok: true }))
    .catch((err: unknown) => failed('apps.connections.open', err));
  return { bot, app };
}
