import { createRequire } from 'node:module';
import path from 'node:path';
import { expandHome } from '../core/expand-home.js';
import { isExecutable, resolveConfiguredExecutable, searchPath } from '../process/find-executable.js';

/** A Claude Code executable and where it was found. */
export interface ClaudeBinary {
  path: string;
  source: 'config' | 'path' | 'sdk';
}

/**
 * The Claude Code binary bundled with `@anthropic-ai/claude-agent-sdk` (its per-platform optional
 * dependency `@anthropic-ai/claude-agent-sdk-<platform>-<arch>[-musl]/claude`), resolved from the
 * SDK's own location with `createRequire`, never imported. Null when no variant is installed.
 */
export function bundledClaudeBinary(): string | null {
  let sdkRequire: NodeJS.Require;
  try {
    sdkRequire = createRequire(createRequire(import.meta.url).resolve('@anthropic-ai/claude-agent-sdk'));
  } catch {
    return null;
  }
  const base = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  for (const pkg of process.platform === 'linux' ? [base, `${base}-musl`] : [base]) {
    try {
      const bin = path.join(path.dirname(sdkRequire.resolve(`${pkg}/package.json`)), exe);
      if (isExecutable(bin)) return bin;
    } catch {
      // this variant is not installed
    }
  }
  return null;
}

/**
 * Which `claude` the `json` / `stream-json` modes (and terminal commands) run: `general.claude_bin`
 * when set (even when it does not exist, so the error names what the user configured), else
 * `claude` on PATH, else the Agent SDK's bundled binary. Null when there is none at all.
 *
 * @example findClaudeBinary('', process.env, os.homedir()) // { path: '/usr/local/bin/claude', source: 'path' }
 */
export function findClaudeBinary(configured: string, env: NodeJS.ProcessEnv, home: string): ClaudeBinary | null {
  if (configured.trim().length > 0) {
    return {
      path: resolveConfiguredExecutable(configured, env, home) ?? expandHome(configured.trim(), home),
      source: 'config',
    };
  }
  const onPath = searchPath('claude', env.PATH);
  if (onPath) return { path: onPath, source: 'path' };
  const bundled = bundledClaudeBinary();
  return bundled ? { path: bundled, source: 'sdk' } : null;
}

/**
 * The program to print in a command the user pastes into a terminal here (`cc-linker resume`, the
 * chat's `/resume`): `claude` when that name is on PATH and no `general.claude_bin` is set, else the
 * absolute path of the binary cc-linker itself runs (configured or bundled with the Agent SDK), so the
 * printed command runs on this machine. `claude` when there is none at all (the install hint is the
 * caller's).
 *
 * @example claudeProgramFor('', { PATH: '/usr/bin' }, home) // '/…/claude-agent-sdk-linux-x64/claude' when only the SDK has one
 */
export function claudeProgramFor(configured: string, env: NodeJS.ProcessEnv, home: string): string {
  const bin = findClaudeBinary(configured, env, home);
  return bin && bin.source !== 'path' ? bin.path : 'claude';
}
