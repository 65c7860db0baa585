/** Longest one-line summary of a tool call or its output. */
const MAX_SUMMARY = 120;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A readable name for each ACP tool kind (the protocol's `ToolKind`). */
const KIND_NAMES: Record<string, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Shell',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Mode',
  other: 'Tool',
};

/** The input fields that say what a tool call does, most telling first. */
const TELLING_FIELDS = ['command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query', 'description'];

/**
 * The shell command of a tool call's input, when it has one: `command` / `cmd` as a string, or as
 * an argv whose last element is the script (Codex sends `["/bin/bash", "-lc", "<cmd>"]`).
 */
export function commandOf(rawInput: unknown): string | undefined {
  if (!isObj(rawInput)) return undefined;
  for (const key of ['command', 'cmd']) {
    const v = rawInput[key];
    if (typeof v === 'string' && v.trim().length > 0) return v.trim();
    if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) {
      const last = (v as string[]).at(-1) as string;
      return (v.length >= 3 && /^-\w*c$/.test(v[v.length - 2] as string) ? last : (v as string[]).join(' ')).trim();
    }
  }
  return undefined;
}

/**
 * Name and one-line summary of an ACP tool call for a `tool_use` event or a permission card: the
 * name is the agent's own tool name (`name`, or Claude's `_meta.claudeCode.toolName`) else the kind
 * (`Shell` for execute); the summary is the command or another telling input field, else the title.
 *
 * @example describeAcpTool({ kind: 'execute', title: 'echo hi', rawInput: { command: 'echo hi' } }) // { name: 'Shell', summary: 'echo hi' }
 */
export function describeAcpTool(call: Obj): { name: string; summary: string } {
  const meta = isObj(call._meta) && isObj(call._meta.claudeCode) ? call._meta.claudeCode : {};
  const own = [call.name, meta.toolName].find((v): v is string => typeof v === 'string' && v.length > 0);
  const kind = typeof call.kind === 'string' ? call.kind : 'other';
  const name = own ?? KIND_NAMES[kind] ?? clip(kind);
  let summary = commandOf(call.rawInput);
  if (!summary && isObj(call.rawInput)) {
    const input = call.rawInput;
    summary = TELLING_FIELDS.map((k) => input[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  }
  if (!summary && typeof call.title === 'string') summary = call.title;
  return { name, summary: clip(summary ?? '') };
}

/** Where agents put a command's output in `rawOutput` (OpenCode: `output`; Codex: the others). */
const OUTPUT_FIELDS = ['output', 'formatted_output', 'aggregated_output', 'stdout'];

/** The first words of a tool call's output: its text content blocks, else the output in `rawOutput`. */
export function summarizeToolOutput(content: unknown, rawOutput: unknown): string {
  if (Array.isArray(content)) {
    const text = content
      .map((c) => (isObj(c) && isObj(c.content) && typeof c.content.text === 'string' ? c.content.text : ''))
      .join(' ');
    if (text.trim()) return clip(text);
  }
  if (typeof rawOutput === 'string') return clip(rawOutput);
  if (isObj(rawOutput)) {
    const out = OUTPUT_FIELDS.map((k) => rawOutput[k]).find(
      (v): v is string => typeof v === 'string' && v.trim() !== '',
    );
    if (out) return clip(out);
  }
  return '';
}

/** One line, at most `MAX_SUMMARY` characters. */
export function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line;
}
