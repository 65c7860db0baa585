import { askSecret } from './ask-secret.js';
import type { Config } from '../../core/config-schema.js';
import { registerSecret } from '../../core/redact.js';
import type { SecretAnswer } from './ask-feishu.js';
import { chatApp, type ChatAppOption } from './chat-app.js';
import { dingtalkSetupMessages, type DingTalkSetupMessageKey } from './dingtalk-setup-messages.js';
import { SETUP_USAGE_EXIT, SetupError } from './setup-error.js';
import { domainHost, schemaAccepts, type SetupFlags } from './setup-answers.js';
import type { SetupSession } from './setup-session.js';

/** The variables that answer the DingTalk questions (the same ones `loadConfig` applies). */
const ENV = {
  id: 'CC_LINKER_DINGTALK_CLIENT_ID',
  secret: 'CC_LINKER_DINGTALK_CLIENT_SECRET',
  owner: 'CC_LINKER_DINGTALK_OWNER_STAFF_ID',
} as const;

/** The `[dingtalk]` answers and how the credentials check went. */
export interface DingTalkAnswers {
  clientId: string;
  /** How the client secret was answered (`env`: it stays in CC_LINKER_DINGTALK_CLIENT_SECRET, the file gets none). */
  secret: SecretAnswer;
  owner: string;
  autoBind: boolean;
  apiBase: string;
  /** Empty: replies are markdown messages; set: they stream into one AI card of this template. */
  cardTemplateId: string;
  /** `unchecked`: DingTalk could not be reached, the credentials are saved anyway; `pending`: not run yet. */
  check: 'ok' | 'skipped' | 'unchecked' | 'pending';
}

const dt = (s: SetupSession) => dingtalkSetupMessages(s.lang);
const flag = (flags: SetupFlags, key: string): string | undefined => {
  const v = flags.chatFlags?.[key];
  return typeof v === 'string' ? v : undefined;
};
const invalid = (s: SetupSession, name: string, problem: DingTalkSetupMessageKey) =>
  s.error('SETUP_INVALID', 'invalidAnswer', { flag: name, problem: dt(s)(problem) }, SETUP_USAGE_EXIT);
/** A value the config schema accepts for `[dingtalk].key`, not empty. */
const valid = (key: string, v: string) => v !== '' && schemaAccepts('dingtalk', key, v);

/**
 * Asks for (or takes from `--dingtalk-*` flags, the environment or the existing file) the app's
 * Client ID (shown) and Client Secret (read like the Feishu secret: hidden, Enter keeps the
 * file's, never shown), then the owner's staffId or auto-bind, then an optional AI card template.
 * The pair is checked with one access-token request (`checkCredentials`, as `doctor` does): in the
 * full wizard at once — refused → said and both asked again; otherwise last
 * (`checkDingTalkAnswers`) — refused → a typed error, nothing written. Unreachable is a warning and
 * the credentials are kept, so setup works offline.
 */
export async function askDingTalk(
  s: SetupSession,
  flags: SetupFlags,
  current: Config['dingtalk'],
): Promise<DingTalkAnswers> {
  const t = dt(s);
  const baseFlag = flag(flags, 'dingtalkApiBase');
  const apiBase = baseFlag === undefined ? current.api_base : baseFlag.trim().replace(/\/+$/, '');
  if (!schemaAccepts('dingtalk', 'api_base', apiBase)) throw invalid(s, '--dingtalk-api-base', 'invalidApiBase');
  if (s.full) s.note(t('intro'));
  const envSecret = s.env[ENV.secret]?.trim() || undefined;

  let clientId = current.client_id;
  let secret: SecretAnswer;
  let check: DingTalkAnswers['check'] = 'pending';
  for (let attempt = 0; ; attempt += 1) {
    const first = attempt === 0;
    clientId = await s.question<string>({
      flag: '--dingtalk-client-id',
      ...(first ? { given: flag(flags, 'dingtalkClientId'), env: ENV.id } : {}),
      current: clientId,
      show: (v) => v,
      ask: { text: t('askClientId') },
      required: true,
      parse: async (text) => (valid('client_id', text) ? { value: text } : { problem: t('invalidClientId') }),
    });
    secret = await resolveSecret(s, flags, current.client_secret, envSecret, first);
    registerSecret(secret.value);
    if (!s.full) break;
    const r = await verify(s, flags, { clientId, clientSecret: secret.value, apiBase });
    if (r === 'retry') continue;
    check = r;
    break;
  }

  if (s.full) s.note(t('ownerIntro'));
  const owner = await s.question<string>({
    flag: '--dingtalk-owner-staff-id',
    given: flag(flags, 'dingtalkOwnerStaffId'),
    env: ENV.owner,
    current: current.owner_staff_id,
    show: (v) => v,
    ask: { text: t('askOwner') },
    required: false,
    cleared: '',
    parse: async (text) =>
      text === '' || valid('owner_staff_id', text) ? { value: text } : { problem: t('invalidOwner') },
  });
  const autoBindFlag = flags.chatFlags?.dingtalkAutoBindOwner;
  const given = typeof autoBindFlag === 'boolean' ? autoBindFlag : undefined;
  let autoBind = given ?? current.allow_auto_bind_owner;
  if (owner === '' && s.full && given === undefined) autoBind = await s.confirm({ text: t('askAutoBind') }, autoBind);
  if (owner === '' && autoBind) s.note(t('autoBindWarning'));

  if (s.full) s.note(t('cardIntro'));
  const cardTemplateId = await s.question<string>({
    flag: '--dingtalk-card-template-id',
    given: flag(flags, 'dingtalkCardTemplateId'),
    current: current.card_template_id,
    show: (v) => v,
    ask: { text: t('askCard') },
    required: false,
    cleared: '',
    parse: async (text) =>
      text === '' || valid('card_template_id', text) ? { value: text } : { problem: t('invalidCard') },
  });
  return { clientId, secret, owner, autoBind, apiBase, cardTemplateId, check };
}

/** Runs the credentials check that `askDingTalk` left `pending` (outside the wizard); throws when DingTalk refuses. */
export async function checkDingTalkAnswers(
  s: SetupSession,
  flags: SetupFlags,
  a: DingTalkAnswers,
): Promise<DingTalkAnswers> {
  if (a.check !== 'pending') return a;
  const r = await verify(s, flags, { clientId: a.clientId, clientSecret: a.secret.value, apiBase: a.apiBase });
  if (r === 'retry') throw new Error('a retry needs the wizard');
  return { ...a, check: r };
}

function resolveSecret(
  s: SetupSession,
  flags: SetupFlags,
  fileSecret: string,
  envSecret: string | undefined,
  first: boolean,
): Promise<SecretAnswer> {
  const t = dt(s);
  return askSecret(s, {
    flag: '--dingtalk-client-secret',
    given: flag(flags, 'dingtalkClientSecret'),
    env: ENV.secret,
    envValue: envSecret,
    fileValue: fileSecret,
    first,
    valid: (v) => valid('client_secret', v),
    texts: {
      ask: t('askSecret'),
      keep: t('askSecretKeep'),
      required: t('secretRequired'),
      invalid: t('invalidSecret'),
      useEnv: t('askUseEnvSecret'),
    },
    refuse: (where, problem) => invalid(s, where, problem === 'required' ? 'secretRequired' : 'invalidSecret'),
  });
}

async function verify(
  s: SetupSession,
  flags: SetupFlags,
  input: { clientId: string; clientSecret: string; apiBase: string },
): Promise<'ok' | 'skipped' | 'unchecked' | 'retry'> {
  const t = dt(s);
  if (!flags.check) {
    s.note(t('checkSkipped'));
    return 'skipped';
  }
  const host = domainHost(input.apiBase);
  s.note(t('checking', { host }));
  // The DingTalk channel's code is loaded only when the credentials are checked.
  const { checkCredentials } = await import('../../channels/dingtalk/check-credentials.js');
  const r = await checkCredentials(input);
  if (r.ok) {
    s.note(t('checkOk'));
    return 'ok';
  }
  if (!r.refused) {
    s.note(t('checkUnreachable', { host, detail: r.detail }));
    return 'unchecked';
  }
  if (!(s.full && s.prompter)) throw new SetupError('SETUP_CREDENTIALS', t('credentialsRefused', { detail: r.detail }));
  s.note(t('checkRefused', { detail: r.detail }));
  if (await s.confirm({ text: t('askRetry') }, true)) return 'retry';
  throw s.error('SETUP_CREDENTIALS', 'notWritten');
}

/** The `--dingtalk-*` options. */
const OPTIONS: ChatAppOption[] = [
  {
    key: 'dingtalkClientId',
    answer: true,
    flags: '--dingtalk-client-id <id>',
    description: `DingTalk app's Client ID (formerly AppKey, ding…) (env ${ENV.id})`,
  },
  {
    key: 'dingtalkClientSecret',
    answer: true,
    flags: '--dingtalk-client-secret <secret>',
    description: `DingTalk app's Client Secret (formerly AppSecret), written to the file; prefer env ${ENV.secret}, which is used without being written`,
  },
  {
    key: 'dingtalkOwnerStaffId',
    answer: true,
    flags: '--dingtalk-owner-staff-id <id>',
    description: `your DingTalk staffId (userid; send /whoami to the robot); "" clears it (env ${ENV.owner})`,
  },
  {
    key: 'dingtalkAutoBindOwner',
    answer: true,
    flags: '--dingtalk-auto-bind-owner',
    description: 'with no DingTalk owner, the first person to message the robot in a single chat becomes the owner',
  },
  {
    key: 'dingtalkAutoBindOwner',
    answer: true,
    flags: '--no-dingtalk-auto-bind-owner',
    description: 'turn DingTalk first-message owner binding off',
  },
  {
    key: 'dingtalkCardTemplateId',
    answer: true,
    flags: '--dingtalk-card-template-id <id>',
    description: 'optional AI card template id: replies stream into one card; "" = markdown messages (the default)',
  },
  {
    key: 'dingtalkApiBase',
    answer: false,
    flags: '--dingtalk-api-base <url>',
    description: 'DingTalk OpenAPI address, only for a proxy or tests (default https://api.dingtalk.com)',
  },
];

/** DingTalk in `cc-linker setup`: `[dingtalk]` turned on with its credentials, owner or auto-bind, and card template. */
export const dingtalkSetup = chatApp<DingTalkAnswers>({
  id: 'dingtalk',
  aliases: ['钉钉'],
  label: { zh: '钉钉', en: 'DingTalk' },
  options: OPTIONS,
  configured: (config) => config.dingtalk.enabled,
  flagged: (flags) => OPTIONS.some((o) => o.answer && flags.chatFlags?.[o.key] !== undefined),
  env: [ENV.id, ENV.secret, ENV.owner],
  ask: (s, flags, config) => askDingTalk(s, flags, config.dingtalk),
  check: (s, flags, a) => checkDingTalkAnswers(s, flags, a),
  apply: (section, a) => {
    const dingtalk = section('dingtalk');
    dingtalk.enabled = true;
    dingtalk.client_id = a.clientId;
    if (a.secret.kind === 'write') dingtalk.client_secret = a.secret.value;
    if (a.secret.kind === 'env') dingtalk.client_secret = '';
    dingtalk.owner_staff_id = a.owner;
    dingtalk.allow_auto_bind_owner = a.autoBind;
    dingtalk.api_base = a.apiBase;
    dingtalk.card_template_id = a.cardTemplateId;
  },
  summary: (s, config, a) => {
    const t = dt(s);
    const d = config.dingtalk;
    const secret = a.secret.kind === 'env' ? t('secretFromEnv') : d.client_secret ? s.t('secretHidden') : s.t('notSet');
    return [
      [t('sumClientId'), d.client_id],
      [t('sumSecret'), secret],
      [t('sumCheck'), a.check === 'ok' ? t('accepted') : t('notChecked')],
      [t('sumOwner'), d.owner_staff_id || s.t('notSet')],
      [t('sumAutoBind'), d.allow_auto_bind_owner ? s.t('yes') : s.t('no')],
      [t('sumReplies'), d.card_template_id ? t('repliesCard', { id: d.card_template_id }) : t('repliesMarkdown')],
    ];
  },
  envOverrides: (config) => [
    { env: ENV.id, key: 'dingtalk.client_id', value: config.dingtalk.client_id },
    { env: ENV.secret, key: 'dingtalk.client_secret', value: config.dingtalk.client_secret, keptInEnv: true },
    { env: ENV.owner, key: 'dingtalk.owner_staff_id', value: config.dingtalk.owner_staff_id },
  ],
  nextSteps: (s, config) => {
    const d = config.dingtalk;
    const next = d.owner_staff_id !== '' ? 'nextStart' : d.allow_auto_bind_owner ? 'nextAutoBind' : 'nextWhoami';
    return [dt(s)(next)];
  },
  checked: (a) => a.check,
});
