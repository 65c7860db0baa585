import type { CliContext } from '../context/cli-context.js';
import { printWarnings } from '../format/print-warnings.js';
import { createProgressBar } from '../format/progress-bar.js';
import type { ScanProgress } from '../../sessions/scan/scan-claude-projects.js';
import type { SyncResult } from '../../sessions/registry/sync-registry.js';

/** A scan this big gets a progress bar on an interactive terminal. */
const BAR_MIN_FILES = 50;
const BAR_MIN_BYTES = 20 * 1024 * 1024;

/**
 * The shared body of `init` and `sync`: scans, merges and writes the registry, prints the warnings
 * on stderr (and a progress bar on a TTY for a big scan). While `cc-linker start` owns the state,
 * `sync` (`viaDaemon`) asks the daemon to run its own sync and prints its result the same way;
 * `init` is refused then. Heavy modules are imported here, inside the action, to keep the CLI's
 * start fast.
 */
export async function runSync(
  ctx: CliContext,
  opts: { action: string; incremental: boolean; viaDaemon?: boolean },
): Promise<SyncResult> {
  const [{ assertNoLiveOwner }, { runHereOrInDaemon }] = await Promise.all([
    import('../../store/owner-lock.js'),
    import('../start/ask-daemon.js'),
  ]);
  const result = opts.viaDaemon
    ? await runHereOrInDaemon(ctx.paths, opts.action, { op: 'sync' }, () => syncHere(ctx, opts))
    : await assertNoLiveOwner(ctx.paths.ownerLockFile, opts.action).then(() => syncHere(ctx, opts));
  printWarnings(ctx.out, result.warnings, ctx.lang);
  return result;
}

async function syncHere(ctx: CliContext, opts: { incremental: boolean }): Promise<SyncResult> {
  const [{ syncRegistry }, { readMappedSessions }, { agentScanPaths }] = await Promise.all([
    import('../../sessions/registry/sync-registry.js'),
    import('../../bridge/mapping/read-mapped-sessions.js'),
    import('../../agents/agent-dirs.js'),
  ]);
  let bar: ReturnType<typeof createProgressBar> | null = null;
  return syncRegistry({
    paths: agentScanPaths(ctx.paths, ctx.config, ctx.env),
    maxFileSize: ctx.config.scanner.max_file_size,
    readMapping: () => readMappedSessions(ctx.paths.userMappingFile),
    incremental: opts.incremental && ctx.config.scanner.incremental,
    now: ctx.now(),
    // Off a terminal there is no bar to draw: no callback per file at all.
    ...(ctx.out.isTTY
      ? {
          onProgress: (p: Readonly<ScanProgress>) => {
            if (bar === null && p.filesDone === 0 && (p.filesTotal >= BAR_MIN_FILES || p.bytesTotal >= BAR_MIN_BYTES))
              bar = createProgressBar((s) => process.stderr.write(s));
            bar?.update(p);
          },
        }
      : {}),
  }).finally(() => (bar as ReturnType<typeof createProgressBar> | null)?.done());
}
