import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';

/**
 * `cc-linker repair <id>`: re-resolves a session's JSONL path (provisioning/degraded sessions,
 * moved files) by searching `projects/*\/<id>.jsonl`, rescans it and updates the registry. Exits 1
 * when the file is still missing. While `start` runs, the running daemon repairs the entry (its
 * request socket) and this prints its result.
 */
export const repairCommand: CommandSpec = {
  name: 'repair',
  description: 'Find the session file of a provisioning/degraded session and fix its registry entry',
  args: [{ name: '<id>', description: 'session id or id prefix' }],
  options: [{ flags: '--json', description: 'print the result as JSON' }],
  action: async (ctx, idPrefix: string, opts: { json?: boolean }) => {
    const [{ repairSession }, { runHereOrInDaemon }, { requireRegistry }, { sessionJson }, { shortId, statusLabel }] =
      await Promise.all([
        import('../../sessions/registry/repair-session.js'),
        import('../start/ask-daemon.js'),
        import('../../sessions/registry/read-registry.js'),
        import('../format/session-json.js'),
        import('../../sessions/present/format-session.js'),
      ]);
    await requireRegistry(ctx.paths);
    const r = await runHereOrInDaemon(ctx.paths, 'cc-linker repair', { op: 'repair', id: idPrefix }, () =>
      repairSession(ctx.paths, idPrefix, { maxFileSize: ctx.config.scanner.max_file_size, now: ctx.now() }),
    );
    if (opts.json) {
      ctx.out.json({ ...sessionJson(r.id, r.entry), found: r.found, resumable: r.resumable });
      return r.found ? 0 : 1;
    }
    const t = commandMessages(ctx.lang);
    const id = shortId(r.id);
    const status = statusLabel(r.entry, ctx.lang);
    if (!r.found) {
      ctx.out.print(t('repairStillMissing', { id, reason: r.entry.last_error ?? '-', status }));
      return 1;
    }
    ctx.out.print(
      r.resumable || r.entry.jsonl_path === r.found
        ? t('repairFound', { id, file: r.found, status })
        : t('repairTooLarge', { id, file: r.found }),
    );
    return 0;
  },
};
