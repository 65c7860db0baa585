import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';

/**
 * `cc-linker sync`: incremental rescan — only files whose size or mtime changed are
 * read — plus the hook's discovery events; the registry is rewritten only when something changed.
 * While `start` runs, the running daemon does the sync (its request socket) and this prints its result.
 */
export const syncCommand: CommandSpec = {
  name: 'sync',
  description: 'Rescan changed session files and merge hook discoveries into the registry',
  options: [{ flags: '--json', description: 'print the result as JSON' }],
  action: async (ctx, opts: { json?: boolean }) => {
    const { runSync } = await import('./run-sync.js');
    const r = await runSync(ctx, { action: 'cc-linker sync', incremental: true, viaDaemon: true });
    if (opts.json) {
      ctx.out.json({
        registry: ctx.paths.registryFile,
        created: r.created,
        ...r.stats,
        read: r.scan.read,
        cached: r.scan.cached,
        agents_read: r.agents?.read ?? 0,
        agents_cached: r.agents?.cached ?? 0,
        skipped_not_session_ids: r.scan.notSessionIds,
        events: r.events,
        warnings: r.warnings.length,
      });
      return 0;
    }
    const t = commandMessages(ctx.lang);
    ctx.out.print(t('syncStart'));
    ctx.out.print(t('foundSessions', { n: r.stats.scanned }));
    const others = Object.entries(r.stats.others ?? {});
    if (others.length > 0)
      ctx.out.print(t('foundOthers', { list: others.map(([agent, n]) => `${n} ${agent}`).join(', ') }));
    if (r.scan.notSessionIds > 0) ctx.out.print(t('skippedNotIds', { n: r.scan.notSessionIds }));
    ctx.out.print(t('restoredFeishu', { n: r.stats.feishu }));
    ctx.out.print(t('syncDone', { n: r.stats.total }));
    return 0;
  },
};
