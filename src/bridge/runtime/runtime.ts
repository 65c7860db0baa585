import path from 'node:path';
import type { ClaudeEngine } from '../../claude/engine-types.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';
import { acquireOwnerLock, type OwnerLock } from '../../store/owner-lock.js';
import { Bridge, type OwnerPolicy } from '../bridge.js';
import type { Channel } from '../channel.js';
import type { SessionDirectory } from '../commands/command-context.js';
import { ListSnapshots } from '../commands/list-snapshot.js';
import type { SessionHooks } from '../pipeline/process-message.js';
import { reconcileMapping, type RegistryView } from '../mapping/reconcile-mapping.js';
import { recoverSpool } from '../spool/recover-spool.js';
import type { Reply } from '../reply-model.js';
import { applyRetention } from '../spool/retention.js';
import { Spool } from '../spool/spool.js';
import { UserMapping } from '../mapping/user-mapping.js';

export interface RuntimeOptions {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
  engine: ClaudeEngine;
  channels: Channel[];
  sessions: SessionDirectory;
  registry: RegistryView;
  sessionHooks?: SessionHooks;
  ccexec?: (question: string, userId: string, signal: AbortSignal) => Promise<Reply>;
  models?: () => Promise<Array<{ alias: string; model: string }>>;
  /** Rescan Claude's session files and merge hook discovery events into the registry. */
  syncSessions?: () => Promise<void>;
  /** Retry `jsonl_path` resolution of provisioning/degraded sessions. */
  repairSessions?: () => Promise<void>;
  /** Kill process groups a crashed predecessor left behind. */
  killLeftovers?: () => Promise<void>;
  /** Extra hourly housekeeping (e.g. image cleanup). */
  hourly?: Array<() => Promise<void>>;
  reconcileIntervalMs?: number;
  ownerPolicy?: OwnerPolicy;
}

export interface Runtime {
  bridge: Bridge;
  /** Adds a channel built after the bridge existed (the web console needs the bridge first). */
  addChannel(channel: Channel): void;
  /** Reconciles, starts the dispatcher with what was pending, connects the channels. */
  start(): Promise<void>;
  /** Stops intake, waits ≤ `graceMs` for running work, flushes, releases the owner lock. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Builds the owner policy from config: the configured owner; or, when none is configured and
 * `allow_auto_bind_owner` is on, the first private-chat sender (bound once, persisted). Channels
 * whose users are authenticated by other means (the token-protected web console) are always owner.
 */
export function ownerPolicyFrom(config: Config, mapping: UserMapping, trustedChannels: string[]): OwnerPolicy {
  return async (channel, userId) => {
    if (trustedChannels.includes(channel)) return 'owner';
    const configured = config.feishu_bot.owner_open_id;
    if (configured) return configured === userId ? 'owner' : 'stranger';
    const data = await mapping.read();
    if (data.ownerOpenId) return data.ownerOpenId === userId ? 'owner' : 'stranger';
    if (config.feishu_bot.allow_auto_bind_owner && (await mapping.bindOwner(userId))) return 'owner';
    return 'unbound';
  };
}

/**
 * The lifecycle every channel plugs into (issue 4 part 10, seed §9.6). `openRuntime` takes the
 * owner lock (the single writer of runtime state) and builds the bridge; `start()` reconciles
 * (leftover processes, spool recovery, session sync, mapping repair, retention), starts the
 * dispatcher with what was pending, then connects the channels. Periodic reconciling and hourly
 * retention run until `stop()`, which undoes it all in reverse order.
 */
export async function openRuntime(o: RuntimeOptions): Promise<Runtime> {
  const lock: OwnerLock = await acquireOwnerLock(o.paths.ownerLockFile);
  if (lock.tookOverStale) o.logger.warn('took over a stale owner lock left by a crashed process');
  const timers: NodeJS.Timeout[] = [];
  const channels = [...o.channels];
  try {
    const spool = new Spool(o.config.queue.spool_dir);
    const mapping = new UserMapping(o.paths.userMappingFile);
    const listSnapshots = new ListSnapshots(path.join(o.paths.runtimeDir, 'list-snapshots.json'), {
      ttlMs: o.config.queue.list_snapshot_ttl_minutes * 60_000,
    });
    const bridge = new Bridge({
      config: o.config,
      paths: o.paths,
      lang: o.lang,
      logger: o.logger.child('bridge'),
      spool,
      engine: o.engine,
      mapping,
      listSnapshots,
      sessions: o.sessions,
      ...(o.sessionHooks ? { sessionHooks: o.sessionHooks } : {}),
      ...(o.ccexec ? { ccexec: o.ccexec } : {}),
      ...(o.models ? { models: o.models } : {}),
      ownerPolicy: o.ownerPolicy ?? ownerPolicyFrom(o.config, mapping, ['web']),
    });
    for (const c of channels) bridge.addChannel(c);

    const start = async () => {
      await o.killLeftovers?.().catch((err) => o.logger.warn('could not kill leftover processes', { err }));
      await spool.init();
      const recovery = await recoverSpool(spool, bridge.deliveries, o.logger);
      if (recovery.requeued || recovery.finalized)
        o.logger.info('recovered the spool', { ...recovery, broken: recovery.broken.length });

      const reconcile = async () => {
        await o.syncSessions?.().catch((err) => o.logger.warn('session sync failed', { err }));
        await o.repairSessions?.().catch((err) => o.logger.warn('session repair failed', { err }));
        const report = await reconcileMapping({
          mapping,
          spool,
          registry: o.registry,
          logger: o.logger,
          now: Date.now(),
          staleClaimMs: o.config.runtime.hard_timeout_ms,
          recentMs: 24 * 3_600_000,
        });
        if (report.ambiguous.length > 0)
          o.logger.warn('several new sessions could belong to a user; left for /list + /switch', {
            users: report.ambiguous.length,
          });
        await listSnapshots.purgeExpired();
      };
      const housekeeping = async () => {
        const removed = await applyRetention(o.config.queue.spool_dir, o.config.queue);
        o.logger.debug('spool retention', removed);
        for (const task of o.hourly ?? []) await task().catch((err) => o.logger.warn('hourly task failed', { err }));
      };
      await reconcile();
      await housekeeping();

      await bridge.start();
      for (const c of channels) await c.start(bridge);

      const every = (ms: number, fn: () => Promise<void>) => {
        let running = false;
        const t = setInterval(() => {
          if (running) return;
          running = true;
          fn()
            .catch((err) => o.logger.warn('periodic task failed', { err }))
            .finally(() => (running = false));
        }, ms);
        t.unref();
        timers.push(t);
      };
      every(o.reconcileIntervalMs ?? 5 * 60_000, reconcile);
      every(3_600_000, housekeeping);
    };

    let stopped = false;
    return {
      bridge,
      addChannel(channel) {
        channels.push(channel);
        bridge.addChannel(channel);
      },
      start,
      async stop(graceMs = 30_000) {
        if (stopped) return;
        stopped = true;
        for (const t of timers) clearInterval(t);
        for (const c of channels)
          await c.stop().catch((err) => o.logger.warn('channel stop failed', { err, channel: c.id }));
        const { unfinished } = await bridge.stop(graceMs);
        if (unfinished > 0) o.logger.warn('left unfinished messages for the next start', { unfinished });
        await lock.release();
      },
    };
  } catch (err) {
    for (const t of timers) clearInterval(t);
    await lock.release();
    throw err;
  }
}
