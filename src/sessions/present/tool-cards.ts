import { structuredPatch } from 'diff';
import type { ExportedTool } from './export-session.js';

/** What every card carries: the tool's name and its result (capped; null when none was recorded). */
interface CardBase {
  name: string;
  result: string | null;
  isError: boolean;
}

/** One hunk of an edit: line numbers and its lines, each starting with `+`, `-` or ` `. */
export interface CardHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** A tool call as the transcript shows it: a shell command, a file read, an edit, a write, or anything else. */
export type ToolCard =
  | (CardBase & { kind: 'bash'; command: string; description: string | null })
  | (CardBase & { kind: 'read'; path: string; offset: number | null; limit: number | null })
  | (CardBase & { kind: 'edit'; path: string; hunks: CardHunk[]; added: number; removed: number; truncated: boolean })
  | (CardBase & { kind: 'write'; path: string; lines: string[]; totalLines: number })
  | (CardBase & { kind: 'other'; input: string });

/** Most diff or file lines one card carries (the rest is counted, not sent). */
export const CARD_LINES = 400;
/** Most characters of a command, a path or a pretty-printed input. */
const FIELD_CHARS = 4000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The card of one tool call read with `detail: true` (`readTranscript`): Claude Code's Bash, Read,
 * Edit / MultiEdit (hunks of `structuredPatch` over `old_string` → `new_string`) and Write (the
 * content as added lines) by their inputs; every other tool, and any of these whose input is not
 * the expected shape, as `other` with its input pretty-printed. Lines and fields are capped.
 *
 * @example
 *   toolCard({ name: 'Bash', input: '', result: 'ok', isError: false, detail: { input: { command: 'ls' }, result: 'ok' } })
 *   // { kind: 'bash', name: 'Bash', command: 'ls', description: null, result: 'ok', isError: false }
 */
export function toolCard(tool: ExportedTool): ToolCard {
  const input = tool.detail?.input;
  const base: CardBase = {
    name: tool.name,
    result: tool.detail ? tool.detail.result : tool.result,
    isError: tool.isError,
  };
  if (isObj(input)) {
    const path = str(input.file_path) ?? str(input.notebook_path);
    if (tool.name === 'Bash' && str(input.command) !== null)
      return { ...base, kind: 'bash', command: cap(str(input.command) ?? ''), description: str(input.description) };
    if (tool.name === 'Read' && path !== null)
      return { ...base, kind: 'read', path: cap(path), offset: num(input.offset), limit: num(input.limit) };
    if (tool.name === 'Edit' && path !== null && str(input.old_string) !== null && str(input.new_string) !== null)
      return { ...base, kind: 'edit', path: cap(path), ...hunksOf([input]) };
    if (tool.name === 'MultiEdit' && path !== null && Array.isArray(input.edits))
      return { ...base, kind: 'edit', path: cap(path), ...hunksOf(input.edits.filter(isObj)) };
    if (tool.name === 'Write' && path !== null && str(input.content) !== null) {
      const all = (str(input.content) ?? '').split('\n');
      if (all.at(-1) === '') all.pop();
      return { ...base, kind: 'write', path: cap(path), lines: all.slice(0, CARD_LINES), totalLines: all.length };
    }
  }
  const pretty = input === undefined ? tool.input : JSON.stringify(input, null, 2);
  return { ...base, kind: 'other', input: cap(pretty ?? '') };
}

/** The hunks of one or more `old_string` → `new_string` edits, in order, with added/removed counts. */
function hunksOf(edits: Obj[]): { hunks: CardHunk[]; added: number; removed: number; truncated: boolean } {
  const hunks: CardHunk[] = [];
  let added = 0;
  let removed = 0;
  let lines = 0;
  let truncated = false;
  for (const edit of edits) {
    const before = str(edit.old_string) ?? '';
    const after = str(edit.new_string) ?? '';
    for (const h of structuredPatch('a', 'b', withNewline(before), withNewline(after), '', '', { context: 3 }).hunks) {
      const body = h.lines.filter((l) => !l.startsWith('\\'));
      added += body.filter((l) => l.startsWith('+')).length;
      removed += body.filter((l) => l.startsWith('-')).length;
      if (lines >= CARD_LINES) {
        truncated = true;
        continue;
      }
      const kept = body.slice(0, CARD_LINES - lines);
      truncated ||= kept.length < body.length;
      lines += kept.length;
      hunks.push({
        oldStart: h.oldStart,
        oldLines: h.oldLines,
        newStart: h.newStart,
        newLines: h.newLines,
        lines: kept,
      });
    }
  }
  return { hunks, added, removed, truncated };
}

/** A final newline on both sides, so a change on the last line diffs as that line alone. */
function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

function cap(text: string): string {
  return text.length <= FIELD_CHARS ? text : `${text.slice(0, FIELD_CHARS)}…`;
}
