import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDirSync } from '../core/private-dir.js';
import type { FileSender } from '../engine/engine-types.js';
import { mcpServerEnv, type SendFileMcp } from '../engine/send-file-mcp.js';
import { SEND_FILE_SERVER, SEND_FILE_TOOL } from '../engine/send-file-spec.js';
import type { ClaudeDeps, ClaudeRunContext } from './claude-engine-deps.js';
import type { RuleSet } from './permission-policy.js';

/** What a Claude Code CLI child is started with to offer `send_file`, and how to take it back. */
export interface SendFileOffer {
  /** `--mcp-config=<file>`: one argument, so the variadic flag cannot swallow what follows. */
  args: string[];
  /** The run's rules plus `mcp__cc-linker__send_file` when `files.send_without_prompt`. */
  rules: RuleSet;
  /** Revokes the token and removes the file (the child ended). Idempotent. */
  close(): void;
}

/**
 * The `send_file` tool for a `json` / `stream-json` child (docs/design.md#files-out): a token for
 * this child (calls go to `current()`'s sender, the turn running now), and a `--mcp-config` file
 * naming the stdio server `cc-linker mcp` with that token in its `env` — written 0600 in the
 * private runtime folder, never on the command line (argv is readable by every local user).
 * Claude Code's own MCP servers stay (no `--strict-mcp-config`). With `files.send_without_prompt`
 * the tool is allowed (`--allowedTools`); otherwise these modes, which cannot ask, deny it.
 * Undefined — nothing offered — without `deps.sendFileMcp`, when `claude.disallowed_tools` covers
 * the tool (`mcp__cc-linker`), or when the file cannot be written (logged: the run goes on without it).
 */
export function offerSendFile(
  ctx: Pick<ClaudeRunContext, 'rules' | 'cwd'>,
  deps: Pick<ClaudeDeps, 'config' | 'policy' | 'paths' | 'sendFileMcp' | 'logger'>,
  current: () => FileSender | undefined,
): SendFileOffer | undefined {
  const mcp = deps.sendFileMcp;
  if (!mcp) return undefined;
  const call = { toolName: SEND_FILE_TOOL, input: {}, cwd: ctx.cwd, home: deps.paths.userHome };
  if (deps.policy.decide(ctx.rules, call).verdict === 'deny') return undefined;
  const grant = mcp.registry.issue(current);
  let file: string;
  try {
    file = writeConfig(mcp, grant.token);
  } catch (err) {
    grant.revoke();
    deps.logger.warn('cannot write the send_file MCP config; this run has no send_file', { err });
    return undefined;
  }
  const allow = deps.config.files.send_without_prompt && !ctx.rules.allowed.includes(SEND_FILE_TOOL);
  let closed = false;
  return {
    args: [`--mcp-config=${file}`],
    rules: allow ? { ...ctx.rules, allowed: [...ctx.rules.allowed, SEND_FILE_TOOL] } : ctx.rules,
    close() {
      if (closed) return;
      closed = true;
      grant.revoke();
      fs.rmSync(file, { force: true });
    },
  };
}

/** `<configDir>/<random>.json`, created exclusively, 0600. */
function writeConfig(mcp: SendFileMcp, token: string): string {
  makePrivateDirSync(mcp.configDir);
  const file = path.join(mcp.configDir, `${randomBytes(8).toString('hex')}.json`);
  const server = {
    type: 'stdio',
    command: mcp.command,
    args: [...mcp.args],
    env: mcpServerEnv(mcp, token),
    alwaysLoad: true, // in the prompt from the start, not found through a tool search
  };
  fs.writeFileSync(file, JSON.stringify({ mcpServers: { [SEND_FILE_SERVER]: server } }), { mode: 0o600, flag: 'wx' });
  return file;
}
