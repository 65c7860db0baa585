import fs from 'node:fs/promises';
import path from 'node:path';
import { expandHome } from '../../core/expand-home.js';
import type { Language } from '../../core/i18n.js';
import { isInside } from '../../core/path-inside.js';
import { tildify } from '../../core/tildify.js';
import { bridgeMessages } from '../bridge-messages.js';

/** Why a working directory was refused. */
export type DirRefusalCode = 'not-found' | 'not-directory' | 'outside-allowed' | 'denied' | 'invalid';

/** The verdict: the real (symlink-free) path to use, or a refusal with a message for the user. */
export type DirCheckResult = { ok: true; realPath: string } | { ok: false; code: DirRefusalCode; message: string };

/** The security settings a check needs (`security.allowed_roots` / `denied_roots`, `~` = `home`). */
export interface DirSafetyOptions {
  allowedRoots: string[];
  deniedRoots: string[];
  /** The user's home directory, for `~` in the input and in the roots. */
  home: string;
  lang: Language;
  /** Resolves a relative input against this directory (e.g. the folder /listDir is showing); without it a relative input is refused. */
  base?: string;
}

/**
 * Decides whether a directory a chat user named may become a Claude Code working directory
 * (see docs/design.md#security-rules). Claude gets full tool access in that directory, so this is the
 * fence around what a chat message can reach.
 *
 * Steps: trim, expand `~`, `path.resolve` (which folds `..`), then `fs.realpath` so symlinks are
 * resolved; the REAL path must be a directory, lie inside (or equal) the real path of some allowed
 * root (an empty `allowedRoots` means unrestricted) and not be refused by a denied root.
 *
 * Denied-root rule: a denied root always refuses itself. It also refuses everything inside it,
 * EXCEPT when it is `/`, the home directory, or an ancestor of an allowed root — those only refuse
 * themselves. Why: the defaults deny `~` and `/` while allowing `~/Git`; read as "nothing under
 * home" they would refuse every allowed directory, so they can only mean "not the whole disk or
 * the whole home as a project". `~/Downloads`, `~/Desktop` and any other denied root refuse their
 * whole subtree. Denied roots are compared both as written (resolved) and as real paths.
 *
 * A path that escapes through `..` or a symlink is judged by where it really lands, so it is
 * refused as `outside-allowed` (or `denied`). A missing path outside the allowed roots is reported
 * as `outside-allowed`, not `not-found`, so the check does not reveal what exists elsewhere.
 * Messages name the allowed roots (with `~` for the home directory).
 *
 * @example
 *   const r = await checkWorkingDirectory('~/Git/cc-linker', { allowedRoots: ['~/Git'], deniedRoots: ['~', '/'], home, lang: 'zh' });
 *   if (r.ok) engine.send({ cwd: r.realPath, … });
 */
export async function checkWorkingDirectory(input: string, opts: DirSafetyOptions): Promise<DirCheckResult> {
  const t = bridgeMessages(opts.lang);
  const raw = input.trim();
  const rootsText = describeRoots(opts.allowedRoots, opts.home, t('dirAnyRoot'));
  if (!raw || raw.includes('\0')) return refuse('invalid', t('dirInvalid', { roots: rootsText }));
  const expanded = expandHome(raw, opts.home);
  if (!path.isAbsolute(expanded) && opts.base === undefined)
    return refuse('invalid', t('dirNotAbsolute', { path: raw, roots: rootsText }));
  const resolved = path.resolve(opts.base ?? '/', expanded);

  const allowed = await Promise.all(opts.allowedRoots.map((r) => realOrResolved(expandHome(r, opts.home))));
  const allowedLexical = opts.allowedRoots.map((r) => path.resolve(expandHome(r, opts.home)));
  const denied = await deniedRules(opts, [...new Set([...allowedLexical, ...allowed])]);
  const shown = tildify(resolved, opts.home);

  let real: string;
  try {
    real = await fs.realpath(resolved);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (allowed.length > 0 && !allowedLexical.some((root) => isInside(resolved, root))) {
      return refuse('outside-allowed', t('dirOutsideAllowed', { path: shown, roots: rootsText }));
    }
    if (code === 'ENOENT') return refuse('not-found', t('dirNotFound', { path: shown, roots: rootsText }));
    if (code === 'ENOTDIR') return refuse('not-directory', t('dirNotDirectory', { path: shown }));
    return refuse('invalid', t('dirUnreadable', { path: shown, reason: code ?? 'error' }));
  }

  if (allowed.length > 0 && !allowed.some((root) => isInside(real, root))) {
    return refuse('outside-allowed', t('dirOutsideAllowed', { path: shown, roots: rootsText }));
  }
  for (const rule of denied) {
    const hit = [real, resolved].some((p) => rule.paths.some((d) => (rule.subtree ? isInside(p, d) : p === d)));
    if (hit)
      return refuse(
        'denied',
        t('dirDenied', { path: shown, denied: tildify(rule.shown, opts.home), roots: rootsText }),
      );
  }

  let stat;
  try {
    stat = await fs.stat(real);
  } catch (err) {
    return refuse(
      'invalid',
      t('dirUnreadable', { path: shown, reason: (err as NodeJS.ErrnoException).code ?? 'error' }),
    );
  }
  if (!stat.isDirectory()) return refuse('not-directory', t('dirNotDirectory', { path: shown }));
  return { ok: true, realPath: real };
}

/** `~/Git, ~/Workspace` (or "any directory" when unrestricted): how messages name the allowed roots. */
export function describeRoots(allowedRoots: string[], home: string, unrestricted: string): string {
  if (allowedRoots.length === 0) return unrestricted;
  return allowedRoots.map((r) => tildify(path.resolve(expandHome(r, home)), home)).join(', ');
}

interface DeniedRule {
  /** The denied root as written (resolved) and as a real path. */
  paths: string[];
  shown: string;
  /** Whether everything inside is denied too, or only the directory itself. */
  subtree: boolean;
}

async function deniedRules(opts: DirSafetyOptions, allowedRoots: string[]): Promise<DeniedRule[]> {
  const home = path.resolve(opts.home);
  const homeReal = await realOrResolved(home);
  return Promise.all(
    opts.deniedRoots.map(async (d) => {
      const lexical = path.resolve(expandHome(d, opts.home));
      const real = await realOrResolved(lexical);
      const isBroad =
        lexical === path.parse(lexical).root ||
        lexical === home ||
        real === homeReal ||
        allowedRoots.some((a) => a !== lexical && a !== real && (isInside(a, lexical) || isInside(a, real)));
      return { paths: [...new Set([lexical, real])], shown: lexical, subtree: !isBroad };
    }),
  );
}

async function realOrResolved(p: string): Promise<string> {
  const resolved = path.resolve(p);
  try {
    return await fs.realpath(resolved);
  } catch {
    return resolved;
  }
}

function refuse(code: DirRefusalCode, message: string): DirCheckResult {
  return { ok: false, code, message };
}
