import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { AppError, isAppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import {
  ALWAYS_LOAD_META,
  SEND_FILE_DESCRIPTION,
  SEND_FILE_SERVER,
  SEND_FILE_TOOL_NAME,
  sendFileInputShape,
} from '../../engine/send-file-spec.js';
import { askDaemon } from './ask-daemon.js';
import { MAX_SEND_FILE_CAPTION, MAX_SEND_FILE_PATH } from './control-protocol.js';
import { mcpMessages } from './mcp-messages.js';

/** `cc-linker mcp` was run without the token and socket its agent gets from cc-linker (by hand, say). Exit 64. */
export class McpStartError extends AppError {
  constructor(private readonly missing: string) {
    super('MCP_NOT_STARTED', mcpMessages('zh')('MCP_NOT_STARTED', { missing }), { exitCode: 64 });
  }

  override localize(lang: Language): string {
    return mcpMessages(lang)('MCP_NOT_STARTED', { missing: this.missing });
  }
}

export interface SendFileMcpOptions {
  token: string;
  socket: string;
  lang: Language;
  /** The MCP stream (default: this process's stdin / stdout). */
  input?: Readable;
  output?: Writable;
}

/**
 * The stdio MCP server `cc-linker` that cc-linker offers its CLI-mode Claude Code children and its
 * ACP agents (docs/design.md#files-out): exactly one tool, `send_file`, with the sdk mode's
 * description and schema. Each call goes as a `send_file` request with this server's token to the
 * daemon's socket, which sends it through the turn the token's agent runs now; the daemon's
 * sentence (what was sent, or why not) is the tool's answer. The daemon out of reach is an answer
 * too, never a crash. Resolves when the agent closes the stream.
 */
export async function runSendFileMcpServer(o: SendFileMcpOptions): Promise<void> {
  const input = o.input ?? process.stdin;
  const server = new McpServer({ name: SEND_FILE_SERVER, version: '1.0.0' });
  server.registerTool(
    SEND_FILE_TOOL_NAME,
    { description: SEND_FILE_DESCRIPTION, inputSchema: sendFileInputShape, _meta: { ...ALWAYS_LOAD_META } },
    async (args) => {
      const answer = await forward(o, args);
      return { content: [{ type: 'text', text: answer.text }], ...(answer.ok ? {} : { isError: true }) };
    },
  );
  const closed = new Promise<void>((resolve) => (server.server.onclose = resolve));
  await server.connect(new StdioServerTransport(input, o.output ?? process.stdout));
  input.once('end', () => void server.close());
  await closed;
}

/** One call, as the daemon answers it. */
async function forward(
  o: SendFileMcpOptions,
  args: { path: string; caption?: string | undefined },
): Promise<{ ok: boolean; text: string }> {
  // What the socket would refuse as a bad request gets its own sentence here.
  if (args.path.length > MAX_SEND_FILE_PATH || (args.caption?.length ?? 0) > MAX_SEND_FILE_CAPTION)
    return {
      ok: false,
      text: mcpMessages(o.lang)('tooLong', { path: MAX_SEND_FILE_PATH, caption: MAX_SEND_FILE_CAPTION }),
    };
  const request = {
    op: 'send_file' as const,
    token: o.token,
    path: args.path,
    ...(args.caption ? { caption: args.caption } : {}),
  };
  try {
    // The socket is given (`opts.socket`): the paths the CLI would derive it from are not used.
    const answer = (await askDaemon(
      { runtimeDir: '' },
      request,
      { action: 'send_file', pid: '?' },
      { socket: o.socket },
    )) as {
      ok?: unknown;
      text?: unknown;
    };
    if (typeof answer?.text === 'string') return { ok: answer.ok === true, text: answer.text };
    return { ok: false, text: mcpMessages(o.lang)('daemonGone', { reason: 'bad answer' }) };
  } catch (err) {
    const reason = isAppError(err) ? err.code : err instanceof Error ? err.message : String(err);
    return { ok: false, text: mcpMessages(o.lang)('daemonGone', { reason }) };
  }
}
