import * as acp from '@agentclientprotocol/sdk';
import { EngineError } from '../../engine/engine-error.js';
import type { EngineResult, PermissionDenial } from '../../engine/engine-types.js';
import type { RunContext } from '../../engine/guarded-engine.js';
import type { WarmProcess } from '../../engine/warm-pool.js';
import type { SendFileGrant } from '../../engine/file-sender-registry.js';
import { mcpServerEnv } from '../../engine/send-file-mcp.js';
import { SEND_FILE_SERVER } from '../../engine/send-file-spec.js';
import { openAcpConnection, type AcpConnection } from './acp-connection.js';
import { DEFAULT_END_SETTLE_MS, type AcpAgentProfile, type AcpExecutorDeps } from './acp-executor-deps.js';
import {
  GoneBeforePrompt,
  isObj,
  loadFailure,
  notStarted,
  raceRun,
  RunStopped,
  turnFailure,
  type Obj,
} from './acp-failures.js';
import { cancelTurn, replayQuiet, selectModel } from './acp-session-steps.js';
import { modelsOf } from './agent-models.js';
import { answerPermission } from './answer-permission.js';
import { promptBlocks } from './prompt-blocks.js';
import { SessionUpdateMapper } from './session-update-mapper.js';

const DEFAULT_END_GRACE_MS = 500;

/** The running turn: its context, its denials and, once the prompt is sent, its mapper. */
interface Turn {
  ctx: RunContext;
  denials: PermissionDenial[];
  /** Set when `session/prompt` is sent: before, every update is the replay of a loaded session. */
  mapper?: SessionUpdateMapper;
}

/** What the first turn learnt about the agent and the session, kept for the next turns. */
interface Opened {
  sessionId: string;
  acceptsImages: boolean;
  model: string | undefined;
}

/** The options an agent process is started with that a later turn cannot change: its key. */
export function acpConversationKey(ctx: RunContext): string {
  return JSON.stringify([ctx.cwd, ctx.request.model ?? '']);
}

/**
 * One ACP agent process with its initialized connection and session, taking turns.
 *
 * The first `run` starts the session: initialize → `session/new {cwd, mcpServers}` (or, to
 * resume, `session/load {sessionId, cwd, mcpServers}`, refused with `LOAD_UNSUPPORTED` when the
 * agent has no `loadSession`; `mcpServers` is the stdio server `cc-linker mcp` with this process's
 * `send_file` token — calls go to the turn running now, the token dies with the process — or `[]`
 * without `deps.sendFileMcp`) → a `session` event → the requested model → `session/prompt`. Updates
 * count for the turn only once the prompt is sent: a load replays the session's history (Gemini
 * partly after the load response), so the prompt waits until the replay is quiet. A later `run`
 * (a kept process, see `createAcpExecutor`) is the `session` event and `session/prompt` only.
 *
 * The connection's updates and permission requests go to the running turn (its mapper, its
 * permission handler and user, its events and idle clock, its denials); between turns updates are
 * ignored and permission requests answered `cancelled`.
 *
 * A failed or stopped turn ends the process group before `run` throws (a stop sends
 * `session/cancel` first and waits up to `cancelWaitMs`). `dispose` ends an idle process politely:
 * what is left of `endSettleMs` since its last answer (the agent saves the turn after answering),
 * then its stdin closed and `endGraceMs` to exit, then the group killed.
 */
export class AcpConversation implements WarmProcess {
  readonly key: string;
  readonly cwd: string;
  private readonly conn: AcpConnection;
  private readonly label: string;
  private readonly exitListeners: Array<() => void> = [];
  private turn: Turn | undefined;
  private opened: Opened | undefined;
  private lastUpdateAt = performance.now();
  /** When the last turn was answered (performance.now()). */
  private answeredAt: number | undefined;
  private disposing: Promise<void> | undefined;
  private readonly files: SendFileGrant | undefined;

  constructor(
    private readonly profile: AcpAgentProfile,
    private readonly deps: AcpExecutorDeps,
    first: RunContext,
  ) {
    this.key = acpConversationKey(first);
    this.cwd = first.cwd;
    this.label = profile.label ?? profile.name;
    const agent = profile.name;
    const { logger } = deps;
    this.conn = openAcpConnection(
      {
        command: profile.command,
        env: profile.env,
        cwd: first.cwd,
        ...(deps.tracker ? { tracker: deps.tracker } : {}),
        ...(deps.killGraceMs !== undefined ? { killGraceMs: deps.killGraceMs } : {}),
        onActivity: () => this.turn?.ctx.touch(),
      },
      {
        onUpdate: (params) => {
          this.lastUpdateAt = performance.now();
          if (this.turn) this.turn.mapper?.accept(params);
          else logger.debug('ACP update between turns ignored', { agent });
        },
        onPermission: (params, signal) => {
          const turn = this.turn;
          if (!turn) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
          if (isObj(params)) turn.mapper?.noteToolCall(params.toolCall);
          const { ctx } = turn;
          return answerPermission(params, signal, {
            agent,
            handler: ctx.permissions,
            ...(deps.permissionStore ? { store: deps.permissionStore } : {}),
            ...(deps.passAlwaysToAgent ? { passAlwaysToAgent: true } : {}),
            ...(ctx.request.userId ? { userId: ctx.request.userId } : {}),
            emit: (e) => ctx.emit(e),
            pause: () => ctx.pause(),
            resume: () => ctx.resume(),
            runSignal: ctx.signal,
            denials: turn.denials,
            logger,
          });
        },
        onUnknownRequest: (method) => logger.info('ACP agent request not supported', { agent, method }),
      },
    );
    this.files = deps.sendFileMcp?.registry.issue(() => this.turn?.ctx.files);
    void this.conn.exited.then(() => {
      this.files?.revoke();
      for (const listener of this.exitListeners.splice(0)) listener();
    });
  }

  get alive(): boolean {
    return !this.conn.hasExited && this.disposing === undefined;
  }

  get pid(): number | undefined {
    return this.conn.pid;
  }

  onExit(listener: () => void): void {
    if (this.conn.hasExited) listener();
    else this.exitListeners.push(listener);
  }

  /**
   * Runs one turn to its `session/prompt` response. Throws `EngineError` or `RunStopped` (the
   * group is gone by then), or `GoneBeforePrompt` when a kept process had ended before the prompt.
   */
  async run(ctx: RunContext): Promise<EngineResult> {
    if (this.turn) throw new Error('a turn is already running on this agent process');
    const { conn } = this;
    if (conn.pid === undefined) throw notStarted(this.profile, await conn.exited, this.deps.lang);
    const turn: Turn = { ctx, denials: [] };
    this.turn = turn;
    const step = <T>(p: Promise<T>): Promise<T> => raceRun(p, conn, ctx.signal);
    const kept = this.opened !== undefined;
    try {
      if (kept && !this.alive) throw new GoneBeforePrompt();
      const opened = this.opened ?? (await this.open(ctx, step));
      this.opened = opened;
      if (kept) ctx.emit({ type: 'session', sessionId: opened.sessionId });
      return await this.prompt(ctx, turn, opened, step);
    } catch (err) {
      const failure = await turnFailure(err, this.label, conn, this.deps.lang);
      await conn.close();
      throw failure;
    } finally {
      this.turn = undefined;
    }
  }

  /** Ends the process politely (the rest of the settle time, stdin closed, a grace); resolves when it is gone. */
  dispose(_reason: string): Promise<void> {
    this.disposing ??= (async () => {
      const settleMs = this.deps.endSettleMs ?? DEFAULT_END_SETTLE_MS;
      const since = this.answeredAt === undefined ? Infinity : performance.now() - this.answeredAt;
      await this.conn
        .finish(Math.max(0, settleMs - since), this.deps.endGraceMs ?? DEFAULT_END_GRACE_MS)
        .catch(() => this.conn.close());
    })();
    return this.disposing;
  }

  /** Ends the whole group now (a stop after the answer). */
  async kill(): Promise<void> {
    this.disposing ??= this.conn.close().then(() => undefined);
    await this.disposing;
  }

  /** initialize → `session/new` or `session/load` (+ the replay) → the `session` event → the model. */
  private async open(ctx: RunContext, step: <T>(p: Promise<T>) => Promise<T>): Promise<Opened> {
    const { conn, deps, label } = this;
    const { lang, logger } = deps;
    const agent = this.profile.name;
    const init = await step(
      conn.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: 'cc-linker', version: '1' },
      }),
    );
    const caps = isObj(init.agentCapabilities) ? init.agentCapabilities : {};
    const acceptsImages = isObj(caps.promptCapabilities) && caps.promptCapabilities.image === true;

    let sessionId: string;
    let session: Obj;
    const resumeId = ctx.request.sessionId;
    if (resumeId) {
      if (caps.loadSession !== true) throw new EngineError('LOAD_UNSUPPORTED', { agent: label, name: agent }, { lang });
      sessionId = resumeId;
      session = await step(
        conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ctx.cwd, mcpServers: this.mcpServers() }),
      ).catch((err: unknown) => {
        throw loadFailure(err, label, resumeId, lang);
      });
      ctx.emit({ type: 'session', sessionId });
      await step(replayQuiet(() => this.lastUpdateAt, deps));
    } else {
      const created = await step(
        conn.agent.request(acp.methods.agent.session.new, { cwd: ctx.cwd, mcpServers: this.mcpServers() }),
      );
      if (typeof created.sessionId !== 'string' || !created.sessionId)
        throw new EngineError('RUN_FAILED', { agent: label, detail: 'session/new returned no sessionId' }, { lang });
      sessionId = created.sessionId;
      session = created as unknown as Obj;
      ctx.emit({ type: 'session', sessionId });
    }
    const models = modelsOf(session);
    if (models.available.length > 0) deps.onModels?.(models.available);
    let model = models.current;
    if (ctx.request.model && ctx.request.model !== model) {
      if (await selectModel(conn, step, sessionId, ctx.request.model, session, logger, agent))
        model = ctx.request.model;
    }
    return { sessionId, acceptsImages, model };
  }

  /** ACP's stdio server shape for `cc-linker mcp` (`env` as name/value pairs), or none. */
  private mcpServers(): acp.McpServer[] {
    const mcp = this.deps.sendFileMcp;
    if (!mcp || !this.files) return [];
    const env = Object.entries(mcpServerEnv(mcp, this.files.token)).map(([name, value]) => ({ name, value }));
    return [{ name: SEND_FILE_SERVER, command: mcp.command, args: [...mcp.args], env }];
  }

  /** `session/prompt` and its result; a stop sends `session/cancel` first. */
  private async prompt(
    ctx: RunContext,
    turn: Turn,
    opened: Opened,
    step: <T>(p: Promise<T>) => Promise<T>,
  ): Promise<EngineResult> {
    const { sessionId, model } = opened;
    const onSkipped = (what: string): void =>
      this.deps.logger.warn('ACP update skipped', { agent: this.profile.name, what });
    const mapper = new SessionUpdateMapper(sessionId, (e) => ctx.emit(e), onSkipped);
    turn.mapper = mapper;
    const blocks: acp.ContentBlock[] = promptBlocks(
      ctx.request.prompt,
      ctx.request.imagePaths ?? [],
      opened.acceptsImages,
    );
    const prompting = this.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
    prompting.catch(() => undefined);
    let response: Awaited<typeof prompting>;
    try {
      response = await step(prompting);
    } catch (err) {
      if (err instanceof RunStopped) await cancelTurn(this.conn, sessionId, prompting, this.deps);
      throw err;
    }
    this.answeredAt = performance.now();
    mapper.setResponseUsage((response as unknown as Obj).usage);
    const usage = mapper.usage();
    return {
      text: mapper.text(),
      sessionId,
      costUsd: null,
      durationMs: Math.round(performance.now() - ctx.startedAt),
      numTurns: 1,
      stopReason: typeof response.stopReason === 'string' ? response.stopReason : null,
      permissionDenials: turn.denials,
      ...(model ? { model } : {}),
      isNewSession: !ctx.request.sessionId,
      agent: this.profile.name,
      ...(usage ? { usage } : {}),
    };
  }
}
