import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';
import type { FileSender } from '../engine/engine-types.js';
import {
  SEND_FILE_DESCRIPTION,
  SEND_FILE_SERVER,
  SEND_FILE_TOOL,
  SEND_FILE_TOOL_NAME,
  sendFileInputShape,
} from '../engine/send-file-spec.js';
import type { loadAgentSdk } from './load-agent-sdk.js';

/** The MCP server cc-linker offers the agent, and its one tool as Claude Code names it. */
export { SEND_FILE_SERVER, SEND_FILE_TOOL };

type AgentSdk = Awaited<ReturnType<typeof loadAgentSdk>>;

/**
 * The in-process MCP server `cc-linker` with `send_file({path, caption?})` for the `sdk` mode.
 * One server lives as long as the Claude Code child; each call goes to the sender of the turn
 * running NOW (`current()`), so a warm child's later turn sends into its own chat, and a call
 * outside a turn is refused.
 */
export function sendFileServer(
  sdk: Pick<AgentSdk, 'createSdkMcpServer' | 'tool'>,
  current: () => FileSender | undefined,
  noTurnText: string,
): McpSdkServerConfigWithInstance {
  const sendFile = sdk.tool(
    SEND_FILE_TOOL_NAME,
    SEND_FILE_DESCRIPTION,
    sendFileInputShape,
    async (args) => {
      const sender = current();
      const answer = sender
        ? await sender.sendFile({ path: args.path, ...(args.caption ? { caption: args.caption } : {}) })
        : { ok: false, text: noTurnText };
      return { content: [{ type: 'text', text: answer.text }], ...(answer.ok ? {} : { isError: true }) };
    },
    // One small tool: its schema is in the prompt from the start, not found through a tool search.
    { alwaysLoad: true },
  );
  return sdk.createSdkMcpServer({ name: SEND_FILE_SERVER, version: '1.0.0', tools: [sendFile] });
}
