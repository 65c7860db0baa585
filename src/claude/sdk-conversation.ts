import type { CanUseTool, Options, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { setTimeout as sleep } from 'node:timers/promises';
import { readableDirectories } from './cli-args.js';
import { conversationKey, EXIT_WAIT_MS, TurnState, type Conversation, type TurnEnd } from './conversation-turn.js';
import type { ClaudeDeps, ClaudeRunContext } from './claude-engine-deps.js';
import { STDERR_TAIL_CHARS } from '../engine/engine-error.js';
import { TextTail } from '../engine/text-tail.js';
import { InputQueue } from './input-queue.js';
import { loadAgentSdk } from './load-agent-sdk.js';
import { createCanUseTool } from './sdk-permissions.js';
import { createSdkSpawner, type SdkSpawner } from './sdk-spawn.js';
import { SEND_FILE_SERVER, SEND_FILE_TOOL, sendFileServer } from './send-file-tool.js';
import { engineMessages } from '../engine/engine-messages.js';

/** A turn of this conversation: the shared state plus its own permission handler. */
type Turn = TurnState & { canUseTool: CanUseTool };

/**
 * One Claude Code child driven by the Agent SDK with streaming input: each turn writes one user
 * message and ends at its `result`, and the child stays alive between turns, so a follow-up costs no
 * start-up. Each turn has its own events, permission handler, idle clock and stderr tail; the
 * options fixed at the start (cwd, model, rules, extra directories) make its `key`.
 *
 * A stop (the turn's signal) ends the child's whole process group, as a cold run would; so does
 * `dispose`. Used once and disposed, it is exactly the cold path.
 */
export class SdkConversation implements Conversation {
  readonly key: string;
  readonly cwd: string;
  private readonly input = new InputQueue<SDKUserMessage>();
  private readonly spawner: SdkSpawner;
  private readonly abortController = new AbortController();
  private readonly exitListeners: Array<() => void> = [];
  private readonly startTail = new TextTail(STDERR_TAIL_CHARS);
  private turn: Turn | undefined;
  private ended = false;
  private thrown: unknown;
  private disposing: Promise<void> | undefined;

  constructor(
    first: ClaudeRunContext,
    private readonly deps: ClaudeDeps,
    executable: { path: string; bundled: boolean },
  ) {
    this.key = conversationKey(first);
    this.cwd = first.cwd;
    this.spawner = createSdkSpawner({
      ...(deps.tracker ? { tracker: deps.tracker } : {}),
      ...(deps.killGraceMs !== undefined ? { killGraceMs: deps.killGraceMs } : {}),
      onActivity: () => this.turn?.ctx.touch(),
      onStderr: (text) => (this.turn?.stderr ?? this.startTail).push(text),
    });
    const options = this.options(first, executable);
    void this.pump(options);
  }

  get alive(): boolean {
    return !this.ended && this.disposing === undefined;
  }

  get pid(): number | undefined {
    return this.spawner.pid;
  }

  onExit(listener: () => void): void {
    if (this.ended) listener();
    else this.exitListeners.push(listener);
  }

  /**
   * Runs one turn: writes `ctx.request.prompt` and waits for its `result`, the child's end, or the
   * turn's stop (then the child's group is ended and gone before this returns).
   */
  async run(ctx: ClaudeRunContext): Promise<TurnEnd> {
    if (this.turn) throw new Error('a turn is already running on this conversation');
    const turn: Turn = Object.assign(new TurnState(ctx, this.startTail), {
      canUseTool: createCanUseTool({
        policy: this.deps.policy,
        rules: ctx.rules,
        handler: ctx.permissions,
        emit: ctx.emit,
        pause: ctx.pause,
        resume: ctx.resume,
        runSignal: ctx.signal,
        timeoutMs: this.deps.config.sdk.timeout_ms,
        cwd: ctx.cwd,
        home: this.deps.paths.userHome,
        ...(ctx.request.userId ? { userId: ctx.request.userId } : {}),
        lang: this.deps.lang,
        logger: this.deps.logger,
      }),
    });
    this.turn = turn;
    const onStop = (): void => void this.kill();
    ctx.signal.addEventListener('abort', onStop, { once: true });
    try {
      if (ctx.signal.aborted) this.kill();
      else if (this.ended) turn.finish();
      else this.input.push(userMessage(ctx.request.prompt));
      await turn.done;
      if (!turn.parser.result) await this.spawner.settled();
    } finally {
      ctx.signal.removeEventListener('abort', onStop);
      this.turn = undefined;
    }
    return turn.end({ thrown: this.thrown });
  }

  /** Ends the input, lets the child exit on its own for a moment, then ends its group; resolves when gone. */
  dispose(_reason: string): Promise<void> {
    this.disposing ??= (async () => {
      this.input.close();
      if (!this.spawner.started) return;
      const gone = this.spawner.settled();
      const lingering = await Promise.race([gone.then(() => false), sleep(EXIT_WAIT_MS).then(() => true)]);
      if (lingering) this.kill();
      await gone;
    })();
    return this.disposing;
  }

  /** Ends the child's whole group now. */
  private kill(): void {
    this.abortController.abort();
    this.spawner.kill(); // at once: the SDK itself would wait ~2 s after closing stdin
    this.turn?.finish();
  }

  private async pump(options: Options): Promise<void> {
    try {
      const sdk = await loadAgentSdk();
      // One server for the child's life; each call goes to the turn running at that moment.
      const files = sendFileServer(sdk, () => this.turn?.ctx.files, engineMessages(this.deps.lang)('file_no_sender'));
      const withFiles: Options = { ...options, mcpServers: { ...options.mcpServers, [SEND_FILE_SERVER]: files } };
      for await (const message of sdk.query({ prompt: this.input, options: withFiles })) {
        const turn = this.turn;
        if (!turn) continue; // nothing is sent between turns
        turn.ctx.touch();
        turn.parser.push(message);
        if (turn.parser.result) turn.finish();
      }
    } catch (err) {
      this.thrown = err;
    } finally {
      this.ended = true;
      this.input.close();
      this.turn?.finish();
      for (const listener of this.exitListeners.splice(0)) listener();
    }
  }

  /** A `claude.disallowed_tools` rule (e.g. `mcp__cc-linker`) covers the call. */
  private denied(toolName: string, input: Record<string, unknown>): boolean {
    const turn = this.turn;
    if (!turn) return true;
    const call = { toolName, input, cwd: turn.ctx.cwd, home: this.deps.paths.userHome };
    return this.deps.policy.decide(turn.ctx.rules, call).verdict === 'deny';
  }

  private options(ctx: ClaudeRunContext, exe: { path: string; bundled: boolean }): Options {
    const { config } = this.deps;
    const permissionMode = config.sdk.permission_mode;
    return {
      cwd: ctx.cwd,
      env: ctx.env,
      abortController: this.abortController,
      pathToClaudeCodeExecutable: exe.path,
      spawnClaudeCodeProcess: this.spawner.spawn,
      // The bundled CLI reads MCP servers from the initialize request; an older configured one needs argv.
      mcpServersDelivery: exe.bundled ? 'initialize' : 'argv',
      permissionMode,
      ...(permissionMode === 'bypassPermissions' ? { allowDangerouslySkipPermissions: true } : {}),
      // Bare tool names are allowed by our canUseTool instead: given to the SDK they "shadow" the
      // callback (a CLAUDE_SDK_CAN_USE_TOOL_SHADOWED warning on every run); rules with content are fine.
      allowedTools: ctx.rules.allowed.filter((r) => r.includes('(')),
      disallowedTools: [...ctx.rules.disallowed],
      includePartialMessages: config.stream.enabled,
      // Each turn's own handler: the user, the permission buttons and the stop of that turn.
      canUseTool: (toolName, input, opts) => {
        if (!this.turn) return Promise.resolve({ behavior: 'deny', message: 'no turn is running' });
        // The file tool checks every path itself (docs/design.md#files-out); asking is optional.
        if (toolName === SEND_FILE_TOOL && config.files.send_without_prompt && !this.denied(toolName, input))
          return Promise.resolve({ behavior: 'allow', updatedInput: input });
        return this.turn.canUseTool(toolName, input, opts);
      },
      stderr: (text) => (this.turn?.stderr ?? this.startTail).push(text),
      ...(ctx.request.sessionId ? { resume: ctx.request.sessionId } : {}),
      ...(!ctx.request.sessionId && ctx.request.newSessionId ? { sessionId: ctx.request.newSessionId } : {}),
      ...(ctx.request.model ? { model: ctx.request.model } : {}),
      ...(readableDirectories(ctx.request).length ? { additionalDirectories: readableDirectories(ctx.request) } : {}),
    };
  }
}

function userMessage(text: string): SDKUserMessage {
  return { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null } as SDKUserMessage;
}
