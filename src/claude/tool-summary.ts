/** Longest one-line summary of a tool input or result. */
const MAX_SUMMARY = 120;

/** The input fields that say what a tool call does, most telling first. */
const TELLING_FIELDS = [
  'command',
  'file_path',
  'notebook_path',
  'path',
  'pattern',
  'url',
  'query',
  'description',
  'prompt',
  'skill',
];

/**
 * One line for humans saying what a tool call does — `npm test` for Bash, `src/a.ts` for Edit —
 * so a chat card can show `Bash: npm test` without dumping the whole input.
 *
 * @example summarizeToolInput('Bash', { command: 'npm test\n' }) // 'npm test'
 */
export function summarizeToolInput(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const obj = input as Record<string, unknown>;
  for (const key of TELLING_FIELDS) {
    const v = obj[key];
    if (typeof v === 'string' && v.trim().length > 0) return clip(v);
  }
  const first = Object.values(obj).find((v): v is string => typeof v === 'string' && v.trim().length > 0);
  return first ? clip(first) : '';
}

/** `Bash: npm test` — the `PermissionRequest.summary` shape. */
export function describeToolCall(toolName: string, input: unknown): string {
  const summary = summarizeToolInput(input);
  return summary ? `${toolName}: ${summary}` : toolName;
}

/** The first line of a tool_result's content (a string or text blocks), clipped. */
export function summarizeToolResult(content: unknown): string {
  if (typeof content === 'string') return clip(content);
  if (Array.isArray(content)) {
    const text = content
      .map((b) =>
        typeof b === 'object' && b !== null && typeof (b as { text?: unknown }).text === 'string'
          ? (b as { text: string }).text
          : '',
      )
      .join(' ');
    return clip(text);
  }
  return '';
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line;
}
