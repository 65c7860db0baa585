import fs from 'node:fs';
import { handleSource, readJsonlLines, type LineView } from '../scan/read-jsonl-lines.js';
import { humanText } from '../scan/line-facts.js';
import { promptTextOf, turnStep } from './turn-step.js';

/** What to look for in one session file. */
export interface TurnQuery {
  /** The prompt exactly as cc-linker sent it to Claude Code. */
  prompt: string;
  /**
   * The file's size in bytes when the run began: the prompt's line starts at or after it, so an
   * identical earlier prompt is never taken for this one. The offset does not depend on any clock.
   */
  fromOffset?: number;
  /**
   * The earliest time the prompt's line may carry (ISO): used instead of the offset when the file
   * is now shorter than `fromOffset` (it was rewritten), or when no offset is known.
   */
  after?: string;
  /** Prompts cc-linker sent to continue this turn after an interruption: part of the turn, not a new one. */
  continuations?: readonly string[];
}

/** What the transcript says happened to the prompt's turn. */
export type TurnFinding =
  /** The prompt never reached the transcript (or the file does not exist). */
  | { state: 'absent' }
  /**
   * The turn ended: its last assistant message ended the turn (`stop_reason` `end_turn`) after
   * everything else. `text` is that message's text — what `claude -p` returns as its result.
   */
  | { state: 'finished'; text: string; thinking: string; continued: boolean; toolUses: number }
  /**
   * The prompt is there, but no answer ended the turn. `last` is the last thing that happened:
   * only the prompt, a tool call without its result, a tool result the model has not answered, a
   * text that did not end the turn, an interruption, or a continue instruction.
   */
  | { state: 'cut'; continued: boolean; toolUses: number; last: CutPoint }
  /** The file could not be read. */
  | { state: 'unreadable'; reason: string };

/** Where a cut turn stopped. */
export type CutPoint = 'prompt' | 'tool_use' | 'tool_result' | 'text' | 'interrupted' | 'continue';

/** A prompt's line is at most its JSON-escaped text (≤ 6 bytes per UTF-16 unit) plus this much. */
const PROMPT_LINE_OVERHEAD = 64 * 1024;

/**
 * Finds the user line that carries exactly `query.prompt` (after `fromOffset`, or `after`) in a
 * Claude Code session file, and what followed it up to the next prompt someone typed.
 *
 * Matching uses the line's raw content — a string in the CLI modes, one text block in the SDK
 * mode — compared as is: Claude Code keeps the prompt verbatim (leading and trailing spaces, CJK,
 * emoji, the image-reference lines cc-linker adds). Only when the content carries a
 * `<system-reminder>` block (Claude Code may put one in the same message) is it compared again
 * with those blocks removed, both sides trimmed.
 *
 * After the prompt, sub-agent lines and Claude Code's own placeholder messages (model
 * `<synthetic>`, e.g. "No response requested." written when an interrupted session is resumed)
 * are ignored; tool uses, tool results, interruptions and `query.continuations` keep the turn
 * open; the next other human prompt ends the search. Assistant content is written only once a
 * block is complete, so a turn cut while text was streaming shows no text at all.
 *
 * Reads the file once, in chunks; lines before the prompt are parsed only when short enough to
 * be it. Never throws: an unreadable file is `unreadable`, a missing one `absent`.
 */
export async function findTurn(file: string, query: TurnQuery): Promise<TurnFinding> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { state: 'absent' } : { state: 'unreadable', reason: code ?? String(err) };
  }
  try {
    const size = (await handle.stat()).size;
    const useOffset = query.fromOffset !== undefined && query.fromOffset <= size;
    const search = new TurnSearch(query, useOffset ? (query.fromOffset ?? 0) : 0, useOffset ? undefined : query.after);
    await readJsonlLines(handleSource(handle), (line) => search.line(line), { size, signal: search });
    return search.finding();
  } catch (err) {
    return { state: 'unreadable', reason: err instanceof Error ? err.message : String(err) };
  } finally {
    await handle.close();
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The state of one pass over a file (a line sink with the abort flag `readJsonlLines` checks). */
class TurnSearch {
  aborted = false;
  private found = false;
  private continued = false;
  private toolUses = 0;
  private last: CutPoint = 'prompt';
  /** The newest assistant message since anything else happened (its text blocks so far). */
  private message: { id: string; texts: string[]; tool: boolean; ends: boolean } | null = null;
  private readonly thinking: string[] = [];
  private readonly maxPromptLine: number;
  private readonly afterMs: number | null;
  private readonly continuations: ReadonlySet<string>;

  constructor(
    private readonly query: TurnQuery,
    private readonly fromOffset: number,
    after: string | undefined,
  ) {
    this.maxPromptLine = query.prompt.length * 6 + PROMPT_LINE_OVERHEAD;
    const ms = after === undefined ? Number.NaN : Date.parse(after);
    this.afterMs = Number.isNaN(ms) ? null : ms;
    this.continuations = new Set(query.continuations ?? []);
  }

  line(l: LineView): void {
    if (this.aborted) return;
    if (!this.found) {
      if (l.offset < this.fromOffset || l.truncated || l.end - l.start > this.maxPromptLine) return;
      const value = parse(l);
      if (value && this.isPrompt(value)) this.found = true;
      return;
    }
    if (l.truncated) {
      // Too long to read whole: tool output or a large tool input — the turn was still working.
      this.open('tool_result');
      return;
    }
    const value = parse(l);
    if (!value || value.isSidechain === true) return;
    const step = turnStep(value);
    if (!step) return;
    if (step.kind === 'prompt') {
      if (!this.continuations.has(step.text)) {
        this.aborted = true; // someone's next prompt: this turn is over
        return;
      }
      this.continued = true;
      this.open('continue');
      return;
    }
    if (step.kind !== 'assistant') {
      this.open(step.kind);
      return;
    }
    this.last = step.toolUses > 0 ? 'tool_use' : 'text';
    this.toolUses += step.toolUses;
    if (step.thinking) this.thinking.push(step.thinking);
    if (this.message?.id !== step.id) this.message = { id: step.id, texts: [], tool: false, ends: false };
    if (step.text) this.message.texts.push(step.text);
    this.message.tool ||= step.toolUses > 0;
    this.message.ends = step.endsTurn;
  }

  finding(): TurnFinding {
    if (!this.found) return { state: 'absent' };
    const m = this.message;
    if (m && m.ends && !m.tool)
      return {
        state: 'finished',
        text: m.texts.join('\n'),
        thinking: this.thinking.join('\n'),
        continued: this.continued,
        toolUses: this.toolUses,
      };
    return { state: 'cut', continued: this.continued, toolUses: this.toolUses, last: this.last };
  }

  /** Something other than the model's message happened: the turn is open again. */
  private open(kind: 'tool_result' | 'interrupted' | 'continue'): void {
    this.last = kind;
    this.message = null;
  }

  private isPrompt(value: Obj): boolean {
    if (value.type !== 'user' || value.isSidechain === true || value.isMeta === true) return false;
    if (!isObj(value.message)) return false;
    const text = promptTextOf(value.message.content);
    if (text === null) return false;
    const same =
      text === this.query.prompt ||
      (text.includes('<system-reminder>') && humanText(text) === this.query.prompt.trim());
    if (!same) return false;
    if (this.afterMs === null || typeof value.timestamp !== 'string') return true;
    const at = Date.parse(value.timestamp);
    return Number.isNaN(at) || at >= this.afterMs;
  }
}

function parse(l: LineView): Obj | null {
  try {
    const value: unknown = JSON.parse(l.buf.toString('utf8', l.start, l.end));
    return isObj(value) ? value : null;
  } catch {
    return null;
  }
}
