import type { ToolOutcome, ToolStopped } from './tool-dispatcher.js';

/**
 * The chat states as one typed event stream: what the web page, the terminal chat and the `/cc` card
 * render while a question is answered, so the several seconds of two model passes and a CLI run never
 * look like a hang. No state assumes a command namespace, so a future `hub …` or `fs …` command
 * renders the same way.
 *
 * Order within one run: `THINKING`, then per tool round `TOOL_CALLED` → `TOOL_RUNNING` → `TOOL_DONE`
 * (no `TOOL_RUNNING` for a call that did not run: refused, duplicate, skipped) and `FINALIZING` for the
 * model's next pass, and exactly one terminal state last: `COMPLETE`,
 * `FAILED` or `CANCELLED`. `text` / `reasoning` deltas stream between them (the model's prefix
 * "我帮你查一下…" in THINKING, the answer in FINALIZING); `notice` events say when the loop stepped in.
 */
export type ChatState =
  'THINKING' | 'TOOL_CALLED' | 'TOOL_RUNNING' | 'TOOL_DONE' | 'FINALIZING' | 'COMPLETE' | 'FAILED' | 'CANCELLED';

/** States that end a run; exactly one of them is the last event. */
export type TerminalState = 'COMPLETE' | 'FAILED' | 'CANCELLED';

/** How a tool call was handled; the dispatcher's decisions plus the loop's own two. */
export type ToolCallDecision = ToolOutcome['decision'] | 'duplicate' | 'skipped';

/** Why the loop stepped in, for a UI hint (the model gets its own note in the conversation). */
export type NoticeCode =
  'extra-calls-skipped' | 'tool-limit-reached' | 'history-trimmed' | 'tools-unavailable' | 'tools-rejected';

/** Fields every event carries: the run it belongs to and when it happened (epoch ms). */
interface Base {
  readonly runId: string;
  readonly at: number;
}

/** The tool call a card is about: its id, the command line as displayed, and the argv when readable. */
interface CallRef {
  readonly callId: string;
  /** `cc note list --limit 10` — model-supplied text, escape before rendering as HTML. */
  readonly commandLine: string;
  /** `['note', 'list', '--limit', '10']`; null when the arguments could not be read. */
  readonly argv: readonly string[] | null;
  /** 1-based tool round. */
  readonly round: number;
}

/** One event of a chat run. */
export type ChatEvent =
  | (Base & { readonly type: 'THINKING' })
  | (Base & { readonly type: 'text'; readonly delta: string })
  | (Base & { readonly type: 'reasoning'; readonly delta: string })
  | (Base & { readonly type: 'notice'; readonly code: NoticeCode; readonly message: string })
  | (Base & CallRef & { readonly type: 'TOOL_CALLED' })
  /**
   * The CLI is starting with `argv` (defaults such as `--limit 20` applied, so `commandLine` may differ
   * from TOOL_CALLED's): start the card's timer at `startedAt`; the run is stopped at `timeoutMs`.
   */
  | (Base & CallRef & { readonly type: 'TOOL_RUNNING'; readonly startedAt: number; readonly timeoutMs: number })
  | (Base &
      CallRef & {
        readonly type: 'TOOL_DONE';
        readonly decision: ToolCallDecision;
        readonly exitCode: number;
        readonly durationMs: number;
        /** The first 6 lines of stdout (or of stderr when stdout is empty), for the collapsed card. */
        readonly preview: string;
        /** Everything the CLI printed, for the card's "expand" (not cut at 4 KB as the model's view is). */
        readonly stdout: string;
        readonly stderr: string;
        /** Why it did not run (denied, invalid, skipped) or ended abnormally; absent on a normal run. */
        readonly reason?: string;
        /** An allowed call stopped before the CLI exited (exit -1): cancelled or timed out. */
        readonly stopped?: ToolStopped;
      })
  | (Base & { readonly type: 'FINALIZING'; readonly round: number })
  | (Base & {
      readonly type: 'COMPLETE';
      readonly answer: string;
      readonly toolCalls: number;
      readonly durationMs: number;
    })
  | (Base & { readonly type: 'FAILED'; readonly code: string; readonly message: string })
  | (Base & { readonly type: 'CANCELLED' });

/** Receives a run's events as they happen; it must not throw (a throw is caught and ignored). */
export type ChatEventListener = (event: ChatEvent) => void;

/** Lines of stdout a card shows in its collapsed preview on TOOL_DONE. */
export const PREVIEW_LINES = 6;

/** True for the event that ends a run. */
export function isTerminal(event: ChatEvent): event is Extract<ChatEvent, { type: TerminalState }> {
  return event.type === 'COMPLETE' || event.type === 'FAILED' || event.type === 'CANCELLED';
}

/** The first `PREVIEW_LINES` lines of `text`, without a trailing newline. */
export function previewOf(text: string): string {
  return text.split('\n').slice(0, PREVIEW_LINES).join('\n').replace(/\n+$/, '');
}

/**
 * The command line a card shows: `cc` and the argv, each argument that holds a space, a quote or
 * nothing at all shown in double quotes — display only, nothing ever runs it through a shell.
 *
 * @example commandLineOf(['search', 'RAG 笔记', '--top-k', '5']) // 'cc search "RAG 笔记" --top-k 5'
 */
export function commandLineOf(argv: readonly string[]): string {
  return ['cc', ...argv.map((a) => (a === '' || /[\s"'\\]/.test(a) ? JSON.stringify(a) : a))].join(' ');
}
