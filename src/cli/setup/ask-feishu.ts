import { checkFeishuCredentials, type CredentialCheckInput } from '../../channels/feishu/check-credentials.js';
import type { Config } from '../../core/config-schema.js';
import { registerSecret } from '../../core/redact.js';
import { chatApp } from './chat-app.js';
import { SETUP_USAGE_EXIT } from './setup-error.js';
import { domainHost, isAppId, isOpenId, parseDomainAnswer, SETUP_ENV, type SetupFlags } from './setup-answers.js';
import type { SetupSession } from './setup-session.js';

/**
 * How the app secret was answered: typed or given as a flag (`write` it to the file), kept from
 * the existing file (`keep`), or left in `CC_LINKER_FEISHU_APP_SECRET` (`env`: the file gets
 * none). `value` is what the credential check used.
 */
export interface SecretAnswer {
  kind: 'write' | 'keep' | 'env';
  value: string;
}

/** The `[feishu_bot]` answers and how the credentials check went. */
export interface FeishuAnswers {
  domain: string;
  appId: string;
  secret: SecretAnswer;
  owner: string;
  autoBind: boolean;
  /** `unchecked`: saved on request although Feishu could not be reached; `pending`: not run yet. */
  check: 'ok' | 'skipped' | 'unchecked' | 'pending';
}

/**
 * Asks for (or takes from flags / environment / the existing file) the Feishu answers: domain,
 * app id, app secret, owner. In the full wizard the credentials are checked with the real token
 * endpoint right after the secret — a rejected pair can be re-entered, an unreachable host saved
 * unchecked on request. Otherwise the check is left `pending` for `checkFeishuAnswers`, where a
 * failure stops setup with one line and nothing written.
 */
export async function askFeishu(
  s: SetupSession,
  flags: SetupFlags,
  current: Config['feishu_bot'],
): Promise<FeishuAnswers> {
  if (s.full) s.note(s.t('feishuIntro'));
  const domain = await s.question<string>({
    flag: '--domain',
    given: flags.domain,
    env: SETUP_ENV.domain,
    current: current.domain,
    show: (v) => v,
    ask: 'askDomain',
    required: true,
    parse: async (text) => {
      const value = parseDomainAnswer(text);
      return value ? { value } : { problem: s.t('invalidDomain') };
    },
  });
  const envSecret = s.env[SETUP_ENV.appSecret]?.trim() || undefined;

  let appId = current.app_id;
  for (let attempt = 0; ; attempt += 1) {
    const first = attempt === 0;
    appId = await s.question<string>({
      flag: '--app-id',
      ...(first ? { given: flags.appId, env: SETUP_ENV.appId } : {}),
      current: appId,
      show: (v) => v,
      ask: 'askAppId',
      required: true,
      parse: async (text) => (isAppId(text) ? { value: text } : { problem: s.t('invalidAppId') }),
    });
    const secret = await resolveSecret(s, flags, current.app_secret, envSecret, first);
    registerSecret(secret.value);
    // In the wizard the check comes at once, so a wrong pair can be typed again; otherwise every
    // answer is validated first and the check runs last (checkFeishuAnswers), just before writing.
    let check: FeishuAnswers['check'] = 'pending';
    if (s.full) {
      const r = await verifyCredentials(s, flags, { appId, appSecret: secret.value, domain });
      if (r === 'retry') continue;
      check = r;
    }

    if (s.full) s.note(s.t('ownerIntro'));
    const owner = await s.question<string>({
      flag: '--owner',
      given: flags.owner,
      env: SETUP_ENV.owner,
      current: current.owner_open_id,
      show: (v) => v,
      ask: 'askOwner',
      required: false,
      cleared: '',
      parse: async (text) => (text === '' || isOpenId(text) ? { value: text } : { problem: s.t('invalidOwner') }),
    });
    let autoBind = flags.autoBindOwner ?? current.allow_auto_bind_owner;
    if (owner === '' && (autoBind || (s.full && flags.autoBindOwner === undefined))) s.note(s.t('autoBindWarning'));
    if (owner === '' && s.full && flags.autoBindOwner === undefined)
      autoBind = await s.confirm('askAutoBind', autoBind);
    return { domain, appId, secret, owner, autoBind, check };
  }
}

/** Runs the credential check that `askFeishu` left `pending` (outside the wizard); throws when it fails. */
export async function checkFeishuAnswers(s: SetupSession, flags: SetupFlags, a: FeishuAnswers): Promise<FeishuAnswers> {
  if (a.check !== 'pending') return a;
  const r = await verifyCredentials(s, flags, { appId: a.appId, appSecret: a.secret.value, domain: a.domain });
  if (r === 'retry') throw new Error('a retry needs the wizard');
  return { ...a, check: r };
}

async function resolveSecret(
  s: SetupSession,
  flags: SetupFlags,
  fileSecret: string,
  envSecret: string | undefined,
  first: boolean,
): Promise<SecretAnswer> {
  if (first && flags.appSecret !== undefined) {
    const value = flags.appSecret.trim();
    if (value === '')
      throw s.error(
        'SETUP_INVALID',
        'invalidAnswer',
        { flag: '--app-secret', problem: s.t('secretRequired') },
        SETUP_USAGE_EXIT,
      );
    return { kind: 'write', value };
  }
  if (s.full && s.prompter) {
    if (first && envSecret !== undefined && (await s.confirm('askUseEnvSecret', true)))
      return { kind: 'env', value: envSecret };
    const typed = await s.secret(first && fileSecret !== '');
    return typed === '' ? { kind: 'keep', value: fileSecret } : { kind: 'write', value: typed };
  }
  // Not the full wizard: at runtime the environment wins over the file, so check what will be used.
  if (fileSecret !== '') return { kind: 'keep', value: envSecret ?? fileSecret };
  if (envSecret !== undefined) return { kind: 'env', value: envSecret };
  if (s.prompter) return { kind: 'write', value: await s.secret(false) };
  throw s.error(
    'SETUP_MISSING',
    'missingAnswerEnv',
    { flag: '--app-secret', env: SETUP_ENV.appSecret },
    SETUP_USAGE_EXIT,
  );
}

async function verifyCredentials(
  s: SetupSession,
  flags: SetupFlags,
  input: CredentialCheckInput,
): Promise<'ok' | 'skipped' | 'unchecked' | 'retry'> {
  if (!flags.check) {
    s.note(s.t('checkSkipped'));
    return 'skipped';
  }
  const host = domainHost(input.domain);
  s.note(s.t('checking', { host }));
  const r = await checkFeishuCredentials(input);
  if (r.ok) {
    s.note(s.t('checkOk'));
    return 'ok';
  }
  const conversation = s.full && s.prompter !== undefined;
  if (r.reason === 'unreachable') {
    if (!conversation) throw s.error('SETUP_CREDENTIALS', 'credentialsUnreachable', { host, detail: r.detail });
    s.note(s.t('checkUnreachable', { host, detail: r.detail }));
    if (await s.confirm('askSaveUnchecked', false)) return 'unchecked';
    throw s.error('SETUP_CREDENTIALS', 'notWritten');
  }
  if (!conversation) throw s.error('SETUP_CREDENTIALS', 'credentialsRejected', { detail: r.detail });
  s.note(s.t('checkRejected', { detail: r.detail }));
  if (await s.confirm('askRetryCredentials', true)) return 'retry';
  throw s.error('SETUP_CREDENTIALS', 'notWritten');
}

/**
 * Feishu / Lark in `cc-linker setup`: `[feishu_bot]`'s credentials and owner. Its flags are the
 * original unprefixed ones (`--app-id`, `--owner` …), declared with the command's own options.
 */
export const feishuSetup = chatApp<FeishuAnswers>({
  id: 'feishu',
  aliases: ['lark', '飞书'],
  label: { zh: '飞书 / Lark', en: 'Feishu / Lark' },
  options: [],
  configured: (config) => config.feishu_bot.app_id !== '',
  flagged: (flags) =>
    [flags.appId, flags.appSecret, flags.domain, flags.owner, flags.autoBindOwner].some((v) => v !== undefined),
  env: [SETUP_ENV.appId, SETUP_ENV.appSecret, SETUP_ENV.domain, SETUP_ENV.owner],
  ask: (s, flags, config) => askFeishu(s, flags, config.feishu_bot),
  check: (s, flags, a) => checkFeishuAnswers(s, flags, a),
  apply: (section, a) => {
    const bot = section('feishu_bot');
    bot.domain = a.domain;
    bot.app_id = a.appId;
    if (a.secret.kind === 'write') bot.app_secret = a.secret.value;
    if (a.secret.kind === 'env') bot.app_secret = '';
    bot.owner_open_id = a.owner;
    bot.allow_auto_bind_owner = a.autoBind;
  },
  summary: (s, config, a) => {
    const t = s.t;
    const bot = config.feishu_bot;
    const secret = a.secret.kind === 'env' ? t('secretFromEnv') : bot.app_secret ? t('secretHidden') : t('notSet');
    return [
      [
        t('sumDomain'),
        bot.domain === 'feishu' || bot.domain === 'lark' ? `${bot.domain} (${domainHost(bot.domain)})` : bot.domain,
      ],
      [t('sumAppId'), bot.app_id],
      [t('sumSecret'), secret],
      [t('sumOwner'), bot.owner_open_id || t('notSet')],
      [t('sumAutoBind'), bot.allow_auto_bind_owner ? t('yes') : t('no')],
    ];
  },
  envOverrides: (config) => [
    { env: SETUP_ENV.domain, key: 'feishu_bot.domain', value: config.feishu_bot.domain },
    { env: SETUP_ENV.appId, key: 'feishu_bot.app_id', value: config.feishu_bot.app_id },
    { env: SETUP_ENV.appSecret, key: 'feishu_bot.app_secret', value: config.feishu_bot.app_secret, keptInEnv: true },
    { env: SETUP_ENV.owner, key: 'feishu_bot.owner_open_id', value: config.feishu_bot.owner_open_id },
  ],
  nextSteps: (s, config) => {
    const bot = config.feishu_bot;
    const next = bot.owner_open_id !== '' ? 'nextStart' : bot.allow_auto_bind_owner ? 'nextAutoBind' : 'nextWhoami';
    return [s.t(next), s.t('docsHint')];
  },
  checked: (a) => a.check,
});
