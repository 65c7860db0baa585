import { askSecret } from './ask-secret.js';
import type { Config } from '../../core/config-schema.js';
import { packageFile } from '../../core/package-root.js';
import { registerSecret } from '../../core/redact.js';
import type { SecretAnswer } from './ask-feishu.js';
import { chatApp, type ChatAppOption } from './chat-app.js';
import { SETUP_USAGE_EXIT, SetupError } from './setup-error.js';
import { domainHost, schemaAccepts, type SetupFlags } from './setup-answers.js';
import type { SetupSession } from './setup-session.js';
import { slackSetupMessages, type SlackSetupMessageKey } from './slack-setup-messages.js';

/** The variables that answer the Slack questions (the same ones `loadConfig` applies). */
const ENV = {
  bot: 'CC_LINKER_SLACK_BOT_TOKEN',
  app: 'CC_LINKER_SLACK_APP_TOKEN',
  owner: 'CC_LINKER_SLACK_OWNER_USER_ID',
} as const;

/** The app manifest shipped with the package: pasted into Slack's "Create app → From a manifest". */
export const SLACK_MANIFEST = 'docs/slack-app-manifest.yaml';

/** The `[slack]` answers and how the token check went. */
export interface SlackAnswers {
  /** How each token was answered (`env`: it stays in its variable, the file gets none). */
  bot: SecretAnswer;
  app: SecretAnswer;
  owner: string;
  autoBind: boolean;
  apiUrl: string;
  /** `unchecked`: Slack could not be reached, the tokens are saved anyway; `pending`: not run yet. */
  check: 'ok' | 'skipped' | 'unchecked' | 'pending';
  /** The app's bot user name when `auth.test` answered. */
  name?: string;
}

type Which = 'bot' | 'app';

/** One of the two tokens: its flag, variable, `[slack]` key and texts. */
const TOKENS = {
  bot: {
    key: 'slackBotToken',
    flag: '--slack-bot-token',
    env: ENV.bot,
    schemaKey: 'bot_token',
    texts: {
      ask: 'askBot',
      keep: 'askBotKeep',
      required: 'botRequired',
      invalid: 'invalidBot',
      useEnv: 'askUseEnvBot',
    },
  },
  app: {
    key: 'slackAppToken',
    flag: '--slack-app-token',
    env: ENV.app,
    schemaKey: 'app_token',
    texts: {
      ask: 'askApp',
      keep: 'askAppKeep',
      required: 'appRequired',
      invalid: 'invalidApp',
      useEnv: 'askUseEnvApp',
    },
  },
} as const satisfies Record<Which, unknown>;

const sl = (s: SetupSession) => slackSetupMessages(s.lang);
const flag = (flags: SetupFlags, key: string): string | undefined => {
  const v = flags.chatFlags?.[key];
  return typeof v === 'string' ? v : undefined;
};
const invalid = (s: SetupSession, name: string, problem: SlackSetupMessageKey) =>
  s.error('SETUP_INVALID', 'invalidAnswer', { flag: name, problem: sl(s)(problem) }, SETUP_USAGE_EXIT);
/** A token in the shape the config schema accepts (`xoxb-…` / `xapp-…`), not empty. */
const valid = (which: Which, v: string) => v !== '' && schemaAccepts('slack', TOKENS[which].schemaKey, v);

/**
 * Asks for (or takes from `--slack-*` flags, the environment or the existing file) the bot token
 * and the app-level token, then the owner's member id or auto-bind. Each token is read like the
 * Feishu secret (hidden, Enter keeps the file's, never shown); both are checked with one look at
 * Slack (`checkSlackTokens`): in the full wizard at once — a refused one is said and asked again;
 * otherwise last (`checkSlackAnswers`) — refused → a typed error, nothing written. Unreachable is
 * a warning and the tokens are kept, so setup works offline.
 */
export async function askSlack(s: SetupSession, flags: SetupFlags, current: Config['slack']): Promise<SlackAnswers> {
  const t = sl(s);
  const urlFlag = flag(flags, 'slackApiUrl')?.trim();
  const apiUrl = urlFlag === undefined ? current.api_url : urlFlag.replace(/\/*$/, '/');
  if (!schemaAccepts('slack', 'api_url', apiUrl)) throw invalid(s, '--slack-api-url', 'invalidApiUrl');
  // Where the app manifest is: before the tokens in the wizard (the app is made from it), else once all answers are good.
  const manifest = () => s.note(t('manifest', { path: packageFile(SLACK_MANIFEST) }));
  if (s.full) {
    s.note(t('intro'));
    manifest();
  }

  const tokens = {} as Record<Which, SecretAnswer>;
  let ask: Which[] = ['bot', 'app'];
  let check: SlackAnswers['check'] = 'pending';
  let name: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    for (const which of ask) {
      tokens[which] = await resolveToken(s, flags, which, current[TOKENS[which].schemaKey], attempt === 0);
      registerSecret(tokens[which].value);
    }
    if (!s.full) break;
    const r = await verifyTokens(s, flags, tokens, apiUrl);
    if (r.result === 'retry') {
      ask = r.refused;
      continue;
    }
    check = r.result;
    name = r.name;
    break;
  }

  if (s.full) s.note(t('ownerIntro'));
  const owner = await s.question<string>({
    flag: '--slack-owner-user-id',
    given: flag(flags, 'slackOwnerUserId'),
    env: ENV.owner,
    current: current.owner_user_id,
    show: (v) => v,
    ask: { text: t('askOwner') },
    required: false,
    cleared: '',
    parse: async (text) =>
      text === '' || schemaAccepts('slack', 'owner_user_id', text) ? { value: text } : { problem: t('invalidOwner') },
  });
  const autoBindFlag = flags.chatFlags?.slackAutoBindOwner;
  const given = typeof autoBindFlag === 'boolean' ? autoBindFlag : undefined;
  let autoBind = given ?? current.allow_auto_bind_owner;
  if (owner === '' && s.full && given === undefined) autoBind = await s.confirm({ text: t('askAutoBind') }, autoBind);
  if (owner === '' && autoBind) s.note(t('autoBindWarning'));
  if (!s.full) manifest();
  return { bot: tokens.bot, app: tokens.app, owner, autoBind, apiUrl, check, ...(name ? { name } : {}) };
}

/** Runs the token check that `askSlack` left `pending` (outside the wizard); throws when Slack refuses. */
export async function checkSlackAnswers(s: SetupSession, flags: SetupFlags, a: SlackAnswers): Promise<SlackAnswers> {
  if (a.check !== 'pending') return a;
  const r = await verifyTokens(s, flags, { bot: a.bot, app: a.app }, a.apiUrl);
  if (r.result === 'retry') throw new Error('a retry needs the wizard');
  return { ...a, check: r.result, ...(r.name ? { name: r.name } : {}) };
}

function resolveToken(
  s: SetupSession,
  flags: SetupFlags,
  which: Which,
  fileToken: string,
  first: boolean,
): Promise<SecretAnswer> {
  const t = sl(s);
  const spec = TOKENS[which];
  return askSecret(s, {
    flag: spec.flag,
    given: flag(flags, spec.key),
    env: spec.env,
    envValue: s.env[spec.env]?.trim() || undefined,
    fileValue: fileToken,
    first,
    valid: (v) => valid(which, v),
    texts: {
      ask: t(spec.texts.ask),
      keep: t(spec.texts.keep),
      required: t(spec.texts.required),
      invalid: t(spec.texts.invalid),
      useEnv: t(spec.texts.useEnv),
    },
    refuse: (where, problem) => invalid(s, where, problem === 'required' ? spec.texts.required : spec.texts.invalid),
  });
}

type Verified = { result: 'ok' | 'skipped' | 'unchecked'; name?: string } | { result: 'retry'; refused: Which[] };

async function verifyTokens(
  s: SetupSession,
  flags: SetupFlags,
  tokens: Record<Which, SecretAnswer>,
  apiUrl: string,
): Promise<Verified> {
  const t = sl(s);
  if (!flags.check) {
    s.note(t('checkSkipped'));
    return { result: 'skipped' };
  }
  const host = domainHost(apiUrl);
  s.note(t('checking', { host }));
  // The Slack SDK is loaded only when the tokens are checked.
  const { checkSlackTokens } = await import('../../channels/slack/check-tokens.js');
  const r = await checkSlackTokens({ botToken: tokens.bot.value, appToken: tokens.app.value, apiUrl });
  const refused = (['bot', 'app'] as const).filter((w) => {
    const c = r[w];
    return !c.ok && c.refused;
  });
  if (refused.length === 0) {
    const down = [r.bot, r.app].find((c) => !c.ok);
    if (down && !down.ok) {
      s.note(t('checkUnreachable', { host, detail: down.detail }));
      return { result: 'unchecked' };
    }
    const name = r.bot.ok ? r.bot.name : undefined;
    const team = r.bot.ok ? r.bot.team : undefined;
    s.note(t('checkOk', { name: name ?? '', team: team ?? '' }));
    // Bot scopes the app lacks (an app made by hand): said now, not only when a call fails later.
    const { missingBotScopes, missingScopesText } = await import('../../channels/slack/bot-scopes.js');
    const missing = missingBotScopes(r.bot.ok ? r.bot.scopes : undefined);
    if (missing?.length) s.note(t('scopesMissing', { detail: missingScopesText(missing, s.lang) }));
    return { result: 'ok', ...(name ? { name } : {}) };
  }
  const which = refused
    .map((w) => {
      const c = r[w];
      return t(w === 'bot' ? 'refusedBot' : 'refusedApp', { detail: c.ok ? '' : c.detail });
    })
    .join(t('and'));
  if (!(s.full && s.prompter)) throw new SetupError('SETUP_CREDENTIALS', t('tokenRefused', { which }));
  s.note(t('checkRefused', { which }));
  if (await s.confirm({ text: t('askRetry') }, true)) return { result: 'retry', refused };
  throw s.error('SETUP_CREDENTIALS', 'notWritten');
}

/** The `--slack-*` options. */
const OPTIONS: ChatAppOption[] = [
  {
    key: 'slackBotToken',
    answer: true,
    flags: '--slack-bot-token <token>',
    description: `Slack Bot User OAuth Token (xoxb-…), written to the file; prefer env ${ENV.bot}, which is used without being written`,
  },
  {
    key: 'slackAppToken',
    answer: true,
    flags: '--slack-app-token <token>',
    description: `Slack app-level token (xapp-…, scope connections:write) for Socket Mode, written to the file; prefer env ${ENV.app}`,
  },
  {
    key: 'slackOwnerUserId',
    answer: true,
    flags: '--slack-owner-user-id <id>',
    description: `your Slack member id (U…; profile → ⋮ → Copy member ID); "" clears it (env ${ENV.owner})`,
  },
  {
    key: 'slackAutoBindOwner',
    answer: true,
    flags: '--slack-auto-bind-owner',
    description: 'with no Slack owner, the first person to message the app directly becomes the owner',
  },
  {
    key: 'slackAutoBindOwner',
    answer: true,
    flags: '--no-slack-auto-bind-owner',
    description: 'turn Slack first-message owner binding off',
  },
  {
    key: 'slackApiUrl',
    answer: false,
    flags: '--slack-api-url <url>',
    description: 'Slack Web API address, only for a proxy or tests (default https://slack.com/api/)',
  },
];

/** Slack in `cc-linker setup`: `[slack]` turned on with both tokens, the owner or auto-bind. */
export const slackSetup = chatApp<SlackAnswers>({
  id: 'slack',
  aliases: [],
  label: { zh: 'Slack', en: 'Slack' },
  options: OPTIONS,
  configured: (config) => config.slack.enabled,
  flagged: (flags) => OPTIONS.some((o) => o.answer && flags.chatFlags?.[o.key] !== undefined),
  env: [ENV.bot, ENV.app, ENV.owner],
  ask: (s, flags, config) => askSlack(s, flags, config.slack),
  check: (s, flags, a) => checkSlackAnswers(s, flags, a),
  apply: (section, a) => {
    const slack = section('slack');
    slack.enabled = true;
    for (const which of ['bot', 'app'] as const) {
      const answer = a[which];
      if (answer.kind === 'write') slack[TOKENS[which].schemaKey] = answer.value;
      if (answer.kind === 'env') slack[TOKENS[which].schemaKey] = '';
    }
    slack.owner_user_id = a.owner;
    slack.allow_auto_bind_owner = a.autoBind;
    slack.api_url = a.apiUrl;
  },
  summary: (s, config, a) => {
    const t = sl(s);
    const shown = (which: Which) =>
      a[which].kind === 'env'
        ? t(which === 'bot' ? 'fromEnvBot' : 'fromEnvApp')
        : config.slack[TOKENS[which].schemaKey]
          ? s.t('secretHidden')
          : s.t('notSet');
    return [
      [t('sumBot'), shown('bot')],
      [t('sumApp'), shown('app')],
      [t('sumName'), a.name ? `@${a.name}` : t('notChecked')],
      [t('sumOwner'), config.slack.owner_user_id || s.t('notSet')],
      [t('sumAutoBind'), config.slack.allow_auto_bind_owner ? s.t('yes') : s.t('no')],
    ];
  },
  envOverrides: (config) => [
    { env: ENV.bot, key: 'slack.bot_token', value: config.slack.bot_token, keptInEnv: true },
    { env: ENV.app, key: 'slack.app_token', value: config.slack.app_token, keptInEnv: true },
    { env: ENV.owner, key: 'slack.owner_user_id', value: config.slack.owner_user_id },
  ],
  nextSteps: (s, config, a) => {
    const t = sl(s);
    const app = a.name ? `@${a.name}` : t('yourApp');
    const next =
      config.slack.owner_user_id !== ''
        ? 'nextStart'
        : config.slack.allow_auto_bind_owner
          ? 'nextAutoBind'
          : 'nextWhoami';
    return [t(next, { app })];
  },
  checked: (a) => a.check,
});
