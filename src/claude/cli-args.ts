import path from 'node:path';
import type { EngineRequest } from '../engine/engine-types.js';
import { permissionFlags, type RuleSet } from './permission-policy.js';

/** The two output formats the CLI modes use. */
export type CliFormat = 'json' | 'stream-json';

/** Everything besides the request that shapes a `claude -p` command line. */
export interface CliArgsOptions {
  format: CliFormat;
  /** stream-json only: `--include-partial-messages` (token-level text deltas). */
  partial: boolean;
  permissionMode: string;
  rules: RuleSet;
  /** `--mcp-config=<file>` (`send-file-mcp-config.ts`), placed before the variadic lists. */
  mcpArgs?: readonly string[];
}

/**
 * The argv (after the binary) of one non-interactive Claude Code run:
 * - json: `-p --output-format json`;
 * - stream-json: `--print --input-format stream-json --output-format stream-json --verbose
 *   [--include-partial-messages]` — a conversation: each turn is one JSON user line on stdin
 *   (`cli-conversation.ts`), the child stays alive until stdin ends;
 * - then `--resume=<id>` (or `--session-id=<id>` for a new session whose id the caller chose) and `--model <m>`;
 * - then `--mcp-config=<file>` when `send_file` is offered (one argument: the flag is variadic too);
 * - then the variadic lists: `--add-dir <dir…>` (the folders of attached images and files, so
 *   Claude may read them without a prompt; `readableDirectories`), `--permission-mode`, `--allowedTools <rule…>`, `--disallowedTools <rule…>`.
 *
 * The prompt is NOT in argv: it goes to stdin (json: as is; stream-json: inside the JSON line). Two reasons, both checked with CLI 2.1.332:
 * the list flags are variadic, so a positional prompt after them would be read as one more
 * rule; and argv is visible to every local user in `ps` / `/proc/<pid>/cmdline`, a prompt should
 * not be. A prompt starting with `-` is therefore never mistaken for a flag.
 *
 * @example buildCliArgs({ prompt: 'hi', cwd: '/x', sessionId: 'abc' }, { format: 'json', partial: false, permissionMode: 'default', rules: { allowed: ['Read'], disallowed: [] } })
 *   // ['-p', '--output-format', 'json', '--resume=abc', '--permission-mode', 'default', '--allowedTools', 'Read']
 */
export function buildCliArgs(request: EngineRequest, options: CliArgsOptions): string[] {
  const args =
    options.format === 'json'
      ? ['-p', '--output-format', 'json']
      : ['--print', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];
  if (options.format === 'stream-json' && options.partial) args.push('--include-partial-messages');
  // One argument each: `--resume` takes an optional value, so an id that looks like a flag
  // given as the next argument would be read as one.
  if (request.sessionId) args.push(`--resume=${request.sessionId}`);
  else if (request.newSessionId) args.push(`--session-id=${request.newSessionId}`);
  if (request.model) args.push('--model', request.model);
  if (options.mcpArgs) args.push(...options.mcpArgs);
  const readable = readableDirectories(request);
  if (readable.length > 0) args.push('--add-dir', ...readable);
  args.push(...permissionFlags(options.permissionMode, options.rules));
  return args;
}

/**
 * The folders Claude may read without a permission prompt: those of the request's images and
 * files (each file sits in a folder of its own message), and nothing else.
 */
export function readableDirectories(request: Pick<EngineRequest, 'imagePaths' | 'filePaths'>): string[] {
  return imageDirectories([...(request.imagePaths ?? []), ...(request.filePaths ?? [])]);
}

/** The distinct absolute folders of attached images (or files). */
export function imageDirectories(imagePaths: readonly string[] | undefined): string[] {
  const dirs: string[] = [];
  for (const p of imagePaths ?? []) {
    if (!path.isAbsolute(p)) continue;
    const dir = path.dirname(p);
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  return dirs;
}
