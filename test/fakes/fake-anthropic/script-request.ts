import type { ScriptRequest, ScriptToolResult } from './fake-anthropic-types.js';

type Block = Record<string, unknown>;
type Message = { role?: unknown; content?: unknown };

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter((b): b is Block => typeof b === 'object' && b !== null) : [];
}

function textOf(content: unknown): string {
  return blocksOf(content)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

function findToolUse(messages: Message[], id: string): Block | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'assistant') continue;
    const hit = blocksOf(m.content).find((b) => b.type === 'tool_use' && b.id === id);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Digests a Messages API request body into what a script decides on: the last `role:"user"`
 * message (skipping the trailing `role:"system"` message the CLI appends), its human text
 * without `<system-reminder>` blocks, and its tool results joined to the tool uses they answer.
 */
export function toScriptRequest(body: Record<string, unknown>): ScriptRequest {
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  let last: Message | undefined;
  for (let i = messages.length - 1; i >= 0 && !last; i--) {
    if (messages[i]?.role === 'user') last = messages[i];
  }
  const blocks = blocksOf(last?.content);
  const lastUserText = blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => (b.text as string).replace(REMINDER, '').trim())
    .filter((t) => t.length > 0)
    .join('\n');
  const lastUserToolResults: ScriptToolResult[] = blocks
    .filter((b) => b.type === 'tool_result')
    .map((b) => {
      const id = String(b.tool_use_id ?? '');
      const use = findToolUse(messages, id);
      return {
        tool_use_id: id,
        content: textOf(b.content),
        is_error: b.is_error === true,
        toolName: typeof use?.name === 'string' ? use.name : undefined,
        toolInput: (use?.input as Record<string, unknown> | undefined) ?? undefined,
      };
    });
  const tools = Array.isArray(body.tools)
    ? (body.tools as Array<{ name?: unknown }>).map((t) => ({ ...t, name: String(t.name ?? '') }))
    : [];
  return {
    lastUserText,
    lastUserToolResults,
    messages,
    model: typeof body.model === 'string' ? body.model : '',
    system: body.system,
    tools,
  };
}
