import { defineMessages } from '../../core/i18n.js';
import type { CliContext } from '../context/cli-context.js';
import type { CommandSpec } from './command-spec.js';

const messages = defineMessages({
  zh: {
    empty: '没有已保存的“始终允许”规则（{file}、{agentFile}）',
    header: '已保存的“始终允许”规则（{file}）：',
    agentHeader: 'ACP 智能体的“始终允许”规则（{file}）：',
    revoked: '已撤销规则：{rule}',
    notFound: '没有找到规则 {rule}，可用 cc-linker permissions list 查看编号',
    ambiguous: '规则 {rule} 属于多个智能体（{agents}）；请加 --agent <名称>，或用 cc-linker permissions list 里的编号',
    configNote: '另外，配置中的 claude.allowed_tools 始终允许：{rules}',
  },
  en: {
    empty: 'No saved "always allow" rules ({file}, {agentFile})',
    header: 'Saved "always allow" rules ({file}):',
    agentHeader: 'ACP agents\' "always allow" rules ({file}):',
    revoked: 'Revoked rule: {rule}',
    notFound: 'No rule {rule}; run cc-linker permissions list to see the numbers',
    ambiguous:
      'Rule {rule} belongs to several agents ({agents}); add --agent <name>, or use its number from cc-linker permissions list',
    configNote: 'Also always allowed by claude.allowed_tools in the config: {rules}',
  },
});

/** One ACP agent's rule as `list` numbers and prints it. */
interface AgentRow {
  number: number;
  agent: string;
  label: string;
  kind: string;
  command: string;
  addedAt: string;
}

/**
 * Both stores, read once and numbered as `list` prints them: Claude Code's rules first (1…n), then
 * the ACP agents' rules (n+1…), each naming its agent.
 */
async function readRules(ctx: CliContext) {
  const { PermissionStore } = await import('../../claude/permission-store.js');
  const { AgentPermissionStore } = await import('../../agents/acp/agent-permission-store.js');
  const { agentProfile } = await import('../../agents/agent-profiles.js');
  const { agentLabel } = await import('../../sessions/present/format-session.js');
  const claude = new PermissionStore(ctx.paths.permissionsFile);
  const agents = new AgentPermissionStore(ctx.paths.agentPermissionsFile);
  const claudeRules = await claude.list();
  const agentRows: AgentRow[] = (await agents.list()).map((r, i) => ({
    number: claudeRules.length + i + 1,
    agent: r.agent,
    label: agentProfile(ctx.config, r.agent)?.label ?? agentLabel(r.agent),
    kind: r.kind,
    command: r.command,
    addedAt: r.addedAt,
  }));
  return { claude, agents, claudeRules, agentRows };
}

/** `[Codex] execute: npm test` */
const shown = (r: Pick<AgentRow, 'label' | 'kind' | 'command'>) => `[${r.label}] ${r.kind}: ${r.command}`;

/**
 * `cc-linker permissions list|revoke <rule|index>`: the persisted "always allow" rules a user
 * accepted from a permission card, which every later run applies before asking — Claude Code's
 * (`~/.cc-linker/permissions.json`, in its rule syntax) and the ACP agents' (Codex, Qwen Code, …:
 * `~/.cc-linker/agent-permissions.json`, one exact command or title per agent). `list` numbers
 * Claude Code's first, then the agents' (each naming its agent); `revoke` takes a number from
 * `list`, a Claude rule's text, or an agent rule's command (`--agent` picks the agent when several
 * have it). Safe while the bot runs: both files are compare-and-swap versioned documents.
 */
export const permissionsCommand: CommandSpec = {
  name: 'permissions',
  description: 'List or revoke the saved "always allow" tool rules (Claude Code and the ACP agents)',
  subcommands: [
    {
      name: 'list',
      description: 'List saved rules (numbered; ACP agents after Claude Code)',
      options: [{ flags: '--json', description: 'print the rules as JSON' }],
      action: async (ctx, opts: { json?: boolean }) => {
        const t = messages(ctx.lang);
        const file = ctx.paths.permissionsFile;
        const agentFile = ctx.paths.agentPermissionsFile;
        const { claudeRules: rules, agentRows } = await readRules(ctx);
        if (opts.json) {
          ctx.out.json({
            file,
            rules,
            config_allowed_tools: ctx.config.claude.allowed_tools,
            agent_file: agentFile,
            agent_rules: agentRows,
          });
          return 0;
        }
        if (rules.length === 0 && agentRows.length === 0) ctx.out.print(t('empty', { file, agentFile }));
        if (rules.length > 0) {
          const lines = [t('header', { file })];
          rules.forEach((r, i) => {
            const meta = [r.addedAt, r.source].filter((v) => v && v.length > 0).join(' · ');
            lines.push(`${String(i + 1).padStart(3)}. ${r.rule}${meta ? `  (${meta})` : ''}`);
          });
          ctx.out.print(lines.join('\n'));
        }
        if (agentRows.length > 0) {
          const lines = [t('agentHeader', { file: agentFile })];
          for (const r of agentRows)
            lines.push(`${String(r.number).padStart(3)}. ${shown(r)}${r.addedAt ? `  (${r.addedAt})` : ''}`);
          ctx.out.print(lines.join('\n'));
        }
        if (ctx.config.claude.allowed_tools.length > 0)
          ctx.out.progress(t('configNote', { rules: ctx.config.claude.allowed_tools.join(', ') }));
        return 0;
      },
    },
    {
      name: 'revoke',
      description: 'Remove a saved rule, by its number in `permissions list`, its text, or an agent rule’s command',
      args: [{ name: '<rule>', description: 'the number, the rule text (e.g. "Bash(npm test:*)") or the command' }],
      options: [{ flags: '--agent <name>', description: 'with a command: the ACP agent whose rule to remove' }],
      action: async (ctx, rule: string, opts: { agent?: string }) => {
        const t = messages(ctx.lang);
        const { normalizeCommand } = await import('../../agents/acp/agent-permission-store.js');
        const { claude, agents, claudeRules, agentRows } = await readRules(ctx);
        const agent = opts.agent?.toLowerCase();
        const done = (text: string) => {
          ctx.out.print(t('revoked', { rule: text }));
          return 0;
        };
        const notFound = () => {
          ctx.out.progress(t('notFound', { rule }));
          return 1;
        };
        const revokeAgent = async (r: AgentRow) => {
          const removed = await agents.revokeRule(r);
          return removed ? done(shown(r)) : notFound();
        };
        // Claude Code's rules: by their text, or by a number within theirs.
        const claudeNumber = /^\d+$/.test(rule) && Number(rule) >= 1 && Number(rule) <= claudeRules.length;
        if (agent === undefined || agent === 'claude') {
          if (claudeRules.some((r) => r.rule === rule) || (agent === undefined && claudeNumber)) {
            const removed = await claude.revoke(rule);
            return removed ? done(removed.rule) : notFound();
          }
          if (agent === 'claude') return notFound();
        }
        if (agent === undefined && /^\d+$/.test(rule)) {
          const row = agentRows.find((r) => r.number === Number(rule));
          return row ? revokeAgent(row) : notFound();
        }
        const command = normalizeCommand(rule);
        const matches = agentRows.filter((r) => r.command === command && (agent === undefined || r.agent === agent));
        if (matches.length === 0) return notFound();
        const owners = [...new Set(matches.map((r) => r.agent))];
        if (owners.length > 1) {
          ctx.out.progress(t('ambiguous', { rule, agents: owners.join(', ') }));
          return 1;
        }
        // One agent may hold the same command under several kinds (execute, edit): all go.
        let last = 1;
        for (const r of matches) last = await revokeAgent(r);
        return last;
      },
    },
  ],
};
