import type { CommandSpec } from './command-spec.js';
import type { DaemonState } from '../start/daemon-status.js';
import { commandMessages } from './command-messages.js';

/**
 * `cc-linker status`: the registry (file, last change, counts by origin and status), whether the
 * Claude Code hook is installed, and whether `cc-linker start` runs — with each chat channel's
 * state and the queue, asked of the daemon over its request socket. Read-only; works while
 * `start` runs. A registry that does not exist yet, or a daemon that does not answer, is reported,
 * not an error.
 */
export const statusCommand: CommandSpec = {
  name: 'status',
  description: 'Show the registry, the hook, and the running daemon with its chat channels',
  options: [{ flags: '--json', description: 'print the status as JSON' }],
  action: async (ctx, opts: { json?: boolean }) => {
    const [
      fs,
      { readRegistry },
      { hookStatus },
      fmt,
      { tildify },
      { printWarnings },
      { hookTargetFor },
      { padLabel },
      { readDaemonStatus },
    ] = await Promise.all([
      import('node:fs'),
      import('../../sessions/registry/read-registry.js'),
      import('../../sessions/hook/claude-hook.js'),
      import('../../sessions/present/format-session.js'),
      import('../../core/tildify.js'),
      import('../format/print-warnings.js'),
      import('./hook-target.js'),
      import('../format/display-width.js'),
      import('../start/daemon-status.js'),
    ]);
    const { registry, exists, warnings } = await readRegistry(ctx.paths);
    printWarnings(ctx.out, warnings, ctx.lang);
    const mtime = exists
      ? await fs.promises.stat(ctx.paths.registryFile).then(
          (s) => s.mtime.toISOString(),
          () => null,
        )
      : null;
    const entries = Object.values(registry.sessions);
    const count = (pred: (e: (typeof entries)[number]) => boolean) => entries.filter(pred).length;
    const byStatus = {
      active: count((e) => (e.status ?? 'active') === 'active'),
      provisioning: count((e) => e.status === 'provisioning'),
      degraded: count((e) => e.status === 'degraded'),
      archived: count((e) => e.status === 'archived'),
      corrupted: count((e) => e.status === 'corrupted'),
    };
    const byOrigin = {
      cli: count((e) => e.origin === 'cli'),
      feishu: count((e) => e.origin === 'feishu'),
      web: count((e) => e.origin === 'web'),
    };
    const [hook, daemon] = await Promise.all([hookStatus(hookTargetFor(ctx)), readDaemonStatus(ctx.paths)]);
    if (opts.json) {
      ctx.out.json({
        registry: {
          file: ctx.paths.registryFile,
          exists,
          modified: mtime,
          total: entries.length,
          origin: byOrigin,
          status: byStatus,
        },
        hook: { claude_code: hook.state },
        daemon,
      });
      return 0;
    }
    const t = commandMessages(ctx.lang);
    const pad = padLabel; // wide (CJK) labels take two columns each
    const file = tildify(ctx.paths.registryFile, ctx.paths.userHome);
    const lines = [
      t('statusTitle'),
      '─'.repeat(36),
      `${pad(t('statusRegistry'), 15)}${file}${exists ? '' : ` ${t('statusNotInit')}`}`,
      `${pad(t('statusModified'), 15)}${mtime ? fmt.formatRelativeTime(mtime, ctx.now(), ctx.lang) : '-'}`,
      `${t('statusTotal')} ${entries.length}`,
      `  ${pad(t('statusFromCli'), 23)}${byOrigin.cli}`,
      `  ${pad(t('statusFromFeishu'), 23)}${byOrigin.feishu}`,
      `  ${pad(t('statusFromWeb'), 23)}${byOrigin.web}`,
      `  ${pad(t('statusActive'), 23)}${byStatus.active}`,
      `  ${pad(t('statusProvisioning'), 23)}${byStatus.provisioning}`,
      `  ${pad(t('statusDegraded'), 23)}${byStatus.degraded}`,
      `  ${pad(t('statusArchived'), 23)}${byStatus.archived}`,
      `  ${pad(t('statusCorrupted'), 23)}${byStatus.corrupted}`,
      '',
      t('statusHook'),
      `  ${pad(t('statusClaudeCode'), 17)}${t(`hook_${hook.state}`)}`,
      '',
      ...daemonLines(daemon, t, pad),
    ];
    ctx.out.print(lines.join('\n'));
    return 0;
  },
};

/** The daemon's lines: running or not, then each chat channel's state and the queue. */
function daemonLines(
  d: DaemonState,
  t: ReturnType<typeof commandMessages>,
  pad: (label: string, width: number) => string,
): string[] {
  const head = (state: string) => t('statusDaemon', { state });
  if (d.state === 'stopped') return [head(t('statusDaemonStopped'))];
  if (d.state === 'elsewhere') return [head(t('statusDaemonElsewhere', { host: d.host, pid: d.pid }))];
  if (d.state === 'silent') return [head(t('statusDaemonSilent', { pid: d.pid }))];
  const channels = d.channels.filter((c) => c.id !== 'web');
  return [
    head(t('statusDaemonRunning', { pid: d.pid })),
    ...(channels.length === 0
      ? [`  ${t('statusNoChannels')}`]
      : channels.map(
          (c) => `  ${pad(c.id, 17)}${c.connected ? `✓ ${c.detail ?? t('statusConnected')}` : `✗ ${c.detail ?? '-'}`}`,
        )),
    `  ${pad(t('statusQueue'), 17)}${t('statusQueueLine', { pending: d.pending, processing: d.processing, running: d.running, failed: d.failed })}`,
  ];
}
