import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';

/**
 * `cc-linker show <id-prefix>`: one session's details. An ambiguous prefix is an
 * error listing the candidates. `--json` prints the registry entry.
 */
export const showCommand: CommandSpec = {
  name: 'show',
  description: 'Show the details of one session',
  args: [{ name: '<id>', description: 'session id or id prefix' }],
  options: [{ flags: '--json', description: 'print the session as JSON' }],
  action: async (ctx, idPrefix: string, opts: { json?: boolean }) => {
    const [{ requireRegistry }, { resolveSession }, fmt, { sessionJson }, { padLabel }, { printWarnings }] =
      await Promise.all([
        import('../../sessions/registry/read-registry.js'),
        import('../../sessions/registry/resolve-session.js'),
        import('../../sessions/present/format-session.js'),
        import('../format/session-json.js'),
        import('../format/display-width.js'),
        import('../format/print-warnings.js'),
      ]);
    const { registry, warnings } = await requireRegistry(ctx.paths);
    printWarnings(ctx.out, warnings, ctx.lang);
    const { id, entry } = resolveSession(registry, idPrefix);
    if (opts.json) {
      ctx.out.json(sessionJson(id, entry));
      return 0;
    }
    const t = commandMessages(ctx.lang);
    const row = (label: Parameters<typeof t>[0], value: string) => `${padLabel(t(label), 13)}${value}`;
    const lines = [
      t('showHeader'),
      '─'.repeat(36),
      row('showUuid', id),
      row('showTitle', fmt.titleOf(entry, ctx.lang)),
      row('showAgent', fmt.agentLabel(entry.agent)),
      row('showOrigin', fmt.originLabel(entry, ctx.lang)),
      row('showProject', fmt.projectOf(entry)),
      row('showCwd', entry.cwd),
      row('showStatus', fmt.statusLabel(entry, ctx.lang)),
      row('showCreated', fmt.formatDateTime(entry.created_at, ctx.lang)),
      row('showLastActive', fmt.formatRelativeTime(entry.last_active, ctx.now(), ctx.lang)),
      row('showMessages', String(entry.message_count)),
    ];
    if (entry.lastKnownProvider) lines.push(row('showModel', entry.lastKnownProvider));
    if (entry.jsonl_path) lines.push(row('showJsonl', entry.jsonl_path));
    if (entry.last_message_preview) lines.push(row('showLastMessage', entry.last_message_preview));
    if (entry.last_error) lines.push(row('showError', entry.last_error));
    ctx.out.print(lines.join('\n'));
    return 0;
  },
};
