import type { CommandSpec } from './command-spec.js';
import { tildify } from '../../core/tildify.js';
import { commandMessages } from './command-messages.js';

/**
 * `cc-linker init`: creates `~/.cc-linker/registry.json` and registers every Claude
 * Code session found on disk, rescanning all files (the cache is rebuilt). Feishu-origin metadata is
 * carried over from an existing registry and `user-mapping.json`. Refused while `start` runs.
 */
export const initCommand: CommandSpec = {
  name: 'init',
  description: 'Create the registry and register every Claude Code session on this machine',
  options: [{ flags: '--json', description: 'print the result as JSON' }],
  action: async (ctx, opts: { json?: boolean }) => {
    const { runSync } = await import('./run-sync.js');
    const r = await runSync(ctx, { action: 'cc-linker init', incremental: false });
    if (opts.json) {
      ctx.out.json({
        registry: ctx.paths.registryFile,
        created: r.created,
        ...r.stats,
        skipped_not_session_ids: r.scan.notSessionIds,
        warnings: r.warnings.length,
      });
      return 0;
    }
    const t = commandMessages(ctx.lang);
    const file = tildify(ctx.paths.registryFile, ctx.paths.userHome);
    ctx.out.print(t(r.created ? 'initCreated' : 'initExisting', { file }));
    ctx.out.print(t('initScanning'));
    ctx.out.print(t('foundSessions', { n: r.stats.scanned }));
    const others = Object.entries(r.stats.others ?? {});
    if (others.length > 0)
      ctx.out.print(t('foundOthers', { list: others.map(([agent, n]) => `${n} ${agent}`).join(', ') }));
    if (r.scan.notSessionIds > 0) ctx.out.print(t('skippedNotIds', { n: r.scan.notSessionIds }));
    ctx.out.print(t('restoredFeishu', { n: r.stats.feishu }));
    ctx.out.print(t('initDone', { n: r.stats.total }));
    return 0;
  },
};
