import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';

/**
 * `cc-linker hook install|uninstall|status`: the Claude Code SessionStart hook that reports new
 * terminal sessions (it only writes discovery events; `sync` or the running bot merges them).
 * Install/uninstall change only cc-linker's own entry in Claude's settings.json, keep a backup of
 * the previous file in `~/.cc-linker/backups/`, and never touch other hooks or settings.
 */
export const hookCommand: CommandSpec = {
  name: 'hook',
  description: 'Install, remove or check the Claude Code SessionStart hook',
  subcommands: [
    {
      name: 'install',
      description: 'Add the SessionStart hook to Claude Code settings',
      action: async (ctx) => {
        const [fs, { installHook, defaultHookScript }, { hookTargetFor }] = await Promise.all([
          import('node:fs'),
          import('../../sessions/hook/claude-hook.js'),
          import('./hook-target.js'),
        ]);
        const t = commandMessages(ctx.lang);
        const target = hookTargetFor(ctx);
        const script = target.scriptPath ?? defaultHookScript();
        if (!fs.existsSync(script)) ctx.out.progress(t('hookScriptMissing', { file: script }));
        const r = await installHook(target);
        ctx.out.print(t(r.changed ? 'hookInstalled' : 'hookUnchanged', { file: r.file }));
        return 0;
      },
    },
    {
      name: 'uninstall',
      description: 'Remove the SessionStart hook from Claude Code settings',
      action: async (ctx) => {
        const [{ uninstallHook }, { hookTargetFor }] = await Promise.all([
          import('../../sessions/hook/claude-hook.js'),
          import('./hook-target.js'),
        ]);
        const t = commandMessages(ctx.lang);
        const r = await uninstallHook(hookTargetFor(ctx));
        ctx.out.print(r.changed ? t('hookRemoved', { file: r.file }) : t('hookNotPresent'));
        return 0;
      },
    },
    {
      name: 'status',
      description: 'Show whether the SessionStart hook is installed',
      options: [{ flags: '--json', description: 'print the status as JSON' }],
      action: async (ctx, opts: { json?: boolean }) => {
        const [{ hookStatus }, { hookTargetFor }] = await Promise.all([
          import('../../sessions/hook/claude-hook.js'),
          import('./hook-target.js'),
        ]);
        const t = commandMessages(ctx.lang);
        const s = await hookStatus(hookTargetFor(ctx));
        if (opts.json) {
          ctx.out.json({ claude_code: s.state, command: s.command, settings: ctx.paths.claudeSettingsFile });
          return 0;
        }
        const lines = [`${t('statusClaudeCode').padEnd(17)}${t(`hook_${s.state}`)}`];
        if (s.command) lines.push(t('hookCommand', { command: s.command }));
        ctx.out.print(lines.join('\n'));
        return 0;
      },
    },
  ],
};
