import { defaultAgentScript, type AgentReply, type AgentRequest } from './agent-script.js';

/**
 * `SENDFILE: {json}` → a call of the offered send_file with that input; once its result is in, text
 * `sent-result: <result>`. Codex offers an MCP server's tools as one namespace tool
 * (`mcp__cc_linker` holding `send_file`, called with `namespace`); Qwen Code defers MCP tools behind
 * `tool_search`, so the model selects it first. Anything else: the default model.
 */
export function sendFileScript(req: AgentRequest): AgentReply {
  const m = /SENDFILE: (\{[^\n]*\})/.exec(req.lastUserText);
  if (!m?.[1]) return defaultAgentScript(req);
  const answered = req.toolResults.find((r) => /Sent the file|Not sent/.test(r));
  if (answered) return { text: `sent-result: ${answered}` };
  const args = JSON.parse(m[1]) as Record<string, unknown>;
  const direct = req.tools.find((t) => t.name.endsWith('send_file'));
  if (direct) return { toolCall: { name: direct.name, args } };
  if (req.tools.some((t) => t.name === 'mcp__cc_linker'))
    return { toolCall: { name: 'send_file', namespace: 'mcp__cc_linker', args } };
  if (req.tools.some((t) => t.name === 'tool_search') && req.toolResults.length === 0)
    return { toolCall: { name: 'tool_search', args: { query: 'select:mcp__cc-linker__send_file' } } };
  return { text: `no send_file tool among: ${req.tools.map((t) => t.name).join(', ')}` };
}
