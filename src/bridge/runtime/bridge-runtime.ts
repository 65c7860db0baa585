import type { AgentCatalog } from '../commands/agent-catalog.js';
import path from 'node:path';
import type { AgentEngine } from '../../engine/engine-types.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';
import { Bridge } from '../bridge.js';
import type { Channel } from '../channel.js';
import type { SessionDirectory } from '../commands/command-context.js';
import { ListSnapshots } from '../commands/list-snapshot.js';
import { reconcileMapping, type RegistryView } from '../mapping/reconcile-mapping.js';
import { UserMapping } from '../mapping/user-mapping.js';
import type { SessionHooks } from '../pipeline/pipeline-deps.js';
import type { Reply } from '../reply-model.js';
import { recoverSpool } from '../spool/recover-spool.js';
import { applyRetention } from '../spool/retention.js';
import { Spool } from '../spool/spool.js';
import { ownerPolicyFrom } from './owner-policy.js';

export interface BridgeRuntimeOptions {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
  engine: AgentEngine;
  sessions: SessionDirectory;
  registry: RegistryView;
  /** Ids of channels whose users the channel itself authenticated: always the owner. */
  trustedChannels: readonly string[];
  sessionHooks?: SessionHooks;
  ccexec?: (question: string, userId: string, signal: AbortSignal) => Promise<Reply>;
  models?: () => Promise<Array<{ alias: string; model: string }>>;
  /** The coding agents this daemon runs (absent: Claude Code alone). */
  agents?: AgentCatalog;
  /**
   * The Claude Code program a printed resume command names (`/resume`): `claude`, or the absolute
   * path of the binary this daemon runs when `claude` is not on PATH. Absent: `claude`.
   */
  claudeProgram?: string;
  /** Rescans Claude's session files into the registry; runs before each reconcile. */
  syncSessions?: () => Promise<void>;
}

/** How often the mapping is reconciled with the registry while running. */
const RECONCILE_EVERY_MS = 5 * 60_000;
/** How often the spool retention runs. */
const HOUSEKEEPING_EVERY_MS = 3_600_000;
/** How far back a chat-created session the mapping missed is looked for. */
const RECENT_SESSIONS_MS = 24 * 3_600_000;

/**
 * The bridge's lifecycle, with its stores (spool, user mapping, list snapshots). It knows the
 * `Channel` seam only, never which channels exist: whoever assembles the process adds them.
 * The caller holds the owner lock (the single writer of this state) for the whole life.
 *
 * `start()`: spool recovery (see docs/design.md#recovery), session sync and mapping repair,
 * retention, then the dispatcher with what was pending, then the channels; periodic reconciling
 * and hourly retention run until `stop()`, which undoes it all in reverse order.
 *
 * @example
 *   const runtime = new BridgeRuntime({ config, paths, lang, logger, engine, sessions, registry, trustedChannels: [] });
 *   runtime.addChannel(channel);
 *   await runtime.start();
 *   // …
 *   await runtime.stop(30_000);
 */
export class BridgeRuntime {
  readonly bridge: Bridge;
  private readonly spool: Spool;
  private readonly mapping: UserMapping;
  private readonly listSnapshots: ListSnapshots;
  private readonly channels: Channel[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;

  constructor(private readonly o: BridgeRuntimeOptions) {
    this.spool = new Spool(o.config.queue.spool_dir);
    this.mapping = new UserMapping(o.paths.userMappingFile);
    this.listSnapshots = new ListSnapshots(path.join(o.paths.runtimeDir, 'list-snapshots.json'), {
      ttlMs: o.config.queue.list_snapshot_ttl_minutes * 60_000,
    });
    this.bridge = new Bridge({
      config: o.config,
      paths: o.paths,
      lang: o.lang,
      logger: o.logger.child('bridge'),
      spool: this.spool,
      engine: o.engine,
      mapping: this.mapping,
      listSnapshots: this.listSnapshots,
      sessions: o.sessions,
      ...(o.sessionHooks ? { sessionHooks: o.sessionHooks } : {}),
      ...(o.ccexec ? { ccexec: o.ccexec } : {}),
      ...(o.models ? { models: o.models } : {}),
      ...(o.agents ? { agents: o.agents } : {}),
      ...(o.claudeProgram ? { claudeProgram: o.claudeProgram } : {}),
      ownerPolicy: ownerPolicyFrom(o.config, this.mapping, o.trustedChannels),
    });
  }

  /** Registers a channel: its outbox serves replies, and `start()` connects it. */
  addChannel(channel: Channel): void {
    this.channels.push(channel);
    this.bridge.addChannel(channel);
  }

  /** Recovers and reconciles, starts the dispatcher with what was pending, connects the channels. */
  async start(): Promise<void> {
    const { logger } = this.o;
    await this.spool.init();
    const recovery = await recoverSpool(this.spool, this.bridge.deliveries, logger);
    if (recovery.requeued || recovery.finalized)
      logger.info('recovered the spool', { ...recovery, broken: recovery.broken.length });
    await this.reconcile();
    await this.housekeeping();
    await this.bridge.start();
    for (const c of this.channels) await c.start(this.bridge);
    this.every(RECONCILE_EVERY_MS, () => this.reconcile());
    this.every(HOUSEKEEPING_EVERY_MS, () => this.housekeeping());
  }

  /** Stops the periodic work and the channels, waits ≤ `graceMs` for running messages. Idempotent. */
  async stop(graceMs = 30_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const { logger } = this.o;
    for (const t of this.timers) clearInterval(t);
    for (const c of this.channels)
      await c.stop().catch((err) => logger.warn('channel stop failed', { err, channel: c.id }));
    const { unfinished } = await this.bridge.stop(graceMs);
    if (unfinished > 0) logger.warn('left unfinished messages for the next start', { unfinished });
  }

  /** Session sync, then the mapping repair (see docs/design.md#recovery), then expired list numbers. */
  private async reconcile(): Promise<void> {
    const { logger, config } = this.o;
    await this.o.syncSessions?.().catch((err) => logger.warn('session sync failed', { err }));
    const report = await reconcileMapping({
      mapping: this.mapping,
      spool: this.spool,
      registry: this.o.registry,
      logger,
      now: Date.now(),
      staleClaimMs: config.runtime.hard_timeout_ms,
      recentMs: RECENT_SESSIONS_MS,
    });
    if (report.ambiguous.length > 0)
      logger.warn('several new sessions could belong to a user; left for /list + /switch', {
        users: report.ambiguous.length,
      });
    await this.listSnapshots.purgeExpired();
  }

  private async housekeeping(): Promise<void> {
    const removed = await applyRetention(this.o.config.queue.spool_dir, this.o.config.queue);
    this.o.logger.debug('spool retention', removed);
  }

  /** Runs `fn` every `ms`, skipping a tick while the previous run is still going. */
  private every(ms: number, fn: () => Promise<void>): void {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      fn()
        .catch((err) => this.o.logger.warn('periodic task failed', { err }))
        .finally(() => (running = false));
    }, ms);
    t.unref();
    this.timers.push(t);
  }
}
