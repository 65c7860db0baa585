import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeTestEnv } from './claude-env.js';

/** A throw-away HOME and working directory for one real Claude Code run against a fake API. */
export interface ClaudeSandbox {
  /** Temp HOME (sessions land in `<home>/.claude/projects`). */
  home: string;
  /** Temp working directory for the child (symlinks resolved, as the CLI records it). */
  cwd: string;
  /** {@link claudeTestEnv} for this sandbox. */
  env: NodeJS.ProcessEnv;
  /** `<home>/.claude/projects/<encoded cwd>/<sessionId>.jsonl`. */
  sessionFile(sessionId: string): string;
  /** Removes both directories. */
  cleanup(): void;
}

/**
 * The CLI's project directory name for a cwd: every character outside `[A-Za-z0-9]` becomes `-`
 * (lossy — read the real cwd from the JSONL lines, never decode this).
 */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * Creates temp HOME + cwd (under `os.tmpdir()`) wired to `baseUrl`, so a test never touches the
 * real `~/.claude`. `cwdName` lets a test use an awkward directory name (spaces, CJK…).
 */
export function createClaudeSandbox(baseUrl: string, cwdName = 'project'): ClaudeSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cc-linker-claude-')));
  const home = join(root, 'home');
  const cwd = join(root, cwdName);
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(cwd);
  return {
    home,
    cwd,
    env: claudeTestEnv({ home, baseUrl }),
    sessionFile: (id) => join(home, '.claude', 'projects', encodeProjectDir(cwd), `${id}.jsonl`),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
