import { isAppError } from '../core/app-error.js';
import type { Language } from '../core/i18n.js';
import { redact } from '../core/redact.js';
import {
  commandLineOf,
  previewOf,
  type ChatEvent,
  type ChatEventListener,
  type NoticeCode,
  type TerminalState,
  type ToolCallDecision,
} from './chat-states.js';
import { loopMessages } from './loop-messages.js';
import type { ChatMessage, ModelProvider, ProviderEvent, ToolCall, ToolSpec } from './providers/canonical.js';
import { plainChatGuardMessage } from './providers/plain-chat-guard.js';
import { ProviderError } from './providers/provider-error.js';
import type { ExecFn } from './exec-service.js';
import { parseToolCall, type ParsedToolCall } from './parse-tool-call.js';
import type { TokenWatchdog } from './token-watchdog.js';
import { dispatchToolCall, EXIT_DENIED, type ToolOutcome } from './tool-dispatcher.js';

/**
 * Tool rounds per question. Three, so a lookup in two steps (search, then show the note found) fits
 * with one to spare, while a model that keeps calling cannot loop for ever.
 */
export const MAX_TOOL_ROUNDS = 3;

/** Whether `cc_exec` may be offered at all, and if not why (CLI missing, too old, broken). */
export type CliAvailability = { readonly available: true } | { readonly available: false; readonly reason: string };

/**
 * One tool call as the loop reports it (`onToolCall`), for the audit log: what was asked, what was
 * decided and what came back. The audit log hashes `stdout`, never stores it.
 */
export interface ToolCallRecord {
  readonly callId: string;
  readonly name: string;
  readonly argv: readonly string[] | null;
  readonly decision: ToolCallDecision;
  readonly exitCode: number;
  readonly durationMs: number;
  readonly stdout: string;
  readonly reason?: string;
}

/** Everything one question needs. `history` has no system messages: the loop adds its own. */
export interface ToolLoopOptions {
  readonly runId: string;
  readonly provider: ModelProvider;
  readonly history: readonly ChatMessage[];
  readonly userText: string;
  readonly exec: ExecFn;
  /** The `cc_exec` tool (from `buildCcExecTool()`). */
  readonly tool: ToolSpec;
  readonly cli: CliAvailability;
  /** Plain chat even though the provider offers tools (its server refused them earlier). */
  readonly plainChat?: boolean;
  /**
   * Called when a `toolsAuto` provider's server refused the tools and the question was asked again
   * as plain chat (a `tools-rejected` notice), so the caller stops offering them.
   */
  readonly onToolsRejected?: () => void;
  readonly lang: Language;
  /** Shown on TOOL_RUNNING so a UI can draw its timer against the limit. */
  readonly timeoutMs: number;
  readonly watchdog: TokenWatchdog;
  readonly signal?: AbortSignal;
  readonly onEvent?: ChatEventListener;
  /** Called once per tool call the model made (run, duplicate, skipped or refused), for the audit log. */
  readonly onToolCall?: (record: ToolCallRecord) => void | Promise<void>;
  readonly maxRounds?: number;
  readonly now?: () => number;
}

/** How a question ended, its events, and the conversation to keep. */
export interface ToolLoopResult {
  readonly state: TerminalState;
  /** The final answer on COMPLETE; empty otherwise. */
  readonly answer: string;
  /**
   * The conversation after this question, without system messages: `history` (possibly trimmed by
   * the watchdog) + the user message + the assistant/tool turns + the answer on COMPLETE; exactly
   * `history` on FAILED or CANCELLED, so a half-finished turn never reaches the next request.
   */
  readonly messages: ChatMessage[];
  readonly events: ChatEvent[];
  readonly toolCalls: number;
  readonly error?: { readonly code: string; readonly message: string };
}

class Cancelled extends Error {}

/**
 * Answers one question: streams the model, runs its `cc_exec` calls through the dispatcher, feeds the
 * results back, and emits the chat states (`chat-states.ts`) as it goes.
 *
 * Rules: each call the model makes is read once (`parseToolCall`) as soon as its turn ends; at most
 * `MAX_TOOL_ROUNDS` rounds; calls run one at a time, so only the first call of a turn runs (the others
 * get a note result and a `skipped` card with exit 126, "not run"); an identical call (same dedup key)
 * returns the earlier result without running again; at the limit a note asks the model to answer with
 * what it has and tools are no longer offered; before each request the watchdog may trim older turns.
 * A provider without tools gets plain chat with the anti-hallucination guard; so does a `toolsAuto`
 * provider whose server refuses the tools on the first request (`tools_rejected`): the request is sent
 * again without them, with a `tools-rejected` notice and `onToolsRejected`. Never rejects: failures
 * end in FAILED, an abort of `signal` at any stage in CANCELLED (the exec service kills the running
 * CLI's group).
 */
export async function runToolLoop(opts: ToolLoopOptions): Promise<ToolLoopResult> {
  const t = loopMessages(opts.lang);
  const now = opts.now ?? Date.now;
  const started = now();
  const max = opts.maxRounds ?? MAX_TOOL_ROUNDS;
  const events: ChatEvent[] = [];
  const emit = (event: DistributiveOmit<ChatEvent, 'runId' | 'at'>): void => {
    const full = { ...event, runId: opts.runId, at: now() } as ChatEvent;
    events.push(full);
    try {
      opts.onEvent?.(full);
    } catch {
      // A UI that throws must not break the run.
    }
  };
  const notice = (code: NoticeCode, message: string): void => emit({ type: 'notice', code, message });
  const end = (state: TerminalState, extra: Partial<ToolLoopResult> = {}): ToolLoopResult => ({
    state,
    answer: '',
    messages: [...opts.history],
    events,
    toolCalls,
    ...extra,
  });

  let plain = !opts.provider.supportsTools || opts.plainChat === true;
  let toolsOn = !plain && opts.cli.available;
  let system: ChatMessage[] = plain
    ? [plainChatGuardMessage(opts.lang)]
    : [
        { role: 'system', content: t('systemPrompt', { max }) },
        ...(opts.cli.available
          ? []
          : [{ role: 'system' as const, content: t('toolsUnavailable', { reason: opts.cli.reason }) }]),
      ];
  let history: ChatMessage[] = [...opts.history];
  const turn: ChatMessage[] = [{ role: 'user', content: opts.userText }];
  const seen = new Map<string, ToolOutcome>();
  let rounds = 0;
  let toolCalls = 0;
  let trimmedNoticed = false;

  const checkAbort = (): void => {
    if (opts.signal?.aborted) throw new Cancelled();
  };

  emit({ type: 'THINKING' });
  if (!plain && !opts.cli.available) notice('tools-unavailable', t('noticeUnavailable', { reason: opts.cli.reason }));
  try {
    for (;;) {
      checkAbort();
      const offer = toolsOn && rounds < max;
      const tools = offer ? [opts.tool] : [];
      const fit = opts.watchdog.fit([...system, ...history, ...turn], system.length + history.length, tools);
      if (fit.trimmed) {
        history = fit.messages.slice(system.length, fit.messages.length - turn.length);
        if (!trimmedNoticed) notice('history-trimmed', t('noticeTrimmed'));
        trimmedNoticed = true;
      }
      let reply: Awaited<ReturnType<typeof streamTurn>>;
      try {
        reply = await streamTurn(opts.provider, fit.messages, tools, opts.signal, emit);
      } catch (err) {
        const fallBack =
          err instanceof ProviderError &&
          err.kind === 'tools_rejected' &&
          opts.provider.toolsAuto === true &&
          tools.length > 0 &&
          rounds === 0;
        if (!fallBack) throw err;
        // The server has no tool calling: the same question again, as plain chat with the guard.
        plain = true;
        toolsOn = false;
        system = [plainChatGuardMessage(opts.lang)];
        notice('tools-rejected', t('noticeToolsRejected', { provider: opts.provider.id, model: opts.provider.model }));
        opts.onToolsRejected?.();
        continue;
      }
      if (reply.inputTokens !== undefined) opts.watchdog.observe(fit.messages, tools, reply.inputTokens);
      checkAbort();

      if (reply.calls.length === 0 || !offer) {
        turn.push({ role: 'assistant', content: reply.text });
        emit({ type: 'COMPLETE', answer: reply.text, toolCalls, durationMs: now() - started });
        return {
          state: 'COMPLETE',
          answer: reply.text,
          messages: [...history, ...turn.filter((m) => m.role !== 'system')],
          events,
          toolCalls,
        };
      }

      rounds++;
      turn.push({ role: 'assistant', content: reply.text, toolCalls: reply.calls });
      const [first, ...extra] = reply.calls.map(parseToolCall) as [ParsedToolCall, ...ParsedToolCall[]];
      toolCalls++;
      const outcome = await runCall(first, rounds);
      turn.push({
        role: 'tool',
        toolCallId: first.id,
        name: first.name,
        content: outcome.content,
        ...(isFailure(outcome) ? { isError: true } : {}),
      });
      checkAbort();
      for (const call of extra) {
        toolCalls++;
        const ref = { callId: call.id, commandLine: display(call, call.argv), argv: call.argv, round: rounds };
        const reason = t('oneCallPerTurn');
        emit({ type: 'TOOL_CALLED', ...ref });
        emit({
          type: 'TOOL_DONE',
          ...ref,
          decision: 'skipped',
          exitCode: EXIT_DENIED,
          durationMs: 0,
          preview: '',
          stdout: '',
          stderr: '',
          reason,
        });
        await record(call, {
          argv: call.argv,
          decision: 'skipped',
          exitCode: EXIT_DENIED,
          durationMs: 0,
          stdout: '',
          reason,
        });
        turn.push({ role: 'tool', toolCallId: call.id, name: call.name, content: reason, isError: true });
      }
      if (extra.length > 0) notice('extra-calls-skipped', t('noticeExtraCalls', { n: reply.calls.length }));
      if (rounds >= max && toolsOn) {
        turn.push({ role: 'system', content: t('limitReached', { max }) });
        notice('tool-limit-reached', t('noticeLimit', { max }));
      }
      emit({ type: 'FINALIZING', round: rounds });
    }
  } catch (err) {
    if (err instanceof Cancelled || opts.signal?.aborted || (err instanceof ProviderError && err.kind === 'aborted')) {
      emit({ type: 'CANCELLED' });
      return end('CANCELLED');
    }
    const error = isAppError(err)
      ? { code: err.code, message: err.userMessage }
      : {
          code: 'CCEXEC_INTERNAL',
          message: t('internal', { detail: redact(err instanceof Error ? err.message : String(err)).slice(0, 300) }),
        };
    emit({ type: 'FAILED', ...error });
    return end('FAILED', { error });
  }

  /** Runs (or replays) the first call of a turn and emits its card states. */
  async function runCall(call: ParsedToolCall, round: number): Promise<ToolOutcome> {
    const ref = { callId: call.id, commandLine: display(call, call.argv), argv: call.argv, round };
    emit({ type: 'TOOL_CALLED', ...ref });
    const earlier = seen.get(call.dedupKey);
    if (earlier) {
      const content = `${t('duplicateCall')}\n${earlier.content}`;
      emit({
        type: 'TOOL_DONE',
        ...ref,
        decision: 'duplicate',
        exitCode: earlier.exitCode,
        durationMs: 0,
        preview: previewOf(earlier.stdout || earlier.stderr),
        stdout: earlier.stdout,
        stderr: earlier.stderr,
        reason: t('duplicateCall'),
      });
      await record(call, {
        argv: call.argv,
        decision: 'duplicate',
        exitCode: earlier.exitCode,
        durationMs: 0,
        stdout: earlier.stdout,
      });
      return { ...earlier, content };
    }
    // TOOL_RUNNING when the CLI really starts, with the argv that runs (defaults applied); a refused
    // call never gets one.
    const exec: ExecFn = (runArgv, signal) => {
      emit({
        type: 'TOOL_RUNNING',
        ...ref,
        argv: runArgv,
        commandLine: commandLineOf(runArgv),
        startedAt: now(),
        timeoutMs: opts.timeoutMs,
      });
      return opts.exec(runArgv, signal);
    };
    const outcome = await dispatchToolCall(call, { exec, ...(opts.signal ? { signal: opts.signal } : {}) });
    const ranArgv = outcome.argv ?? call.argv;
    const doneRef = { ...ref, argv: ranArgv, commandLine: display(call, ranArgv) };
    emit({
      type: 'TOOL_DONE',
      ...doneRef,
      decision: outcome.decision,
      exitCode: outcome.exitCode,
      durationMs: outcome.durationMs,
      preview: previewOf(outcome.stdout || outcome.stderr),
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      ...(outcome.stopped ? { stopped: outcome.stopped } : {}),
    });
    await record(call, { ...outcome, argv: ranArgv });
    seen.set(call.dedupKey, outcome);
    return outcome;
  }

  /** Reports the call to `onToolCall`: who asked (from the parsed call) and what happened. */
  async function record(
    call: ParsedToolCall,
    result: Pick<ToolCallRecord, 'argv' | 'decision' | 'exitCode' | 'durationMs' | 'stdout' | 'reason'>,
  ): Promise<void> {
    try {
      await opts.onToolCall?.({
        callId: call.id,
        name: call.name,
        argv: result.argv,
        decision: result.decision,
        exitCode: result.exitCode,
        durationMs: result.durationMs,
        stdout: result.stdout,
        ...(result.reason !== undefined ? { reason: result.reason } : {}),
      });
    } catch {
      // Auditing must not break the chat; the gateway logs its own failures.
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** One model pass: text and reasoning streamed out as they come, tool calls and usage collected. */
async function streamTurn(
  provider: ModelProvider,
  messages: ChatMessage[],
  tools: ToolSpec[],
  signal: AbortSignal | undefined,
  emit: (event: DistributiveOmit<ChatEvent, 'runId' | 'at'>) => void,
): Promise<{ text: string; calls: ToolCall[]; inputTokens?: number }> {
  let text = '';
  const calls: ToolCall[] = [];
  let inputTokens: number | undefined;
  for await (const ev of provider.stream(messages, tools, signal) as AsyncIterable<ProviderEvent>) {
    if (ev.type === 'text') {
      text += ev.delta;
      emit({ type: 'text', delta: ev.delta });
    } else if (ev.type === 'reasoning') emit({ type: 'reasoning', delta: ev.delta });
    else if (ev.type === 'tool_call') calls.push(ev.call);
    else if (ev.type === 'usage' && ev.inputTokens !== undefined) inputTokens = ev.inputTokens;
  }
  return { text, calls, ...(inputTokens !== undefined ? { inputTokens } : {}) };
}

/**
 * A refusal or an exec failure is flagged to the model as an error; a CLI's own non-zero exit is not
 * (the CLI exits 1 for an empty `skill list`, for instance), so the model judges it from the output.
 */
function isFailure(outcome: ToolOutcome): boolean {
  return outcome.decision !== 'allowed' || outcome.exitCode === -1;
}

/** The card's command line: `cc` + argv when readable, else the tool name and the raw arguments. */
function display(call: ParsedToolCall, argv: readonly string[] | null): string {
  return argv ? commandLineOf(argv) : `${call.name} ${call.text.slice(0, 120)}`;
}
