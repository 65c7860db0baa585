import { askSecret } from './ask-secret.js';
import {
  askTelegramReceive,
  RECEIVE_ENV,
  RECEIVE_OPTIONS,
  receiveNextSteps,
  receiveSummary,
  sayRegisteredWebhook,
  type TelegramReceive,
} from './ask-telegram-receive.js';
import type { Config } from '../../core/config-schema.js';
import { registerSecret } from '../../core/redact.js';
import type { SecretAnswer } from './ask-feishu.js';
import { chatApp, type ChatAppOption } from './chat-app.js';
import { SETUP_USAGE_EXIT, SetupError } from './setup-error.js';
import { domainHost, schemaAccepts, type SetupFlags } from './setup-answers.js';
import type { SetupSession } from './setup-session.js';
import { telegramSetupMessages, type TelegramSetupMessageKey } from './telegram-setup-messages.js';

/** The variables that answer the Telegram questions (the same ones `loadConfig` applies). */
const ENV = { token: 'CC_LINKER_TELEGRAM_BOT_TOKEN', owner: 'CC_LINKER_TELEGRAM_OWNER_USER_ID' } as const;

/** The `[telegram]` answers and how the token check went. */
export interface TelegramAnswers {
  /** How the bot token was answered (`env`: it stays in CC_LINKER_TELEGRAM_BOT_TOKEN, the file gets none). */
  token: SecretAnswer;
  owner: string;
  autoBind: boolean;
  apiRoot: string;
  /** `unchecked`: Telegram could not be reached, the token is saved anyway; `pending`: not run yet. */
  check: 'ok' | 'skipped' | 'unchecked' | 'pending';
  /** The bot's username (without @) when `getMe` answered. */
  bot?: string;
  /** Long polling or a webhook (`askTelegramReceive`). */
  receive: TelegramReceive;
  /** The webhook Telegram has registered for the bot now ('' = none), when the token check could ask. */
  registered?: string;
}

const tg = (s: SetupSession) => telegramSetupMessages(s.lang);
const flag = (flags: SetupFlags, key: string): string | undefined => {
  const v = flags.chatFlags?.[key];
  return typeof v === 'string' ? v : undefined;
};
const invalid = (s: SetupSession, name: string, problem: TelegramSetupMessageKey) =>
  s.error('SETUP_INVALID', 'invalidAnswer', { flag: name, problem: tg(s)(problem) }, SETUP_USAGE_EXIT);
const validToken = (v: string) => v !== '' && schemaAccepts('telegram', 'bot_token', v);

/**
 * Asks for (or takes from `--telegram-*` flags, the environment or the existing file) the bot
 * token, then the owner's numeric user id or auto-bind, then how messages arrive (long polling or a
 * webhook, `askTelegramReceive`). The token is read like the Feishu secret (hidden, Enter keeps the
 * file's, never shown) and checked with one `getMe` (plus `getWebhookInfo`, to say which webhook
 * Telegram has now): in the full wizard at once — refused → said and asked again; otherwise last
 * (`checkTelegramAnswers`) — refused → a typed error, nothing written. Unreachable is a warning and
 * the token is kept, so setup works offline.
 */
export async function askTelegram(
  s: SetupSession,
  flags: SetupFlags,
  current: Config['telegram'],
): Promise<TelegramAnswers> {
  const t = tg(s);
  const rootFlag = flag(flags, 'telegramApiRoot');
  const apiRoot = rootFlag === undefined ? current.api_root : rootFlag.trim().replace(/\/+$/, '');
  if (!schemaAccepts('telegram', 'api_root', apiRoot)) throw invalid(s, '--telegram-api-root', 'invalidApiRoot');
  if (s.full) s.note(t('intro'));
  const envToken = s.env[ENV.token]?.trim() || undefined;

  let check: TelegramAnswers['check'] = 'pending';
  let bot: string | undefined;
  let registered: string | undefined;
  let token: SecretAnswer;
  for (let attempt = 0; ; attempt += 1) {
    token = await resolveToken(s, flags, current.bot_token, envToken, attempt === 0);
    registerSecret(token.value);
    if (!s.full) break;
    const r = await verifyToken(s, flags, token.value, apiRoot);
    if (r.result === 'retry') continue;
    check = r.result;
    bot = r.bot;
    registered = r.registered;
    break;
  }

  if (s.full) s.note(t('ownerIntro'));
  const owner = await s.question<string>({
    flag: '--telegram-owner-user-id',
    given: flag(flags, 'telegramOwnerUserId'),
    env: ENV.owner,
    current: current.owner_user_id,
    show: (v) => v,
    ask: { text: t('askOwner') },
    required: false,
    cleared: '',
    parse: async (text) =>
      text === '' || schemaAccepts('telegram', 'owner_user_id', text)
        ? { value: text }
        : { problem: t('invalidOwner') },
  });
  const autoBindFlag = flags.chatFlags?.telegramAutoBindOwner;
  const given = typeof autoBindFlag === 'boolean' ? autoBindFlag : undefined;
  let autoBind = given ?? current.allow_auto_bind_owner;
  if (owner === '' && s.full && given === undefined) autoBind = await s.confirm({ text: t('askAutoBind') }, autoBind);
  if (owner === '' && autoBind) s.note(t('autoBindWarning'));
  const receive = await askTelegramReceive(s, flags, current);
  if (s.full) sayRegisteredWebhook(s, registered, receive.url);
  return { token, owner, autoBind, apiRoot, check, receive, ...(bot ? { bot } : {}) };
}

/** Runs the token check that `askTelegram` left `pending` (outside the wizard); throws when Telegram refuses. */
export async function checkTelegramAnswers(
  s: SetupSession,
  flags: SetupFlags,
  a: TelegramAnswers,
): Promise<TelegramAnswers> {
  if (a.check !== 'pending') return a;
  const r = await verifyToken(s, flags, a.token.value, a.apiRoot);
  if (r.result === 'retry') throw new Error('a retry needs the wizard');
  sayRegisteredWebhook(s, r.registered, a.receive.url);
  return { ...a, check: r.result, ...(r.bot ? { bot: r.bot } : {}) };
}

function resolveToken(
  s: SetupSession,
  flags: SetupFlags,
  fileToken: string,
  envToken: string | undefined,
  first: boolean,
): Promise<SecretAnswer> {
  const t = tg(s);
  return askSecret(s, {
    flag: '--telegram-bot-token',
    given: flag(flags, 'telegramBotToken'),
    env: ENV.token,
    envValue: envToken,
    fileValue: fileToken,
    first,
    valid: validToken,
    texts: {
      ask: t('askToken'),
      keep: t('askTokenKeep'),
      required: t('tokenRequired'),
      invalid: t('invalidToken'),
      useEnv: t('askUseEnvToken'),
    },
    refuse: (where, problem) => invalid(s, where, problem === 'required' ? 'tokenRequired' : 'invalidToken'),
  });
}

async function verifyToken(
  s: SetupSession,
  flags: SetupFlags,
  token: string,
  apiRoot: string,
): Promise<{ result: 'ok' | 'skipped' | 'unchecked' | 'retry'; bot?: string; registered?: string }> {
  const t = tg(s);
  if (!flags.check) {
    s.note(t('checkSkipped'));
    return { result: 'skipped' };
  }
  const host = domainHost(apiRoot);
  s.note(t('checking', { host }));
  // grammY is loaded only when a token is checked.
  const { checkBotToken } = await import('../../channels/telegram/check-token.js');
  const r = await checkBotToken(token, apiRoot);
  if (r.ok) {
    s.note(t('checkOk', { bot: r.username }));
    // Which webhook Telegram has now: said against the receive choice; no answer is no line.
    const { checkWebhook } = await import('../../channels/telegram/check-webhook.js');
    const w = await checkWebhook(token, apiRoot);
    return { result: 'ok', bot: r.username, ...(w.ok ? { registered: w.url } : {}) };
  }
  if (!r.refused) {
    s.note(t('checkUnreachable', { host, detail: r.detail }));
    return { result: 'unchecked' };
  }
  if (!(s.full && s.prompter)) throw new SetupError('SETUP_CREDENTIALS', t('tokenRefused', { detail: r.detail }));
  s.note(t('checkRefused', { detail: r.detail }));
  if (await s.confirm({ text: t('askRetryToken') }, true)) return { result: 'retry' };
  throw s.error('SETUP_CREDENTIALS', 'notWritten');
}

/** The `--telegram-*` options. */
const OPTIONS: ChatAppOption[] = [
  {
    key: 'telegramBotToken',
    answer: true,
    flags: '--telegram-bot-token <token>',
    description: `Telegram bot token from @BotFather, written to the file; prefer env ${ENV.token}, which is used without being written`,
  },
  {
    key: 'telegramOwnerUserId',
    answer: true,
    flags: '--telegram-owner-user-id <id>',
    description: `your numeric Telegram user id (send /whoami to the bot); "" clears it (env ${ENV.owner})`,
  },
  {
    key: 'telegramAutoBindOwner',
    answer: true,
    flags: '--telegram-auto-bind-owner',
    description: 'with no Telegram owner, the first person to message the bot privately becomes the owner',
  },
  {
    key: 'telegramAutoBindOwner',
    answer: true,
    flags: '--no-telegram-auto-bind-owner',
    description: 'turn Telegram first-message owner binding off',
  },
  {
    key: 'telegramApiRoot',
    answer: false,
    flags: '--telegram-api-root <url>',
    description: 'Bot API address, only for a self-hosted Bot API server (default https://api.telegram.org)',
  },
  ...RECEIVE_OPTIONS,
];

/** Telegram in `cc-linker setup`: `[telegram]` turned on with its token, owner or auto-bind. */
export const telegramSetup = chatApp<TelegramAnswers>({
  id: 'telegram',
  aliases: ['tg'],
  label: { zh: 'Telegram', en: 'Telegram' },
  options: OPTIONS,
  configured: (config) => config.telegram.enabled,
  flagged: (flags) => OPTIONS.some((o) => o.answer && flags.chatFlags?.[o.key] !== undefined),
  env: [ENV.token, ENV.owner],
  ask: (s, flags, config) => askTelegram(s, flags, config.telegram),
  check: (s, flags, a) => checkTelegramAnswers(s, flags, a),
  apply: (section, a) => {
    const telegram = section('telegram');
    telegram.enabled = true;
    if (a.token.kind === 'write') telegram.bot_token = a.token.value;
    if (a.token.kind === 'env') telegram.bot_token = '';
    telegram.owner_user_id = a.owner;
    telegram.allow_auto_bind_owner = a.autoBind;
    telegram.api_root = a.apiRoot;
    telegram.webhook_url = a.receive.url;
    telegram.webhook_listen = a.receive.listen;
  },
  summary: (s, config, a) => {
    const t = tg(s);
    const token =
      a.token.kind === 'env' ? t('tokenFromEnv') : config.telegram.bot_token ? s.t('secretHidden') : s.t('notSet');
    return [
      [t('sumToken'), token],
      [t('sumBot'), a.bot ? `@${a.bot}` : t('notChecked')],
      [t('sumOwner'), config.telegram.owner_user_id || s.t('notSet')],
      [t('sumAutoBind'), config.telegram.allow_auto_bind_owner ? s.t('yes') : s.t('no')],
      receiveSummary(s, config),
    ];
  },
  envOverrides: (config) => [
    { env: ENV.token, key: 'telegram.bot_token', value: config.telegram.bot_token, keptInEnv: true },
    { env: ENV.owner, key: 'telegram.owner_user_id', value: config.telegram.owner_user_id },
    { env: RECEIVE_ENV.url, key: 'telegram.webhook_url', value: config.telegram.webhook_url },
    { env: RECEIVE_ENV.listen, key: 'telegram.webhook_listen', value: config.telegram.webhook_listen },
  ],
  nextSteps: (s, config, a) => {
    const t = tg(s);
    const bot = a.bot ? `@${a.bot}` : t('yourBot');
    const next =
      config.telegram.owner_user_id !== ''
        ? 'nextStart'
        : config.telegram.allow_auto_bind_owner
          ? 'nextAutoBind'
          : 'nextWhoami';
    return [t(next, { bot }), ...receiveNextSteps(s, config)];
  },
  checked: (a) => a.check,
});
