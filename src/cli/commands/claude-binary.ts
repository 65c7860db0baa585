import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CliContext } from '../cli-context.js';

/** Which `claude` the terminal commands run, and where it came from. */
export interface ClaudeBinary {
  path: string;
  source: 'config' | 'path' | 'sdk';
}

/**
 * Finds the Claude Code binary for `resume --exec` and `doctor`: `general.claude_bin` when set,
 * else `claude` on PATH, else the binary bundled with the Agent SDK
 * (`@anthropic-ai/claude-agent-sdk-linux-x64/claude`, resolved with `createRequire`, never
 * imported). Null when none exists.
 */
export function findClaudeBinary(ctx: Pick<CliContext, 'config' | 'env' | 'paths'>): ClaudeBinary | null {
  const configured = ctx.config.general.claude_bin;
  if (configured) return { path: configured, source: 'config' };
  const onPath = searchPath('claude', ctx.env.PATH ?? '');
  if (onPath) return { path: onPath, source: 'path' };
  const bundled = sdkBinary();
  return bundled ? { path: bundled, source: 'sdk' } : null;
}

function searchPath(name: string, pathVar: string): string | null {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}

function sdkBinary(): string | null {
  const require = createRequire(import.meta.url);
  const pkg = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
  try {
    const dir = path.dirname(require.resolve(`${pkg}/package.json`));
    const bin = path.join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
    fs.accessSync(bin, fs.constants.X_OK);
    return bin;
  } catch {
    return null;
  }
}
