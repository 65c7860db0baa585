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
import type { FeishuAnswers } from './ask-feishu.js';
import type { ChatAppSetup, EnvOverrideWritten } from './chat-app.js';
import { CHAT_APPS } from './chat-apps.js';
import { chooseChatApps } from './choose-chat-apps.js';
import { renderConfigToml } from './render-config-toml.js';
import { SetupError } from './setup-error.js';
import { hasAnswerFlags, parseLanguageAnswer, SETUP_ENV, type SetupFlags } from './setup-answers.js';
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
  /** The Feishu credential check; `none` when Feishu was not set up in this run. */
  credentials: Exclude<FeishuAnswers['check'], 'pending'> | 'none';
  /** Each chat app set up in this run, by id, and how its credential check went. */
  chatApps: Record<string, 'ok' | 'skipped' | 'unchecked'>;
}

/** A chat app chosen for this run and its answers. */
interface Chosen {
  app: ChatAppSetup;
  answers: unknown;
}

interface Answers {
  lang: Language;
  chosen: Chosen[];
  dirs: DirectoryAnswers;
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

/** The old file's data with the answers set; sections are copied (once each), never mutated. */
function applyAnswers(raw: Plain, a: Answers): Plain {
  const next: Plain = { ...raw };
  const copied = new Set<string>();
  const section = (name: string): Plain => {
    if (!copied.has(name)) {
      copied.add(name);
      next[name] = isPlain(raw[name]) ? { ...(raw[name] as Plain) } : {};
    }
    return next[name] as Plain;
  };
  section('general').language = a.lang;
  for (const { app, answers } of a.chosen) app.apply(section, answers);
  section('feishu_bot').default_cwd = a.dirs.defaultCwd;
  section('security').allowed_roots = a.dirs.roots;
  if (a.chosen.length === 0) section('web').enabled = true;
  return next;
}

/** Warns when an environment variable will override what was just written (names only, never values). */
function warnEnvOverrides(s: SetupSession, config: Config, a: Answers): void {
  const written: EnvOverrideWritten[] = [
    { env: SETUP_ENV.language, key: 'general.language', value: config.general.language },
    ...a.chosen.flatMap(({ app, answers }) => app.envOverrides(config, answers)),
    { env: SETUP_ENV.defaultCwd, key: 'feishu_bot.default_cwd', value: config.feishu_bot.default_cwd },
  ];
  for (const { env, key, value, keptInEnv } of written) {
    const set = s.env[env]?.trim();
    // An empty secret with the variable set is the "keep using the environment" choice.
    if (set && set !== value && !(keptInEnv && value === '')) s.note(s.t('envOverride', { env, key }));
  }
}

function summary(s: SetupSession, config: Config, a: Answers, file: string, existing: Config): string {
  const t = s.t;
  const rows: Array<[string, string]> = [
    [t('sumLanguage'), config.general.language],
    [t('sumChatApps'), a.chosen.map(({ app }) => app.label[s.lang]).join(', ') || t('notSet')],
  ];
  for (const { app, answers } of a.chosen) rows.push(...app.summary(s, config, answers));
  for (const app of CHAT_APPS)
    if (!a.chosen.some((c) => c.app === app) && app.configured(existing))
      rows.push([app.label[s.lang], t('unchanged')]);
  if (a.chosen.length === 0) rows.push([t('sumConsole'), t('consoleOn')]);
  rows.push(
    [t('sumRoots'), config.security.allowed_roots.join(', ')],
    [t('sumDefaultCwd'), config.feishu_bot.default_cwd || t('notSet')],
  );
  return [t('summaryTitle', { file }), ...rows.map(([k, v]) => `  ${k}: ${v}`)].join('\n');
}

function nextSteps(s: SetupSession, config: Config, a: Answers): string[] {
  if (a.chosen.length > 0) return a.chosen.flatMap(({ app, answers }) => app.nextSteps(s, config, answers));
  return [s.t(CHAT_APPS.some((app) => app.configured(config)) ? 'nextStartConfigured' : 'nextConsoleOnly')];
}

/**
 * `cc-linker setup`: gathers the answers (full wizard, flags with questions only for what is
 * missing, or — without a terminal or with `--yes` — no questions at all): the language, the chat
 * apps to set up (`chooseChatApps`; each asks and checks its own credentials, `chat-apps.ts`), the
 * directories. Then it writes `config.toml`: rendered from the old file plus the answers (every
 * other key — and every app not chosen — kept), validated before it is written, written atomically
 * 0600 in a 0700 directory, with the old file saved first as `config.toml.bak`. Nothing is written
 * when any step fails.
 *
 * Secrets (the Feishu app secret, the Telegram bot token) never reach any output: each is
 * registered with the redactor as soon as it is known and the summary shows only whether one is set.
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
  const appAnswered = CHAT_APPS.some((app) =>
    app.options.some((o) => o.answer && flags.chatFlags?.[o.key] !== undefined),
  );
  const full = io.interactive && !flags.yes && !hasAnswerFlags(flags) && !appAnswered;
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
    if (full) s.note(s.t('chatAppsIntro'));
    const c = existing.config;
    const chosen: Chosen[] = [];
    for (const app of await chooseChatApps(s, flags, c)) chosen.push({ app, answers: await app.ask(s, flags, c) });
    const dirs = await askDirectories(s, flags, {
      roots: c.security.allowed_roots,
      deniedRoots: c.security.denied_roots,
      defaultCwd: c.feishu_bot.default_cwd,
      home: ctx.paths.userHome,
      cwd: ctx.cwd ?? process.cwd(),
    });
    // Every answer is valid by now: the checks left for last (outside the wizard) run.
    for (const one of chosen) one.answers = await one.app.check(s, flags, one.answers);
    answers = { lang, dirs, chosen };

    const next = applyAnswers(existing.raw, answers);
    const validated = validateConfig(next);
    if (!validated.ok)
      throw new Error(`setup produced an invalid ${validated.issues[0].key}: ${validated.issues[0].expected}`);
    config = validated.config;
    text = renderConfigToml(config, { lang, raw: next });
    // Never write a file cc-linker could not read back.
    const reread = validateConfig(parseToml(text) as Plain);
    if (!reread.ok) throw new Error(`rendered config.toml does not validate at ${reread.issues[0].key}`);
    warnEnvOverrides(s, config, answers);
    if (full) {
      s.note(summary(s, config, answers, shownFile, existing.config));
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
  for (const line of nextSteps(s, config, answers)) ctx.out.print(line);
  const chatApps: SetupOutcome['chatApps'] = {};
  for (const { app, answers: a } of answers.chosen) {
    const check = app.checked(a);
    if (check !== 'pending') chatApps[app.id] = check;
  }
  return { file, backup, credentials: chatApps.feishu ?? 'none', chatApps };
}
