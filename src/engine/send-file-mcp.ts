import type { Language } from '../core/i18n.js';
import type { FileSenderRegistry } from './file-sender-registry.js';

/** The variables `cc-linker mcp` reads (cli/commands/mcp.ts); nothing else is added to its environment. */
export const MCP_TOKEN_ENV = 'CC_LINKER_MCP_TOKEN';
export const MCP_SOCKET_ENV = 'CC_LINKER_MCP_SOCKET';
/** The language of its own sentences (the `general.language` override every command reads). */
export const MCP_LANGUAGE_ENV = 'CC_LINKER_LANGUAGE';

/**
 * How an agent child gets the stdio MCP server `cc-linker mcp` (docs/design.md#files-out): the
 * command that runs it (this Node, the running cc-linker's entry script, `mcp`), the daemon's
 * socket it forwards calls to, the registry that issues its token, and the private folder where a
 * Claude Code child's `--mcp-config` file is written. Absent from an engine's deps = the CLI
 * modes and the ACP agents are not offered `send_file`.
 */
export interface SendFileMcp {
  command: string;
  args: readonly string[];
  socket: string;
  registry: FileSenderRegistry;
  /** 0700, under `~/.cc-linker/runtime`. */
  configDir: string;
  lang: Language;
}

/** The environment the server is started with, on top of what its agent passes on: its token, the socket, the language. */
export function mcpServerEnv(mcp: Pick<SendFileMcp, 'socket' | 'lang'>, token: string): Record<string, string> {
  return { [MCP_TOKEN_ENV]: token, [MCP_SOCKET_ENV]: mcp.socket, [MCP_LANGUAGE_ENV]: mcp.lang };
}
