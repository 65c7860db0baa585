import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';

/**
 * `cc-linker clean [--dry-run]`: removes registry entries that cannot be used and
 * says why — the JSONL file is gone, the session is empty (its empty file is deleted too, or the
 * next scan would bring it back), or the hook announced it and nothing was ever written:
 *
 *     将清理 2 个会话:
 *       - 028037a3  未命名  (空会话，没有消息…)
 *     （dry run，未实际删除）
 *
 * While `start` runs, the running daemon removes the entries (its request socket; `--dry-run`
 * writes nothing and runs here).
 */
export const cleanCommand: CommandSpec = {
  name: 'clean',
  description: 'Remove unusable sessions from the registry (empty, file gone)',
  options: [
    { flags: '--dry-run', description: 'only show what would be removed' },
    { flags: '--json', description: 'print the plan/result as JSON' },
  ],
  action: async (ctx, opts: { dryRun?: boolean; json?: boolean }) => {
    const [{ requireRegistry }, clean, fmt, { runHereOrInDaemon }, { printWarnings }] = await Promise.all([
      import('../../sessions/registry/read-registry.js'),
      import('../../sessions/registry/plan-clean.js'),
      import('../../sessions/present/format-session.js'),
      import('../start/ask-daemon.js'),
      import('../format/print-warnings.js'),
    ]);
    const { registry, warnings } = await requireRegistry(ctx.paths);
    printWarnings(ctx.out, warnings, ctx.lang);
    const now = ctx.now();
    const plan = clean.planClean(registry, now);
    const result =
      opts.dryRun || plan.length === 0
        ? { removed: plan, kept: [] }
        : await runHereOrInDaemon(ctx.paths, 'cc-linker clean', { op: 'clean' }, () =>
            clean.applyClean(ctx.paths, now, { maxFileSize: ctx.config.scanner.max_file_size }),
          );
    if (opts.json) {
      ctx.out.json({
        dry_run: Boolean(opts.dryRun),
        removed: result.removed.map((i) => ({
          session_id: i.id,
          reason: i.reason,
          title: i.entry.title,
          jsonl_path: i.entry.jsonl_path,
        })),
        kept: result.kept.map((i) => i.id),
      });
      return 0;
    }
    const t = commandMessages(ctx.lang);
    if (result.removed.length === 0 && result.kept.length === 0) {
      ctx.out.print(t('cleanNothing'));
      return 0;
    }
    const lines = [t('cleanPlan', { n: result.removed.length })];
    for (const item of result.removed)
      lines.push(`  - ${fmt.shortId(item.id)}  ${fmt.titleOf(item.entry, ctx.lang)}  (${t(`reason_${item.reason}`)})`);
    if (opts.dryRun) lines.push(t('cleanDryRun'));
    else {
      lines.push(t('cleanDone', { n: result.removed.length }));
      if (result.kept.length > 0) lines.push(t('cleanKept', { n: result.kept.length }));
    }
    ctx.out.print(lines.join('\n'));
    return 0;
  },
};
