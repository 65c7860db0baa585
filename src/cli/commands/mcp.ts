import type { CommandSpec } from './command-spec.js';
import { MCP_SOCKET_ENV, MCP_TOKEN_ENV } from '../../engine/send-file-mcp.js';

/**
 * `cc-linker mcp`: the stdio MCP server with `send_file` that cc-linker itself starts for the agents
 * it runs (docs/design.md#files-out) — not a command for users. It reads its token and the daemon's
 * socket from its environment; without them it says what it is for and exits 64. It writes nothing
 * to stdout but the MCP stream.
 */
export const mcpCommand: CommandSpec = {
  name: 'mcp',
  description:
    'The send_file MCP server (stdio) that cc-linker starts for its own Claude Code and ACP agent runs; not run by users',
  survivesBadConfig: true,
  action: async (ctx) => {
    const { McpStartError, runSendFileMcpServer } = await import('../start/mcp-server.js');
    const token = ctx.env[MCP_TOKEN_ENV];
    const socket = ctx.env[MCP_SOCKET_ENV];
    if (!token || !socket) throw new McpStartError(!token ? MCP_TOKEN_ENV : MCP_SOCKET_ENV);
    await runSendFileMcpServer({ token, socket, lang: ctx.lang });
    return 0;
  },
};
