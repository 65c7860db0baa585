import { isBaseEnvName, isCcLinkerEnvName } from '../process/base-child-env.js';
import { runProcess, type RunResult } from '../process/run-process.js';

/** Longest a read-only git command may run. */
export const GIT_TIMEOUT_MS = 10_000;
/** Output kept of one git command (more is cut and reported as truncated). */
export const GIT_MAX_OUTPUT = 4 * 1024 * 1024;

/**
 * Settings given on the command line, which outrank every configuration file: a session
 * directory is not trusted, so nothing its `.git/config` says may start a program while we read
 * it (fsmonitor, hooks, a pager, an ssh command), and git never writes the index (`--no-optional-locks`).
 */
const SAFE_CONFIG = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.sshCommand=false',
  'core.untrackedCache=false',
  'diff.external=',
  'protocol.allow=never',
];

/**
 * The environment git runs with: the shared base a child may see (`process/base-child-env.ts`)
 * minus the SSH agent socket and cc-linker's own settings, no system config, no prompt, no pager,
 * no optional locks.
 */
export function gitEnv(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || !isBaseEnvName(name) || isCcLinkerEnvName(name) || name === 'SSH_AUTH_SOCK') continue;
    env[name] = value;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_ASKPASS: 'false',
    SSH_ASKPASS: 'false',
  };
}

/** What one git command printed, or null when it could not run or failed. */
export interface GitOutput {
  stdout: string;
  truncated: boolean;
}

/**
 * Runs one read-only git command in `dir` with the safe settings above and, for each filter driver
 * the repository's config names (`filter.<name>.clean|smudge|process`, which `status` and `diff`
 * would run on changed files), an empty override that turns it off. Resolves null on a non-zero
 * exit, a timeout or a missing git.
 *
 * @example
 *   const out = await runGit('/home/me/Git/app', ['status', '--porcelain=v2', '-z']);
 */
export async function runGit(
  dir: string,
  args: readonly string[],
  opts: { git?: string } = {},
): Promise<GitOutput | null> {
  const config = await run(dir, ['config', '-z', '--list', '--includes'], opts.git);
  const drivers = new Set<string>();
  for (const entry of config?.stdout.split('\0') ?? []) {
    const key = entry.split('\n', 1)[0] ?? '';
    const m = /^filter\.(.+)\.(clean|smudge|process|required)$/i.exec(key);
    if (m?.[1] && !m[1].includes('=')) drivers.add(m[1]);
  }
  const filters = [...drivers].flatMap((d) =>
    ['clean=', 'smudge=', 'process=', 'required=false'].flatMap((v) => ['-c', `filter.${d}.${v}`]),
  );
  const result = await run(dir, [...filters, ...args], opts.git);
  return result;
}

async function run(dir: string, args: readonly string[], git = 'git'): Promise<GitOutput | null> {
  const argv = [git, ...SAFE_CONFIG.flatMap((c) => ['-c', c]), '--no-optional-locks', ...args];
  const r: RunResult = await runProcess(argv, {
    cwd: dir,
    env: gitEnv(),
    hardTimeoutMs: GIT_TIMEOUT_MS,
    maxOutputBytes: GIT_MAX_OUTPUT,
  });
  if (r.reason !== 'exit' || r.exitCode !== 0) return null;
  return { stdout: r.stdout, truncated: r.stdoutTruncated };
}
