import path from 'node:path';
import type { Paths } from '../../core/paths.js';
import { CoalescedTask } from '../../core/coalesced-task.js';
import { watchDirs, type DirWatch, type WatchMode, type WatchRoot } from '../../store/watch-dirs.js';
import type { AgentDirs } from '../scan/agent-files/agent-reader.js';
import { registryStamp } from './read-registry.js';
import type { SyncResult } from './sync-registry.js';

/** What the live registry watches and how it syncs. */
export interface LiveRegistryOptions {
  paths: Pick<Paths, 'home' | 'registryFile' | 'claudeProjectsDir' | 'sessionEventsDir'> & Partial<AgentDirs>;
  /** The incremental sync (`syncRegistry` with the caller's mapping reader). */
  sync: () => Promise<SyncResult>;
  /** The registry file changed (a sync, or the bridge recording a session): tell the pages. */
  onRegistryChanged: () => void;
  /** A watcher or sync failure; logged by the caller, never thrown. */
  onError: (err: unknown, what: 'watch' | 'sync') => void;
  /** `poll` skips `fs.watch` (tests). */
  mode?: 'auto' | 'poll';
  /** Wait after the first change of a burst before syncing. Default 250 ms. */
  settleMs?: number;
  pollMs?: number;
}

/** The longest rest between two watcher-started syncs. */
const MAX_REST_MS = 1000;

export interface LiveRegistry {
  /** Syncs now (or joins the sync queued behind the one running) and returns its result. */
  syncNow(): Promise<SyncResult>;
  /** How each watched directory is watched. */
  modes(): Record<string, WatchMode>;
  close(): void;
}

/**
 * Keeps the registry current while the daemon runs (docs/design.md, "The session registry"): it
 * watches Claude Code's projects tree, the hook's events folder and the other agents' storage
 * folders (`watchDirs`: `fs.watch`, or the poll where that fails), waits `settleMs` after the first
 * change of a burst (and at least as long as the last sync took, up to 1 s, after it ended), then
 * runs the incremental sync — one at a time, a burst during a sync folded
 * into one more (`CoalescedTask`). Every caller that wants a sync (`sync` asked of the daemon, the
 * console's Refresh, the periodic reconcile) goes through `syncNow`, so two syncs never overlap.
 * A change of `registry.json` (whoever wrote it) calls `onRegistryChanged`, debounced the same way.
 */
export function startLiveRegistry(o: LiveRegistryOptions): LiveRegistry {
  const settleMs = o.settleMs ?? 250;
  let closed = false;
  let lastStamp: string | null | undefined;
  // The last sync's end and length: a watcher-started sync rests as long as the last one took, so
  // a session being written to all the time costs at most half of a core (docs/design.md).
  let lastEnd = 0;
  let lastTook = 0;
  const task = new CoalescedTask(async () => {
    const began = Date.now();
    try {
      const result = await o.sync();
      await announce();
      return result;
    } finally {
      lastEnd = Date.now();
      lastTook = Math.min(lastEnd - began, MAX_REST_MS);
    }
  });
  const announce = async () => {
    const stamp = await registryStamp(o.paths.registryFile).catch(() => null);
    if (stamp === lastStamp) return;
    lastStamp = stamp;
    if (!closed) o.onRegistryChanged();
  };
  const later = (fn: () => void, delay: () => number) => {
    let timer: NodeJS.Timeout | null = null;
    return () => {
      if (timer || closed) return;
      timer = setTimeout(() => {
        timer = null;
        fn();
      }, delay());
      timer.unref();
    };
  };
  const syncSoon = later(
    () => {
      // A sync still running when the watch is closed (the daemon stops) fails quietly.
      task.run().catch((err: unknown) => closed || o.onError(err, 'sync'));
    },
    () => Math.max(settleMs, lastEnd + lastTook - Date.now()),
  );
  const announceSoon = later(
    () => {
      announce().catch((err: unknown) => closed || o.onError(err, 'sync'));
    },
    () => settleMs,
  );

  const p = o.paths;
  const registryName = path.basename(p.registryFile);
  const sessionRoots: WatchRoot[] = [
    { dir: p.claudeProjectsDir, recursive: true, pollDepth: 2 },
    { dir: p.sessionEventsDir, recursive: false, pollDepth: 1 },
    ...[
      p.codexHome && path.join(p.codexHome, 'sessions'),
      p.geminiHome && path.join(p.geminiHome, 'tmp'),
      p.qwenHome && path.join(p.qwenHome, 'projects'),
      p.opencodeDataDir,
    ]
      .filter((d): d is string => typeof d === 'string' && d !== '')
      // The other agents' folders are watched where they exist; the periodic sync covers the rest.
      .map((dir) => ({ dir, recursive: true, pollDepth: 0 })),
  ];
  const registryRoot: WatchRoot = {
    dir: path.dirname(p.registryFile),
    recursive: false,
    pollDepth: 1,
    accept: (rel) => rel === registryName,
  };
  registryStamp(p.registryFile).then(
    (s) => (lastStamp ??= s),
    () => undefined,
  );
  const watch: DirWatch = watchDirs([...sessionRoots, registryRoot], {
    onChange: (root) => (root === registryRoot ? announceSoon() : syncSoon()),
    onError: (err) => o.onError(err, 'watch'),
    ...(o.mode ? { mode: o.mode } : {}),
    ...(o.pollMs ? { pollMs: o.pollMs } : {}),
  });

  return {
    syncNow: () => task.run(),
    modes: () => watch.modes(),
    close() {
      closed = true;
      watch.close();
    },
  };
}
