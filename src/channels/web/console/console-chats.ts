import { randomUUID } from 'node:crypto';
import type { ChatEvent } from '../../../ccexec/chat-states.js';
import { isAppError } from '../../../core/app-error.js';
import type { Logger } from '../../../core/logger.js';
import { escapeHtml } from '../http/escape-html.js';
import { renderMarkdown } from '../render-markdown.js';
import type { ConsoleChatSession, ConsoleGateway } from './console-gateway.js';
import type { ConsoleEvent } from './event-hub.js';

/** One block of a chat as the page draws it. Model-supplied strings stay raw here: the page sets them with textContent. */
export type ChatItem =
  | { kind: 'user'; id: string; text: string }
  /** Assistant text, already rendered by the safe markdown renderer. */
  | { kind: 'assistant'; id: string; html: string; streaming: boolean }
  | ToolItem
  | { kind: 'notice'; id: string; text: string }
  | { kind: 'end'; id: string; state: 'COMPLETE' | 'FAILED' | 'CANCELLED'; message?: string; durationMs?: number };

/** A ToolCallCard: one per call, updated in place through TOOL_CALLED → TOOL_RUNNING → TOOL_DONE. */
export interface ToolItem {
  kind: 'tool';
  id: string;
  state: 'TOOL_CALLED' | 'TOOL_RUNNING' | 'TOOL_DONE';
  commandLine: string;
  round: number;
  /** Set while running: ms already elapsed when the event was sent, and the limit. */
  elapsedMs?: number;
  timeoutMs?: number;
  decision?: string;
  reason?: string;
  /** An allowed call stopped before the CLI exited (`cancelled`, `timeout`): the card says so, not "done". */
  stopped?: string;
  exitCode?: number;
  durationMs?: number;
  preview?: string;
  /** True when the full output has more than the preview (the card offers "expand"). */
  expandable?: boolean;
}

/** A chat as the page loads it. */
export interface ChatView {
  id: string;
  provider: { id: string; model: string; supportsTools: boolean };
  running: boolean;
  /** The run's current stage (THINKING, TOOL_RUNNING, FINALIZING, …) while running. */
  phase: string | null;
  items: ChatItem[];
  title: string;
}

interface ChatEntry {
  session: ConsoleChatSession;
  items: ChatItem[];
  phase: string | null;
  outputs: Map<string, { stdout: string; stderr: string }>;
  createdAt: number;
}

/** Chats kept per server run; the oldest idle one is dropped beyond this. */
export const MAX_CHATS = 20;
const TEXT_PUBLISH_MS = 60;

/**
 * The console's AI chats: creates gateway chat sessions, runs one question at a time per chat,
 * and turns the gateway's state events into page items — one assistant bubble per stretch of
 * text, one ToolCallCard per tool call that keeps its place (same item id) through its states —
 * published over SSE as `chat.item` / `chat.run`. Full tool output stays here for "expand".
 */
export class ConsoleChats {
  private readonly chats = new Map<string, ChatEntry>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly gateway: ConsoleGateway,
    private readonly publish: (event: ConsoleEvent) => void,
    private readonly logger: Logger,
  ) {}

  create(opts: { provider?: string; model?: string }): ChatView {
    const session = this.gateway.newChat(opts);
    const entry: ChatEntry = { session, items: [], phase: null, outputs: new Map(), createdAt: Date.now() };
    this.chats.set(session.id, entry);
    this.evict();
    return this.view(session.id, entry);
  }

  list(): Array<Omit<ChatView, 'items'>> {
    return [...this.chats.entries()].reverse().map(([id, e]) => {
      const { items: _items, ...rest } = this.view(id, e);
      return rest;
    });
  }

  get(id: string): ChatView | null {
    const e = this.chats.get(id);
    return e ? this.view(id, e) : null;
  }

  output(chatId: string, itemId: string): { stdout: string; stderr: string } | null {
    return this.chats.get(chatId)?.outputs.get(itemId) ?? null;
  }

  /** Starts a question; `busy` when this chat is already answering one, `missing` for an unknown chat. */
  send(chatId: string, text: string): 'started' | 'busy' | 'missing' {
    const e = this.chats.get(chatId);
    if (!e) return 'missing';
    if (e.session.running || e.phase !== null) return 'busy';
    this.upsert(chatId, e, { kind: 'user', id: `u-${randomUUID()}`, text });
    e.phase = 'THINKING';
    this.publishRun(chatId, e);
    const run = {
      assistant: null as null | { id: string; text: string; reasoning: string },
      tools: new Map<string, string>(),
      ended: false,
    };
    const onEvent = (event: ChatEvent) => {
      try {
        this.apply(chatId, e, run, event);
      } catch (err) {
        this.logger.warn('could not render a chat event', { err });
      }
    };
    void e.session.run(text, { onEvent }).then(
      () => this.finish(chatId, e, run, null),
      (err: unknown) => this.finish(chatId, e, run, err),
    );
    return 'started';
  }

  cancel(chatId: string): boolean {
    const e = this.chats.get(chatId);
    if (!e) return false;
    e.session.cancel();
    return true;
  }

  private apply(chatId: string, e: ChatEntry, run: RunState, event: ChatEvent): void {
    switch (event.type) {
      case 'THINKING':
      case 'FINALIZING':
        e.phase = event.type;
        this.publishRun(chatId, e);
        return;
      case 'text':
      case 'reasoning': {
        run.assistant ??= { id: `a-${randomUUID()}`, text: '', reasoning: '' };
        if (event.type === 'text') run.assistant.text += event.delta;
        else run.assistant.reasoning += event.delta;
        this.scheduleText(chatId, e, run.assistant, true);
        return;
      }
      case 'notice':
        this.upsert(chatId, e, { kind: 'notice', id: `n-${randomUUID()}`, text: event.message });
        return;
      case 'TOOL_CALLED':
      case 'TOOL_RUNNING':
      case 'TOOL_DONE': {
        if (run.assistant) this.flushText(chatId, e, run.assistant, false);
        run.assistant = null;
        const key = `${event.round}:${event.callId}`;
        let id = run.tools.get(key);
        if (!id) {
          id = `t-${randomUUID()}`;
          run.tools.set(key, id);
        }
        const prev = e.items.find((i): i is ToolItem => i.id === id && i.kind === 'tool');
        const item: ToolItem = {
          ...(prev ?? {}),
          kind: 'tool',
          id,
          state: event.type,
          commandLine: event.commandLine,
          round: event.round,
        };
        if (event.type === 'TOOL_RUNNING') {
          item.elapsedMs = Math.max(0, Date.now() - event.startedAt);
          item.timeoutMs = event.timeoutMs;
        }
        if (event.type === 'TOOL_DONE') {
          delete item.elapsedMs;
          item.decision = event.decision;
          item.exitCode = event.exitCode;
          item.durationMs = event.durationMs;
          item.preview = event.preview;
          if (event.reason !== undefined) item.reason = event.reason;
          if (event.stopped) item.stopped = event.stopped;
          item.expandable = event.stdout.replace(/\n+$/, '') !== event.preview || event.stderr.trim().length > 0;
          e.outputs.set(id, { stdout: event.stdout, stderr: event.stderr });
        }
        e.phase = event.type;
        this.upsert(chatId, e, item);
        this.publishRun(chatId, e);
        return;
      }
      case 'COMPLETE':
        this.end(chatId, e, run, {
          kind: 'end',
          id: `e-${randomUUID()}`,
          state: 'COMPLETE',
          durationMs: event.durationMs,
        });
        return;
      case 'FAILED':
        this.end(chatId, e, run, { kind: 'end', id: `e-${randomUUID()}`, state: 'FAILED', message: event.message });
        return;
      case 'CANCELLED':
        this.end(chatId, e, run, { kind: 'end', id: `e-${randomUUID()}`, state: 'CANCELLED' });
        return;
    }
  }

  private end(chatId: string, e: ChatEntry, run: RunState, item: Extract<ChatItem, { kind: 'end' }>): void {
    if (run.ended) return;
    run.ended = true;
    if (run.assistant) this.flushText(chatId, e, run.assistant, false);
    run.assistant = null;
    this.upsert(chatId, e, item);
    e.phase = null;
    this.publishRun(chatId, e);
  }

  /** After `run()` settles: a run that ended without a terminal event (or threw) still ends visibly. */
  private finish(chatId: string, e: ChatEntry, run: RunState, err: unknown): void {
    if (err !== null) this.logger.warn('chat run rejected', { err });
    const message = err === null ? undefined : isAppError(err) ? err.userMessage : String(err);
    this.end(chatId, e, run, {
      kind: 'end',
      id: `e-${randomUUID()}`,
      state: err === null ? 'COMPLETE' : 'FAILED',
      ...(message ? { message } : {}),
    });
  }

  private scheduleText(chatId: string, e: ChatEntry, a: NonNullable<RunState['assistant']>, streaming: boolean): void {
    if (this.timers.has(a.id)) return;
    const timer = setTimeout(() => {
      this.timers.delete(a.id);
      this.flushText(chatId, e, a, streaming);
    }, TEXT_PUBLISH_MS);
    timer.unref();
    this.timers.set(a.id, timer);
  }

  private flushText(chatId: string, e: ChatEntry, a: NonNullable<RunState['assistant']>, streaming: boolean): void {
    const t = this.timers.get(a.id);
    if (t) clearTimeout(t);
    this.timers.delete(a.id);
    const reasoning = a.reasoning.trim()
      ? `<details class="reasoning"><summary>…</summary><blockquote>${escapeHtml(a.reasoning.trim()).replace(/\n/g, '<br>')}</blockquote></details>`
      : '';
    this.upsert(chatId, e, { kind: 'assistant', id: a.id, html: reasoning + renderMarkdown(a.text), streaming });
  }

  private upsert(chatId: string, e: ChatEntry, item: ChatItem): void {
    const at = e.items.findIndex((i) => i.id === item.id);
    if (at >= 0) e.items[at] = item;
    else e.items.push(item);
    this.publish({ type: 'chat.item', data: { chatId, item } });
  }

  private publishRun(chatId: string, e: ChatEntry): void {
    this.publish({ type: 'chat.run', data: { chatId, running: e.phase !== null, phase: e.phase } });
  }

  private view(id: string, e: ChatEntry): ChatView {
    const first = e.items.find((i) => i.kind === 'user');
    return {
      id,
      provider: { ...e.session.provider },
      running: e.phase !== null,
      phase: e.phase,
      items: [...e.items],
      title: first && first.kind === 'user' ? first.text.slice(0, 60) : '',
    };
  }

  private evict(): void {
    for (const [id, e] of this.chats) {
      if (this.chats.size <= MAX_CHATS) return;
      if (e.phase === null) this.chats.delete(id);
    }
  }
}

interface RunState {
  assistant: { id: string; text: string; reasoning: string } | null;
  tools: Map<string, string>;
  ended: boolean;
}
