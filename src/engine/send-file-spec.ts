import { z } from 'zod';

/**
 * The tool cc-linker offers every agent to send a file into the chat (docs/design.md#files-out):
 * one MCP server `cc-linker` with one tool `send_file({path, caption?})`. The same name,
 * description and schema everywhere it is served — in process for the Agent SDK
 * (`claude/send-file-tool.ts`) and as the stdio server `cc-linker mcp` (`cli/commands/mcp.ts`) for
 * Claude Code's CLI modes and the ACP agents.
 */
export const SEND_FILE_SERVER = 'cc-linker';
/** The tool's own name inside the server. */
export const SEND_FILE_TOOL_NAME = 'send_file';
/** The tool as Claude Code names it (`mcp__<server>__<tool>`), for permission rules and flags. */
export const SEND_FILE_TOOL = `mcp__${SEND_FILE_SERVER}__${SEND_FILE_TOOL_NAME}`;

export const SEND_FILE_DESCRIPTION =
  'Send a file from the working directory into the chat the user is talking to you from. ' +
  'Images are shown as images, other files as file messages. Only files inside the session ' +
  "directory (or the user's attachments) can be sent, up to the size limit; the answer says " +
  'what was sent or why not.';

/** The tool's input, as a zod raw shape (both MCP server kinds take one). */
export const sendFileInputShape = {
  path: z.string().describe('Path of the file, absolute or relative to the working directory'),
  caption: z.string().optional().describe('A short line shown with the file'),
};

/**
 * Marks a tool to be loaded into the prompt from the start rather than found through Claude Code's
 * tool search (the key the Agent SDK sets for `alwaysLoad`): one small tool, always in view.
 */
export const ALWAYS_LOAD_META = { 'anthropic/alwaysLoad': true } as const;
