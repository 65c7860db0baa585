import { runGit } from './run-git.js';

/** How one file differs: in the index (`staged`) and/or the working tree (`unstaged`). */
export type GitFileChange =
  'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'typechange' | 'untracked' | 'conflicted';

/** One changed file, its path relative to the repository's top directory. */
export interface GitFileStatus {
  path: string;
  /** The old path of a rename or copy. */
  from?: string;
  change: GitFileChange;
  /** git's two status letters (index, work tree), e.g. `.M`, `A.`, `??`. */
  xy: string;
  staged: boolean;
  unstaged: boolean;
}

/** A directory's git state: branch (null when detached), upstream and how far apart, changed files. */
export interface GitStatus {
  /** The repository's top directory (real path as git prints it). */
  root: string;
  branch: string | null;
  detached: boolean;
  /** The commit HEAD points to (null before the first commit). */
  head: string | null;
  upstream: string | null;
  ahead: number;
  behind: number;
  files: GitFileStatus[];
  /** Files not listed past `MAX_STATUS_FILES`. */
  more: number;
}

/** Changed files one status lists. */
export const MAX_STATUS_FILES = 500;

const LETTER: Record<string, GitFileChange> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'typechange',
};

/**
 * The git state of `dir` (`git status --porcelain=v2 -z --branch -- .`), read through `runGit` so no
 * repository setting can start a program. Only files inside `dir` are listed (a session in a
 * sub-folder of a repository sees its own changes, not the whole repository's); their paths stay
 * relative to the repository's top. Null when `dir` is not in a git work tree, git is missing, or
 * it failed or timed out.
 *
 * @example
 *   await gitStatus('/home/me/Git/app') // { branch: 'main', upstream: 'origin/main', ahead: 1, behind: 0, files: [...] }
 */
export async function gitStatus(dir: string, opts: { git?: string } = {}): Promise<GitStatus | null> {
  const top = await runGit(dir, ['rev-parse', '--show-toplevel'], opts);
  if (!top) return null;
  const out = await runGit(
    dir,
    ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--', '.'],
    opts,
  );
  if (!out) return null;
  return parsePorcelainV2(out.stdout, top.stdout.trim());
}

/** Parses `git status --porcelain=v2 -z --branch` output. */
export function parsePorcelainV2(text: string, root: string): GitStatus {
  const status: GitStatus = {
    root,
    branch: null,
    detached: false,
    head: null,
    upstream: null,
    ahead: 0,
    behind: 0,
    files: [],
    more: 0,
  };
  const records = text.split('\0');
  const add = (f: GitFileStatus) => {
    if (status.files.length < MAX_STATUS_FILES) status.files.push(f);
    else status.more += 1;
  };
  for (let i = 0; i < records.length; i++) {
    const rec = records[i] as string;
    if (rec === '') continue;
    if (rec.startsWith('# ')) {
      const [, key, ...rest] = rec.split(' ');
      const value = rest.join(' ');
      if (key === 'branch.oid') status.head = value === '(initial)' ? null : value;
      else if (key === 'branch.head') {
        status.detached = value === '(detached)';
        status.branch = status.detached ? null : value;
      } else if (key === 'branch.upstream') status.upstream = value;
      else if (key === 'branch.ab') {
        const m = /^\+(\d+) -(\d+)$/.exec(value);
        if (m) [status.ahead, status.behind] = [Number(m[1]), Number(m[2])];
      }
      continue;
    }
    const kind = rec[0];
    if (kind === '?') add({ path: rec.slice(2), change: 'untracked', xy: '??', staged: false, unstaged: true });
    else if (kind === '1' || kind === '2' || kind === 'u') {
      const fields = kind === '1' ? 8 : kind === '2' ? 9 : 10;
      const parts = rec.split(' ');
      const xy = parts[1] ?? '..';
      const path = parts.slice(fields).join(' ');
      const f: GitFileStatus = {
        path,
        change: kind === 'u' ? 'conflicted' : changeOf(xy),
        xy,
        staged: xy[0] !== '.',
        unstaged: xy[1] !== '.',
      };
      if (kind === '2') {
        // With -z the original path is the next record.
        f.from = records[i + 1] ?? '';
        i += 1;
      }
      add(f);
    }
  }
  return status;
}

function changeOf(xy: string): GitFileChange {
  const letter = xy[0] !== '.' ? xy[0] : xy[1];
  return LETTER[letter ?? 'M'] ?? 'modified';
}
