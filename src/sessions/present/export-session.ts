import fs from 'node:fs';
import { blocksText, humanText } from '../scan/line-facts.js';
import { handleSource, readJsonlLines } from '../scan/read-jsonl-lines.js';
import type { SessionEntry } from '../registry/registry-schema.js';
import { readerOf } from '../scan/agent-files/agent-readers.js';

export const EXPORT_FORMATS = ['markdown', 'json', 'text'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A tool call of an assistant message, with its result, both summarised. */
export interface ExportedTool {
  name: string;
  /** The input as compact JSON, cut to `SUMMARY_CHARS`. */
  input: string;
  /** The result text, cut to `SUMMARY_CHARS`; null when no result was recorded. */
  result: string | null;
  isError: boolean;
  /** The input as recorded, uncut (only with `toolInputs: true`: the changed-files view needs edits whole). */
  value?: unknown;
}

/** One message of the transcript: a human prompt or one assistant API message. */
export interface ExportedMessage {
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  /** Thinking blocks (only with `thinking: true`). */
  thinking?: string[];
  tools?: ExportedTool[];
}

/** Characters kept of tool inputs and results. */
export const SUMMARY_CHARS = 300;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a session file into its messages in order, streaming: human prompts (as in the scanner:
 * no tool results, meta lines, slash-command wrappers, sidechains), and one message per assistant
 * API message (its per-block lines joined by `message.id`), with tool calls and their results
 * attached and summarised. Thinking is kept only when asked. Invalid and over-long lines are
 * skipped. The message count equals the scanner's `messageCount`.
 */
export async function readTranscript(
  file: string,
  opts: { thinking: boolean; maxLineBytes?: number; toolInputs?: boolean },
): Promise<ExportedMessage[]> {
  const messages: ExportedMessage[] = [];
  const byMessageId = new Map<string, ExportedMessage>();
  const toolsById = new Map<string, ExportedTool>();
  const fh = await fs.promises.open(file, 'r');
  try {
    await readJsonlLines(
      handleSource(fh),
      (l) => {
        if (l.truncated || l.buf[l.start] !== 0x7b) return;
        let v: unknown;
        try {
          v = JSON.parse(l.buf.toString('utf8', l.start, l.end));
        } catch {
          return;
        }
        if (!isObj(v) || v.isSidechain === true || !isObj(v.message)) return;
        const timestamp = typeof v.timestamp === 'string' ? v.timestamp : null;
        const content = v.message.content;
        if (v.type === 'user') {
          if (v.isMeta === true || v.isCompactSummary === true) return;
          if (Array.isArray(content) && content.some((b) => isObj(b) && b.type === 'tool_result')) {
            for (const b of content)
              if (isObj(b) && b.type === 'tool_result' && typeof b.tool_use_id === 'string')
                attachResult(toolsById.get(b.tool_use_id), b);
            return;
          }
          const text = humanText(content);
          if (text !== null) messages.push({ role: 'user', timestamp, text });
          return;
        }
        if (v.type !== 'assistant') return;
        const id = typeof v.message.id === 'string' ? v.message.id : null;
        let msg = id ? byMessageId.get(id) : undefined;
        if (!msg) {
          msg = { role: 'assistant', timestamp, text: '' };
          messages.push(msg);
          if (id) byMessageId.set(id, msg);
        }
        const text = blocksText(content);
        if (text) msg.text = msg.text ? `${msg.text}\n\n${text}` : text;
        if (!Array.isArray(content)) return;
        for (const b of content) {
          if (!isObj(b)) continue;
          if (b.type === 'thinking' && opts.thinking && typeof b.thinking === 'string' && b.thinking.trim())
            (msg.thinking ??= []).push(b.thinking);
          if (b.type === 'tool_use') {
            const tool: ExportedTool = {
              name: typeof b.name === 'string' ? b.name : 'tool',
              input: cut(JSON.stringify(b.input ?? {})),
              result: null,
              isError: false,
              ...(opts.toolInputs ? { value: b.input ?? {} } : {}),
            };
            (msg.tools ??= []).push(tool);
            if (typeof b.id === 'string') toolsById.set(b.id, tool);
          }
        }
      },
      { maxLineBytes: opts.maxLineBytes },
    );
  } finally {
    await fh.close();
  }
  return messages;
}

/**
 * The transcript of any agent's session: Claude Code's through `readTranscript`, another agent's
 * through its reader (prompts and answers in order; tool calls are not part of those formats'
 * messages). Throws like `readTranscript` when the file cannot be read (ENOENT when there is none).
 *
 * @example
 *   const messages = await readSessionTranscript(id, entry, { thinking: false });
 */
export async function readSessionTranscript(
  id: string,
  entry: Pick<SessionEntry, 'agent' | 'jsonl_path'>,
  opts: { thinking: boolean; maxLineBytes?: number; toolInputs?: boolean },
): Promise<ExportedMessage[]> {
  const file = entry.jsonl_path;
  if (!file) throw Object.assign(new Error('no session file'), { code: 'ENOENT' });
  const reader = readerOf(entry.agent);
  if (!reader) return readTranscript(file, opts);
  await fs.promises.access(file, fs.constants.R_OK);
  return (await reader.transcript(file, id, { maxLineBytes: opts.maxLineBytes })).map((m) => ({
    role: m.role,
    timestamp: m.timestamp,
    text: m.text,
  }));
}

/** Metadata printed at the top of an export. */
export interface TranscriptMeta {
  id: string;
  title: string;
  entry: SessionEntry;
}

/**
 * Renders a transcript. `markdown`: a heading per message, tool calls as quoted lines;
 * `text`: plain blocks (both name the agent when it is not Claude Code); `json`:
 * `{session_id, agent, title, cwd, created_at, last_active, messages}`.
 * Times are the lines' ISO timestamps, so an export is the same wherever it is made.
 */
export function renderTranscript(meta: TranscriptMeta, messages: ExportedMessage[], format: ExportFormat): string {
  if (format === 'json') {
    const { entry } = meta;
    return `${JSON.stringify({ session_id: meta.id, agent: entry.agent, title: meta.title, cwd: entry.cwd, project_name: entry.project_name, created_at: entry.created_at, last_active: entry.last_active, message_count: messages.length, messages }, null, 2)}\n`;
  }
  const out: string[] = [];
  if (format === 'markdown') {
    out.push(
      `# ${meta.title}`,
      '',
      `- Session: \`${meta.id}\``,
      ...(meta.entry.agent === 'claude' ? [] : [`- Agent: ${meta.entry.agent}`]),
      `- Project: \`${meta.entry.cwd}\``,
      `- Created: ${meta.entry.created_at}`,
      `- Last active: ${meta.entry.last_active}`,
      `- Messages: ${messages.length}`,
      '',
    );
    for (const m of messages) {
      out.push(`## ${m.role === 'user' ? '👤 User' : '🤖 Assistant'}${m.timestamp ? ` · ${m.timestamp}` : ''}`, '');
      for (const t of m.thinking ?? []) out.push(...t.split('\n').map((line) => `> 💭 ${line}`), '');
      if (m.text) out.push(m.text, '');
      for (const tool of m.tools ?? []) {
        out.push(`> 🔧 **${tool.name}** \`${tool.input.replace(/`/g, "'")}\``);
        if (tool.result !== null) out.push(`> ${tool.isError ? '⚠️' : '→'} ${oneLine(tool.result)}`);
        out.push('');
      }
    }
    return `${out.join('\n').trimEnd()}\n`;
  }
  out.push(meta.title, `Session: ${meta.id}`);
  if (meta.entry.agent !== 'claude') out.push(`Agent: ${meta.entry.agent}`);
  out.push(`Project: ${meta.entry.cwd}`, `Messages: ${messages.length}`, '');
  for (const m of messages) {
    out.push(`[${m.timestamp ?? '-'}] ${m.role === 'user' ? 'User' : 'Assistant'}:`);
    for (const t of m.thinking ?? []) out.push(`  (thinking) ${oneLine(t)}`);
    if (m.text) out.push(m.text);
    for (const tool of m.tools ?? [])
      out.push(
        `  [tool] ${tool.name} ${tool.input}${tool.result !== null ? ` => ${tool.isError ? '(error) ' : ''}${oneLine(tool.result)}` : ''}`,
      );
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function attachResult(tool: ExportedTool | undefined, block: Obj): void {
  if (!tool) return;
  const c = block.content;
  const text =
    typeof c === 'string'
      ? c
      : Array.isArray(c)
        ? c
            .map((x) =>
              isObj(x) && typeof x.text === 'string' ? x.text : isObj(x) && x.type === 'image' ? '[image]' : '',
            )
            .join('\n')
        : '';
  tool.result = cut(text);
  tool.isError = block.is_error === true;
}

function cut(text: string): string {
  return text.length <= SUMMARY_CHARS ? text : `${text.slice(0, SUMMARY_CHARS)}… (${text.length} chars)`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
