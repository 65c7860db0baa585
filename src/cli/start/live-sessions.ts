import type { Config } from '../../core/config-schema.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';
import { readMappedSessions } from '../../bridge/mapping/read-mapped-sessions.js';
import { startLiveRegistry, type LiveRegistry } from '../../sessions/registry/live-registry.js';
import { applyClean } from '../../sessions/registry/plan-clean.js';
import { repairSession } from '../../sessions/registry/repair-session.js';
import { syncRegistry, type SyncResult } from '../../sessions/registry/sync-registry.js';
import type { FileSenderRegistry } from '../../engine/file-sender-registry.js';
import { controlSocketPath, type DaemonStatusAnswer } from './control-protocol.js';
import { startControlServer, type ControlServer } from './control-server.js';

/** The daemon's registry services: the live registry and the request socket. */
export interface LiveSessions {
  /** The one way the daemon syncs (watcher, reconcile, `sync` asked of it, the console's Refresh). */
  syncNow(): Promise<SyncResult>;
  live: LiveRegistry;
  /** Null when the socket could not be opened (logged). */
  control: ControlServer | null;
  close(): Promise<void>;
}

export interface LiveSessionsOptions {
  config: Config;
  paths: Paths;
  /** `paths` with each agent's storage where cc-linker starts it (`agentScanPaths`). */
  scanPaths: Paths;
  logger: Logger;
  /** The registry changed: the console pushes the news to open pages. */
  onRegistryChanged: () => void;
  /** `poll` forces the poll fallback (tests). */
  watch?: 'auto' | 'poll';
  /** Answers the `send_file` calls `cc-linker mcp` forwards (docs/design.md#files-out). */
  files: FileSenderRegistry;
  /** Answers `status` (the channels and the queue; the bridge is created after this socket). */
  status: () => Promise<DaemonStatusAnswer>;
}

/**
 * Starts what keeps the registry current while `start` runs and lets the write commands reach it
 * (docs/design.md, "The session registry"): the live registry (watch → settle → incremental sync,
 * one at a time) and the request socket that runs `sync`, `clean` and `repair` for the CLI. A
 * watcher, sync or socket failure is logged, never thrown.
 */
export async function startLiveSessions(o: LiveSessionsOptions): Promise<LiveSessions> {
  const { config, paths, scanPaths, logger } = o;
  const log = logger.child('registry');
  const live = startLiveRegistry({
    paths: scanPaths,
    sync: () =>
      syncRegistry({
        paths: scanPaths,
        maxFileSize: config.scanner.max_file_size,
        incremental: config.scanner.incremental,
        readMapping: () => readMappedSessions(paths.userMappingFile),
      }),
    onRegistryChanged: o.onRegistryChanged,
    onError: (err, what) =>
      log.warn(what === 'watch' ? 'session watcher failed; polling instead' : 'live sync failed', { err }),
    ...(o.watch ? { mode: o.watch } : {}),
  });
  log.info('watching session folders', { modes: live.modes() });
  // Without the socket (e.g. a path longer than a socket's 107 bytes) the daemon still runs: the
  // write commands then say it did not answer, and what to do.
  const control = await startControlServer(
    controlSocketPath(paths),
    async (request) => {
      const maxFileSize = config.scanner.max_file_size;
      if (request.op === 'sync') return live.syncNow();
      if (request.op === 'clean') return applyClean(paths, new Date(), { maxFileSize });
      if (request.op === 'status') return o.status();
      if (request.op === 'send_file')
        return o.files.send(request.token, {
          path: request.path,
          ...(request.caption ? { caption: request.caption } : {}),
        });
      return repairSession(paths, request.id, { maxFileSize, now: new Date() });
    },
    log,
  ).catch((err: unknown) => {
    log.warn('could not open the request socket; sync, clean and repair cannot reach this daemon', { err });
    return null;
  });
  return {
    syncNow: () => live.syncNow(),
    live,
    control,
    async close() {
      live.close();
      await control?.close();
    },
  };
}
