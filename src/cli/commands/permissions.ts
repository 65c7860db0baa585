import { defineMessages } from '../../core/i18n.js';
import type { CommandSpec } from './command-spec.js';

const messages = defineMessages({
  zh: {
    empty: '没有已保存的“始终允许”规则（{file}）',
    header: '已保存的“始终允许”规则（{file}）：',
    revoked: '已撤销规则：{rule}',
    notFound: '没有找到规则 {rule}，可用 cc-linker permissions list 查看编号',
    configNote: '另外，配置中的 claude.allowed_tools 始终允许：{rules}',
  },
  en: {
    empty: 'No saved "always allow" rules ({file})',
    header: 'Saved "always allow" rules ({file}):',
    revoked: 'Revoked rule: {rule}',
    notFound: 'No rule {rule}; run cc-linker permissions list to see the numbers',
    configNote: 'Also always allowed by claude.allowed_tools in the config: {rules}',
  },
});

/**
 * `cc-linker permissions list|revoke <rule|index>`: the persisted "always allow" rules a user
 * accepted from a permission card (`~/.cc-linker/permissions.json`), which every later run applies
 * before asking. `revoke` takes the rule text or its number from `list`; it is safe while the bot
 * runs (the file is a compare-and-swap versioned document).
 */
export const permissionsCommand: CommandSpec = {
  name: 'permissions',
  description: 'List or revoke the saved "always allow" tool rules',
  subcommands: [
    {
      name: 'list',
      description: 'List saved rules (numbered)',
      options: [{ flags: '--json', description: 'print the rules as JSON' }],
      action: async (ctx, opts: { json?: boolean }) => {
        const { PermissionStore } = await import('../../claude/permission-store.js');
        const t = messages(ctx.lang);
        const file = ctx.paths.permissionsFile;
        const rules = await new PermissionStore(file).list();
        if (opts.json) {
          ctx.out.json({ file, rules, config_allowed_tools: ctx.config.claude.allowed_tools });
          return 0;
        }
        if (rules.length === 0) ctx.out.print(t('empty', { file }));
        else {
          const lines = [t('header', { file })];
          rules.forEach((r, i) => {
            const meta = [r.addedAt, r.source].filter((v) => v && v.length > 0).join(' · ');
            lines.push(`${String(i + 1).padStart(3)}. ${r.rule}${meta ? `  (${meta})` : ''}`);
          });
          ctx.out.print(lines.join('\n'));
        }
        if (ctx.config.claude.allowed_tools.length > 0)
          ctx.out.progress(t('configNote', { rules: ctx.config.claude.allowed_tools.join(', ') }));
        return 0;
      },
    },
    {
      name: 'revoke',
      description: 'Remove a saved rule, by its text or its number in `permissions list`',
      args: [{ name: '<rule>', description: 'the rule text (e.g. "Bash(npm test:*)") or its number' }],
      action: async (ctx, rule: string) => {
        const { PermissionStore } = await import('../../claude/permission-store.js');
        const t = messages(ctx.lang);
        const removed = await new PermissionStore(ctx.paths.permissionsFile).revoke(rule);
        if (!removed) {
          ctx.out.progress(t('notFound', { rule }));
          return 1;
        }
        ctx.out.print(t('revoked', { rule: removed.rule }));
        return 0;
      },
    },
  ],
};
