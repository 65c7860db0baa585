import { setTimeout as sleep } from 'node:timers/promises';
import { startProcess, type RunningProcess, type RunResult } from '../process/run-process.js';
import { buildCliArgs } from './cli-args.js';
import type { ClaudeDeps, ClaudeRunContext } from './claude-engine-deps.js';
import { conversationKey, EXIT_WAIT_MS, TurnState, type Conversation, type TurnEnd } from './conversation-turn.js';
import { STDERR_TAIL_CHARS } from '../engine/engine-error.js';
import { TextTail } from '../engine/text-tail.js';
import { offerSendFile } from './send-file-mcp-config.js';

/** Output kept in memory by the runner; lines are parsed as they stream, so little is needed. */
const KEPT_OUTPUT_BYTES = 64 * 1024;

/**
 * One `claude --print --input-format stream-json --output-format stream-json --verbose` child that
 * takes turns: each turn writes ONE JSON user line to its stdin
 * (`{"type":"user","message":{"role":"user","content":"…"},"parent_tool_use_id":null}`) and ends at
 * the `result` line; the child answers the next line with a new `system/init` … `result` and stays
 * alive until its stdin ends. Started through the process runner: argv only, its own process
 * group, recorded by the tracker. Each turn has its own parser, idle clock and stderr tail; the
 * options fixed at the start (cwd, model, rules, extra directories) make its `key`.
 *
 * A stop (the turn's signal) ends the child's whole group before `run` returns; `dispose` ends
 * stdin, lets the child exit on its own for a moment, then ends the group. Used once and disposed,
 * it is exactly the cold path.
 *
 * @example
 *   const conversation = new CliConversation(ctx, deps, '/usr/bin/claude');
 *   const end = await conversation.run(ctx);   // then turnResult(end, ctx, deps)
 *   await conversation.dispose('one turn');
 */
export class CliConversation implements Conversation {
  readonly key: string;
  readonly cwd: string;
  private readonly child: RunningProcess;
  private readonly exitListeners: Array<() => void> = [];
  private readonly startTail = new TextTail(STDERR_TAIL_CHARS);
  private turn: TurnState | undefined;
  private exit: RunResult | undefined;
  private disposing: Promise<void> | undefined;

  constructor(first: ClaudeRunContext, deps: ClaudeDeps, binary: string) {
    this.key = conversationKey(first);
    this.cwd = first.cwd;
    const { config } = deps;
    // One token for the child's life; each call goes to the turn running at that moment.
    const files = offerSendFile(first, deps, () => this.turn?.ctx.files);
    const args = buildCliArgs(first.request, {
      format: 'stream-json',
      partial: config.stream.enabled,
      permissionMode: config.claude.permission_mode,
      rules: files?.rules ?? first.rules,
      ...(files ? { mcpArgs: files.args } : {}),
    });
    this.child = startProcess([binary, ...args], {
      cwd: first.cwd,
      env: first.env,
      keepStdinOpen: true,
      ...(deps.killGraceMs !== undefined ? { killGraceMs: deps.killGraceMs } : {}),
      ...(deps.tracker ? { tracker: deps.tracker } : {}),
      maxOutputBytes: KEPT_OUTPUT_BYTES,
      onStdoutLine: (line) => {
        const turn = this.turn;
        if (!turn) return; // nothing is sent between turns
        turn.ctx.touch();
        turn.parser.pushLine(line);
        if (turn.parser.result) turn.finish();
      },
      onStderr: (text) => {
        this.turn?.ctx.touch();
        (this.turn?.stderr ?? this.startTail).push(text);
      },
    });
    void this.child.done.then((r) => {
      files?.close();
      this.exit = r;
      this.turn?.finish();
      for (const listener of this.exitListeners.splice(0)) listener();
    });
  }

  get alive(): boolean {
    return this.exit === undefined && this.disposing === undefined;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  onExit(listener: () => void): void {
    if (this.exit) listener();
    else this.exitListeners.push(listener);
  }

  /**
   * Runs one turn: writes `ctx.request.prompt` as a user line and waits for its `result`, the
   * child's end, or the turn's stop (then the child's group is ended and gone before this returns).
   */
  async run(ctx: ClaudeRunContext): Promise<TurnEnd> {
    if (this.turn) throw new Error('a turn is already running on this conversation');
    const turn = new TurnState(ctx, this.startTail);
    this.turn = turn;
    const onStop = (): void => this.child.kill('aborted');
    ctx.signal.addEventListener('abort', onStop, { once: true });
    let exit: RunResult | undefined;
    try {
      if (this.exit) turn.finish();
      else if (ctx.signal.aborted) onStop();
      else this.child.stdin?.write(userLine(ctx.request.prompt));
      await turn.done;
      // Without a result (or once stopped) the turn's end is the child's: wait until its group is gone.
      if (!turn.parser.result || ctx.signal.aborted) exit = await this.child.done;
    } finally {
      ctx.signal.removeEventListener('abort', onStop);
      this.turn = undefined;
    }
    return turn.end(exit ? { exit } : {});
  }

  /** Ends stdin, lets the child exit on its own for a moment, then ends its group; resolves when gone. */
  dispose(_reason: string): Promise<void> {
    this.disposing ??= (async () => {
      this.child.stdin?.end();
      const gone = this.child.done;
      const wait = new AbortController();
      const lingering = await Promise.race([
        gone.then(() => false),
        sleep(EXIT_WAIT_MS, true, { signal: wait.signal }).catch(() => false),
      ]);
      wait.abort();
      if (lingering) this.child.kill('killed');
      await gone;
    })();
    return this.disposing;
  }
}

/** One turn's input line, as `--input-format stream-json` reads it. */
function userLine(prompt: string): string {
  return `${JSON.stringify({ type: 'user', message: { role: 'user', content: prompt }, parent_tool_use_id: null })}\n`;
}
