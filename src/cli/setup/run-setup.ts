import fs from 'node:fs/promises';
import { parse as parseToml } from 'smol-toml';
import type { Config } from '../../core/config-schema.js';
import { validateConfig } from '../../core/config-validate.js';
import type { Language } from '../../core/i18n.js';
import type { Paths } from '../../core/paths.js';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { ensurePrivateDir } from '../../store/private-dir.js';
import { tildify } from '../../core/tildify.js';
import type { Output } from '../context/output.js';
import { askDirectories, type DirectoryAnswers } from './ask-directories.js';
import { askFeishu, checkFeishuAnswers, type FeishuAnswers } from './ask-feishu.js';
import { renderConfigToml } from './render-config-toml.js';
import { SetupError } from './setup-error.js';
import { domainHost, hasAnswerFlags, parseLanguageAnswer, SETUP_ENV, type SetupFlags } from './setup-answers.js';
import { setupMessages } from './setup-messages.js';
import { SetupSession, type SetupIo } from './setup-session.js';

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** What a setup run needs from the command's context. */
export interface SetupContext {
  paths: Paths;
  env: NodeJS.ProcessEnv;
  /** The language before any answer (config / environment). */
  lang: Language;
  out: Output;
  /** Base of relative directory answers; default `process.cwd()`. */
  cwd?: string;
}

/** The result of a run that wrote the file. */
export interface SetupOutcome {
  file: string;
  /** `config.toml.bak` when an existing file was backed up first. */
  backup: string | null;
  /** `none` with `--skip-feishu`. */
  credentials: Exclude<FeishuAnswers['check'], 'pending'> | 'none';
}

interface Answers {
  lang: Language;
  feishu?: FeishuAnswers;
  dirs: DirectoryAnswers;
  skipFeishu: boolean;
}

async function readExisting(
  file: string,
  lang: Language,
): Promise<{ text: string | null; raw: Plain; config: Config }> {
  const fail = (reason: string, cause?: unknown) =>
    new SetupError('SETUP_EXISTING', setupMessages(lang)('existingUnreadable', { file, reason }), { cause });
  let text: string | null = null;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw fail((err as NodeJS.ErrnoException).code ?? 'error', err);
  }
  let raw: Plain = {};
  if (text !== null) {
    try {
      raw = parseToml(text) as Plain;
    } catch (err) {
      throw fail((err instanceof Error ? err.message.split('\n')[0] : '') ?? 'invalid TOML', err);
    }
  }
  const r = validateConfig(raw);
  if (!r.ok) throw fail(r.issues.map((i) => `${i.key}: ${i.expected}`).join('; '));
  return { text, raw, config: r.config };
}

/** The old file's data with the answers set; sections are copied, never mutated. */
function applyAnswers(raw: Plain, a: Answers): Plain {
  const next: Plain = { ...raw };
  const section = (name: string): Plain => {
    const copy: Plain = isPlain(raw[name]) ? { ...(raw[name] as Plain) } : {};
    next[name] = copy;
    return copy;
  };
  section('general').language = a.lang;
  const bot = section('feishu_bot');
  if (a.feishu) {
    bot.domain = a.feishu.domain;
    bot.app_id = a.feishu.appId;
    if (a.feishu.secret.kind === 'write') bot.app_secret = a.feishu.secret.value;
    if (a.feishu.secret.kind === 'env') bot.app_secret = '';
    bot.owner_open_id = a.feishu.owner;
    bot.allow_auto_bind_owner = a.feishu.autoBind;
  }
  bot.default_cwd = a.dirs.defaultCwd;
  section('security').allowed_roots = a.dirs.roots;
  if (a.skipFeishu) section('web').enabled = true;
  return next;
}

/** Warns when an environment variable will override what was just written (names only, never values). */
function warnEnvOverrides(s: SetupSession, config: Config): void {
  const written: Array<[string, string, string]> = [
    [SETUP_ENV.language, 'general.language', config.general.language],
    [SETUP_ENV.domain, 'feishu_bot.domain', config.feishu_bot.domain],
    [SETUP_ENV.appId, 'feishu_bot.app_id', config.feishu_bot.app_id],
    [SETUP_ENV.appSecret, 'feishu_bot.app_secret', config.feishu_bot.app_secret],
    [SETUP_ENV.owner, 'feishu_bot.owner_open_id', config.feishu_bot.owner_open_id],
    [SETUP_ENV.defaultCwd, 'feishu_bot.default_cwd', config.feishu_bot.default_cwd],
  ];
  for (const [env, key, value] of written) {
    const set = s.env[env]?.trim();
    // An empty app_secret with the variable set is the "keep using the environment" choice.
    if (set && set !== value && !(env === SETUP_ENV.appSecret && value === ''))
      s.note(s.t('envOverride', { env, key }));
  }
}

function summary(s: SetupSession, config: Config, a: Answers, file: string): string {
  const t = s.t;
  const bot = config.feishu_bot;
  const rows: Array<[string, string]> = [[t('sumLanguage'), config.general.language]];
  if (a.feishu) {
    const secret =
      a.feishu.secret.kind === 'env' ? t('secretFromEnv') : bot.app_secret ? t('secretHidden') : t('notSet');
    rows.push(
      [
        t('sumDomain'),
        bot.domain === 'feishu' || bot.domain === 'lark' ? `${bot.domain} (${domainHost(bot.domain)})` : bot.domain,
      ],
      [t('sumAppId'), bot.app_id],
      [t('sumSecret'), secret],
      [t('sumOwner'), bot.owner_open_id || t('notSet')],
      [t('sumAutoBind'), bot.allow_auto_bind_owner ? t('yes') : t('no')],
    );
  } else {
    rows.push([t('sumConsole'), t('consoleOn')]);
  }
  rows.push(
    [t('sumRoots'), config.security.allowed_roots.join(', ')],
    [t('sumDefaultCwd'), bot.default_cwd || t('notSet')],
  );
  return [t('summaryTitle', { file }), ...rows.map(([k, v]) => `  ${k}: ${v}`)].join('\n');
}

function nextStep(s: SetupSession, config: Config): string {
  const bot = config.feishu_bot;
  const hasFeishu = bot.app_id !== '' && (bot.app_secret !== '' || Boolean(s.env[SETUP_ENV.appSecret]?.trim()));
  if (!hasFeishu) return s.t('nextConsoleOnly');
  if (bot.owner_open_id !== '') return s.t('nextStart');
  return s.t(bot.allow_auto_bind_owner ? 'nextAutoBind' : 'nextWhoami');
}

/**
 * `cc-linker setup`: gathers the answers (full wizard, flags with questions only for what is
 * missing, or — without a terminal or with `--yes` — no questions at all), checks the Feishu
 * credentials, and writes `config.toml`: rendered from the old file plus the answers (every other
 * key kept), validated before it is written, written atomically 0600 in a 0700 directory, with
 * the old file saved first as `config.toml.bak`. Nothing is written when any step fails.
 *
 * The app secret never reaches any output: it is registered with the redactor as soon as it is
 * known and the summary shows only whether one is set.
 *
 * @example
 *   await runSetup({ paths, env, lang: 'zh', out }, { appId, appSecret, check: true, yes: true, skipFeishu: false },
 *     { input: process.stdin, output: process.stdout, terminal: false, interactive: false });
 */
export async function runSetup(ctx: SetupContext, flags: SetupFlags, io: SetupIo): Promise<SetupOutcome> {
  const file = ctx.paths.configFile;
  const shownFile = tildify(file, ctx.paths.userHome);
  const startLang = (flags.language !== undefined ? parseLanguageAnswer(flags.language) : undefined) ?? ctx.lang;
  const existing = await readExisting(file, startLang);
  const full = io.interactive && !flags.yes && !hasAnswerFlags(flags);
  const s = new SetupSession(startLang, full, { ...io, ask: io.interactive && !flags.yes }, ctx.out, ctx.env);
  let answers: Answers;
  let config: Config;
  let text: string;
  try {
    if (full) s.note(s.t('intro', { file: shownFile }));
    const lang = await s.question<Language>({
      flag: '--language',
      given: flags.language,
      env: SETUP_ENV.language,
      current: existing.config.general.language,
      show: (v) => v,
      ask: 'askLanguage',
      required: true,
      parse: async (x) => {
        const value = parseLanguageAnswer(x);
        return value ? { value } : { problem: s.t('invalidLanguage') };
      },
    });
    s.setLanguage(lang);
    if (flags.skipFeishu) s.note(s.t('skipFeishu'));
    let feishu = flags.skipFeishu ? undefined : await askFeishu(s, flags, existing.config.feishu_bot);
    const c = existing.config;
    const dirs = await askDirectories(s, flags, {
      roots: c.security.allowed_roots,
      deniedRoots: c.security.denied_roots,
      defaultCwd: c.feishu_bot.default_cwd,
      home: ctx.paths.userHome,
      cwd: ctx.cwd ?? process.cwd(),
    });
    if (feishu) feishu = await checkFeishuAnswers(s, flags, feishu);
    answers = { lang, dirs, skipFeishu: flags.skipFeishu, ...(feishu ? { feishu } : {}) };

    const next = applyAnswers(existing.raw, answers);
    const validated = validateConfig(next);
    if (!validated.ok)
      throw new Error(`setup produced an invalid ${validated.issues[0].key}: ${validated.issues[0].expected}`);
    config = validated.config;
    text = renderConfigToml(config, { lang, raw: next });
    // Never write a file cc-linker could not read back.
    const reread = validateConfig(parseToml(text) as Plain);
    if (!reread.ok) throw new Error(`rendered config.toml does not validate at ${reread.issues[0].key}`);
    warnEnvOverrides(s, config);
    if (full) {
      s.note(summary(s, config, answers, shownFile));
      if (!(await s.confirm('askWrite', true))) throw s.error('SETUP_DECLINED', 'notWritten');
    }
  } finally {
    s.close();
  }

  await ensurePrivateDir(ctx.paths.home);
  let backup: string | null = null;
  if (existing.text !== null) {
    backup = `${file}.bak`;
    await writeFileAtomic(backup, existing.text);
  }
  await writeFileAtomic(file, text);

  ctx.out.print(s.t('written', { file: shownFile }));
  if (backup) ctx.out.print(s.t('backedUp', { file: tildify(backup, ctx.paths.userHome) }));
  ctx.out.print(nextStep(s, config));
  if (!answers.skipFeishu) ctx.out.print(s.t('docsHint'));
  const check = answers.feishu?.check ?? 'none';
  return { file, backup, credentials: check === 'pending' ? 'none' : check };
}
