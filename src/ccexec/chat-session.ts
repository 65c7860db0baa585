import { randomUUID } from 'node:crypto';
import type { Language } from '../core/i18n.js';
import type { ChatEventListener } from './chat-states.js';
import { GateError } from './gate-error.js';
import { loopMessages } from './loop-messages.js';
import type { ChatMessage, ModelProvider, ToolSpec } from './providers/canonical.js';
import { createTokenWatchdog } from './token-watchdog.js';
import type { ExecFn } from './exec-service.js';
import { runToolLoop, type CliAvailability, type ToolCallRecord, type ToolLoopResult } from './tool-loop.js';

/** Options of one question: cancel it with `signal`, watch it with `onEvent`. */
export interface ChatRunOptions {
  readonly signal?: AbortSignal;
  readonly onEvent?: ChatEventListener;
}

/** What a finished question returns; `events` is everything the listener saw (for `summarizeRun`). */
export type ChatRunResult = Omit<ToolLoopResult, 'messages'>;

/**
 * One conversation with one model: keeps its history, answers one question at a time (a second
 * `run` while one is running is rejected with `CCEXEC_BUSY`, so two CLI runs of one chat never
 * overlap), and can cancel the running question. Built by `createGateway().newChat()`.
 */
export interface ChatSession {
  readonly id: string;
  readonly provider: { readonly id: string; readonly model: string; readonly supportsTools: boolean };
  /** True while a question is being answered. */
  readonly running: boolean;
  /** The conversation so far (no system messages); a copy. */
  history(): ChatMessage[];
  /**
   * Answers `text`. Resolves with COMPLETE, FAILED or CANCELLED — it never rejects for a model or CLI
   * failure — and rejects with `GateError` `CCEXEC_BUSY` when another question of this chat is running.
   */
  run(text: string, options?: ChatRunOptions): Promise<ChatRunResult>;
  /** Cancels the running question (no-op when idle): the model request is closed, the CLI group killed. */
  cancel(): void;
}

/** What a session needs from its gateway. */
export interface ChatSessionDeps {
  readonly provider: ModelProvider;
  readonly exec: ExecFn;
  readonly tool: ToolSpec;
  /** Resolved before each question (the CLI check runs once per gateway, then is cached). */
  readonly cli: () => Promise<CliAvailability>;
  readonly lang: Language;
  readonly timeoutMs: number;
  readonly onToolCall?: (record: ToolCallRecord, session: ChatSession) => void | Promise<void>;
  /** The provider's server refused tools (see `ToolLoopOptions.onToolsRejected`); this chat stays plain from then on. */
  readonly onToolsRejected?: () => void;
  readonly now?: () => number;
}

/** Creates a chat session. */
export function createChatSession(deps: ChatSessionDeps): ChatSession {
  let history: ChatMessage[] = [];
  let current: AbortController | null = null;
  const watchdog = createTokenWatchdog(deps.provider.contextLimit);
  let toolsRejected = false;
  const provider = {
    id: deps.provider.id,
    model: deps.provider.model,
    get supportsTools() {
      return deps.provider.supportsTools && !toolsRejected;
    },
  };

  const session: ChatSession = {
    id: randomUUID(),
    provider,
    get running() {
      return current !== null;
    },
    history: () => [...history],
    cancel: () => current?.abort(),
    async run(text, options = {}) {
      if (current) throw new GateError('CCEXEC_BUSY', loopMessages(deps.lang)('busy'));
      const controller = new AbortController();
      current = controller;
      const outer = options.signal;
      const forward = (): void => controller.abort();
      if (outer?.aborted) controller.abort();
      else outer?.addEventListener('abort', forward, { once: true });
      try {
        const cli = await deps.cli();
        const result = await runToolLoop({
          runId: randomUUID(),
          provider: deps.provider,
          history,
          userText: text,
          exec: deps.exec,
          tool: deps.tool,
          cli,
          plainChat: toolsRejected,
          onToolsRejected: () => {
            toolsRejected = true;
            deps.onToolsRejected?.();
          },
          lang: deps.lang,
          timeoutMs: deps.timeoutMs,
          watchdog,
          signal: controller.signal,
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
          ...(deps.onToolCall ? { onToolCall: (record: ToolCallRecord) => deps.onToolCall?.(record, session) } : {}),
          ...(deps.now ? { now: deps.now } : {}),
        });
        history = result.messages;
        const { messages: _kept, ...rest } = result;
        return rest;
      } finally {
        outer?.removeEventListener('abort', forward);
        current = null;
      }
    },
  };
  return session;
}
