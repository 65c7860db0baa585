import { checkWorkingDirectory } from '../../bridge/commands/dir-safety.js';
import { SETUP_USAGE_EXIT } from './setup-error.js';
import { resolveDirectory, SETUP_ENV, type SetupFlags } from './setup-answers.js';
import type { SetupSession } from './setup-session.js';

/** `security.allowed_roots` and `feishu_bot.default_cwd` as they will be written. */
export interface DirectoryAnswers {
  roots: string[];
  defaultCwd: string;
}

/** The current directory settings and where `~` and relative paths point. */
export interface DirectoryContext {
  roots: string[];
  deniedRoots: string[];
  defaultCwd: string;
  home: string;
  /** Base of relative answers (the shell's working directory). */
  cwd: string;
}

/**
 * Asks for the allowed roots, then the default working directory. Directories the user names must
 * exist (a typo is caught now, not when `/new` fails from a phone); roots kept from the file only
 * get a warning when missing. Warns — without refusing — when a root lies under
 * `security.denied_roots`, or when the default directory would be refused by the same check `/new`
 * uses (outside the roots, or denied).
 */
export async function askDirectories(
  s: SetupSession,
  flags: SetupFlags,
  c: DirectoryContext,
): Promise<DirectoryAnswers> {
  if (s.full) s.note(s.t('dirsIntro'));
  const where = { home: c.home, cwd: c.cwd };
  const parseRoots = async (items: string[]): Promise<{ value: string[] } | { problem: string }> => {
    const out: string[] = [];
    for (const item of items) {
      const r = await resolveDirectory(item, where);
      if (!r.ok) return { problem: s.t(r.problem, { path: r.shown }) };
      if (!out.includes(r.written)) out.push(r.written);
    }
    return out.length > 0 ? { value: out } : { problem: s.t('rootsRequired') };
  };

  let roots: string[];
  if (flags.allowedRoot !== undefined) {
    const r = await parseRoots(flags.allowedRoot);
    if ('problem' in r)
      throw s.error('SETUP_INVALID', 'invalidAnswer', { flag: '--allowed-root', problem: r.problem }, SETUP_USAGE_EXIT);
    roots = r.value;
  } else {
    roots = await s.question<string[]>({
      flag: '--allowed-root',
      current: c.roots,
      show: (v) => v.join(', '),
      ask: 'askAllowedRoots',
      required: true,
      parse: (text) =>
        parseRoots(
          text
            .split(',')
            .map((x) => x.trim())
            .filter((x) => x.length > 0),
        ),
    });
  }
  const kept = roots === c.roots;
  for (const root of roots) {
    const verdict = await checkWorkingDirectory(root, {
      allowedRoots: [],
      deniedRoots: c.deniedRoots,
      home: c.home,
      lang: s.lang,
    });
    if (!verdict.ok && verdict.code === 'denied') s.note(s.t('rootDenied', { path: root, reason: verdict.message }));
    else if (!verdict.ok && kept) s.note(s.t('rootNotFoundKept', { path: root }));
  }

  const defaultCwd = await s.question<string>({
    flag: '--default-cwd',
    given: flags.defaultCwd,
    env: SETUP_ENV.defaultCwd,
    current: c.defaultCwd,
    show: (v) => v,
    ask: 'askDefaultCwd',
    required: false,
    cleared: '',
    parse: async (text) => {
      if (text === '') return { value: '' };
      const r = await resolveDirectory(text, where);
      return r.ok ? { value: r.written } : { problem: s.t(r.problem, { path: r.shown }) };
    },
  });
  if (defaultCwd !== '') {
    const verdict = await checkWorkingDirectory(defaultCwd, {
      allowedRoots: roots,
      deniedRoots: c.deniedRoots,
      home: c.home,
      lang: s.lang,
    });
    if (!verdict.ok) s.note(s.t('cwdRefused', { reason: verdict.message }));
  }
  return { roots, defaultCwd };
}
