import { defineMessages } from '../../core/i18n.js';

/** What `cc-linker mcp` says: to a user who ran it by hand, and to the agent when the daemon is gone. */
export const mcpMessages = defineMessages({
  zh: {
    MCP_NOT_STARTED:
      'cc-linker mcp 由 cc-linker 自己为它启动的 Claude Code / ACP 智能体运行（send_file 工具），不需要手动运行：缺少 {missing}',
    daemonGone: '未发送：联系不上 cc-linker（{reason}）。',
    tooLong: '未发送：路径（最多 {path} 个字符）或说明（最多 {caption} 个字符）太长。',
  },
  en: {
    MCP_NOT_STARTED:
      'cc-linker mcp is run by cc-linker itself for the Claude Code / ACP agents it starts (the send_file tool), not by hand: {missing} is missing',
    daemonGone: 'Not sent: cc-linker cannot be reached ({reason}).',
    tooLong: 'Not sent: the path (at most {path} characters) or the caption (at most {caption}) is too long.',
  },
});
