import { asResultMessage, type ClaudeResultMessage } from './claude-result.js';
import type { EngineEvent } from '../engine/engine-types.js';
import { summarizeToolInput, summarizeToolResult } from './tool-summary.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Turns Claude Code's `stream-json` output (`--print --output-format stream-json --verbose`,
 * optionally `--include-partial-messages`) into `EngineEvent`s and keeps the final `result`.
 * The Agent SDK yields the same objects, so the `sdk` mode feeds its messages to `push` as well.
 *
 * Tolerant by design, because the format changes between Claude Code versions and new line types
 * appear: a line that is not JSON, an unknown `type`, hook noise (`system/hook_*`) and sub-agent
 * traffic (`parent_tool_use_id` set) are skipped, never thrown.
 *
 * Shapes it relies on (verified with CLI 2.1.332, `test/fakes/fake-anthropic/README.md`):
 * - `system/init` → `session` event (session id + model), once;
 * - `system/status` with a string `status` → `status` event;
 * - `assistant` lines, one content block each: `text`, `thinking`, `tool_use`;
 * - `stream_event` (partial mode) with raw `content_block_delta` events; the complete `assistant`
 *   line for the same `message.id` follows, so its text is NOT emitted again;
 * - `user` lines carrying `tool_result` blocks → `tool_result` events;
 * - `result` → kept in `result`.
 * Consecutive text blocks are separated by a blank line in the `text` deltas, so the streamed
 * reply reads like the transcript.
 *
 * @example
 *   const parser = new StreamJsonParser((e) => onEvent(e));
 *   run(argv, { onStdoutLine: (l) => parser.pushLine(l) });
 *   parser.result // the final `result` object, if any
 */
export class StreamJsonParser {
  sessionId: string | undefined;
  model: string | undefined;
  result: ClaudeResultMessage | undefined;
  /** Lines that were not JSON objects (skipped). */
  invalidLines = 0;
  /** Objects seen, including skipped types. */
  messages = 0;

  private readonly emit: (event: EngineEvent) => void;
  private readonly streamed = new Set<string>();
  private currentStream: string | undefined;
  private textEmitted = false;
  private textBlockOpen = false;
  private thinkingEmitted = false;

  constructor(emit: (event: EngineEvent) => void) {
    this.emit = emit;
  }

  /** Parses one stdout line; anything that is not a JSON object is counted and skipped. */
  pushLine(line: string): void {
    const trimmed = line.trim();
    if (trimmed.length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      this.invalidLines += 1;
      return;
    }
    if (!isObj(value)) {
      this.invalidLines += 1;
      return;
    }
    this.push(value);
  }

  /** Handles one message object (a parsed line, or an Agent SDK message). */
  push(message: unknown): void {
    if (!isObj(message)) return;
    this.messages += 1;
    if (message.parent_tool_use_id !== undefined && message.parent_tool_use_id !== null) return; // a sub-agent's own traffic
    switch (message.type) {
      case 'system':
        this.onSystem(message);
        return;
      case 'stream_event':
        this.onStreamEvent(message.event);
        return;
      case 'assistant':
        this.onAssistant(message.message);
        return;
      case 'user':
        this.onUser(message.message);
        return;
      case 'result': {
        const result = asResultMessage(message);
        if (result) {
          this.result = result;
          if (!this.sessionId && typeof result.session_id === 'string' && result.session_id.length > 0)
            this.sessionId = result.session_id;
        }
        return;
      }
      default:
        return; // unknown types come and go between versions
    }
  }

  private onSystem(m: Obj): void {
    if (m.subtype === 'init') {
      const id = str(m.session_id);
      if (!id || this.sessionId === id) return;
      this.sessionId = id;
      this.model = str(m.model) ?? this.model;
      this.emit({ type: 'session', sessionId: id, ...(this.model ? { model: this.model } : {}) });
      return;
    }
    if (m.subtype === 'status' && typeof m.status === 'string' && m.status.length > 0)
      this.emit({ type: 'status', status: m.status });
  }

  private onStreamEvent(event: unknown): void {
    if (!isObj(event)) return;
    if (event.type === 'message_start') {
      this.currentStream = isObj(event.message) ? str(event.message.id) : undefined;
      return;
    }
    if (event.type === 'content_block_start') {
      this.textBlockOpen = false;
      return;
    }
    if (event.type !== 'content_block_delta' || !isObj(event.delta)) return;
    const delta = event.delta;
    if (delta.type === 'text_delta' && typeof delta.text === 'string') {
      this.markStreamed();
      this.emitText(delta.text, !this.textBlockOpen);
      this.textBlockOpen = true;
    } else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') {
      this.markStreamed();
      this.emitThinking(delta.thinking, false);
    }
  }

  private onAssistant(message: unknown): void {
    if (!isObj(message)) return;
    if (!this.model && typeof message.model === 'string' && message.model.length > 0) this.model = message.model;
    const alreadyStreamed = typeof message.id === 'string' && this.streamed.has(message.id);
    const blocks = Array.isArray(message.content) ? message.content : [];
    for (const block of blocks) {
      if (!isObj(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') {
        if (!alreadyStreamed) this.emitText(block.text, true);
      } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
        if (!alreadyStreamed) this.emitThinking(block.thinking, true);
      } else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        this.emit({ type: 'tool_use', id: block.id, name: block.name, summary: summarizeToolInput(block.input) });
      }
    }
  }

  private onUser(message: unknown): void {
    if (!isObj(message) || !Array.isArray(message.content)) return;
    for (const block of message.content) {
      if (!isObj(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      const summary = summarizeToolResult(block.content);
      this.emit({
        type: 'tool_result',
        id: block.tool_use_id,
        ok: block.is_error !== true,
        ...(summary ? { summary } : {}),
      });
    }
  }

  private markStreamed(): void {
    if (this.currentStream) this.streamed.add(this.currentStream);
  }

  private emitText(text: string, newBlock: boolean): void {
    if (text.length === 0) return;
    const delta = newBlock && this.textEmitted ? `\n\n${text}` : text;
    this.textEmitted = true;
    this.emit({ type: 'text', delta });
  }

  private emitThinking(text: string, newBlock: boolean): void {
    if (text.length === 0) return;
    const delta = newBlock && this.thinkingEmitted ? `\n\n${text}` : text;
    this.thinkingEmitted = true;
    this.emit({ type: 'thinking', delta });
  }
}
