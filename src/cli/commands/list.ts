import type { ListEntry } from '../../sessions/registry/list-index.js';
import type { Registry, SessionEntry } from '../../sessions/registry/registry-schema.js';
import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';
import { parsePositiveInt } from './option-parsers.js';

interface ListOptions {
  agent?: string;
  origin?: SessionEntry['origin'];
  status?: string;
  project?: string;
  limit: number;
  json?: boolean;
}

const STATUSES = ['provisioning', 'active', 'archived', 'degraded', 'corrupted'];

/**
 * `cc-linker list`: sessions, most recently active first, in this layout:
 *
 *     📋 我的会话（共 8 个）
 *
 *     1. Improve README and create...
 *        ID: 8c4b1297
 *        终端 | 230条 | 刚刚 | cc-linker
 *
 * Another agent's session has its name before the meta line (`[Codex] 终端 | 3条 | …`).
 *
 * Filters: `--agent <name>` (claude, codex, gemini, qwen, opencode, or a configured agent the registry has sessions of; another name is an error
 * listing them), `--origin cli|feishu|web`, `--status <s>`, `--project <text>` (project name or cwd
 * contains it), `--limit <n>` (default 20). `--json` prints the matching entries.
 */
export const listCommand: CommandSpec = {
  name: 'list',
  description: 'List sessions (Claude Code, Codex, Gemini, Qwen, OpenCode), most recently active first',
  options: [
    { flags: '--agent <name>', description: 'only sessions of this agent (claude, codex, gemini, qwen, opencode)' },
    {
      flags: '--origin <origin>',
      description: 'only sessions started from the terminal, from Feishu or in the web console',
      choices: ['cli', 'feishu', 'web'],
    },
    { flags: '--status <status>', description: 'only sessions with this status', choices: STATUSES },
    { flags: '--project <text>', description: 'only sessions whose project name or directory contains text' },
    { flags: '--limit <n>', description: 'show at most n sessions', parse: parsePositiveInt, default: 20 },
    { flags: '--json', description: 'print the sessions as JSON' },
  ],
  action: async (ctx, opts: ListOptions) => {
    const [
      { AGENT_NAMES, isAgentName },
      { SessionsError },
      { requireRegistry },
      { readListIndex, writeListIndex },
      { newestFirst },
      fmt,
      { sessionJson },
      { printWarnings },
    ] = await Promise.all([
      import('../../sessions/scan/agent-files/agent-name.js'),
      import('../../sessions/sessions-error.js'),
      import('../../sessions/registry/read-registry.js'),
      import('../../sessions/registry/list-index.js'),
      import('../../sessions/registry/newest-first.js'),
      import('../../sessions/present/format-session.js'),
      import('../format/session-json.js'),
      import('../format/print-warnings.js'),
    ]);
    // The human listing comes from the small list index when it matches the registry (without a
    // filter, only its first `limit` rows are read: they are newest first); --json prints whole
    // entries, so it (and any doubt about the index) reads the registry itself.
    const filtered = Boolean(opts.agent || opts.origin || opts.status || opts.project);
    const indexed = opts.json ? null : await readListIndex(ctx.paths.registryFile, filtered ? undefined : opts.limit);
    let sessions: { id: string; entry: ListEntry }[];
    let full: Registry | null = null;
    if (indexed) sessions = indexed.sessions;
    else {
      const { registry, warnings, stamp, recoveredFrom } = await requireRegistry(ctx.paths);
      printWarnings(ctx.out, warnings, ctx.lang);
      full = registry;
      // No index yet for this registry (first run after an upgrade, or written by another tool):
      // leave one for the next run. A cache write; a failure here changes nothing.
      if (recoveredFrom === null) await writeListIndex(ctx.paths.registryFile, registry, stamp).catch(() => undefined);
      sessions = Object.entries(registry.sessions).map(([id, entry]) => ({ id, entry }));
    }
    // Known: the agents cc-linker reads, and any configured agent whose sessions the registry holds.
    const known = new Set<string>([...AGENT_NAMES, ...sessions.map(({ entry }) => entry.agent)]);
    if (opts.agent !== undefined && (!isAgentName(opts.agent) || !known.has(opts.agent)))
      throw new SessionsError('UNKNOWN_AGENT', { agent: opts.agent, known: [...known].join(', ') });
    const project = opts.project?.toLowerCase();
    const all = sessions
      .filter(({ entry }) => !opts.agent || entry.agent === opts.agent)
      .filter(({ entry }) => !opts.origin || entry.origin === opts.origin)
      .filter(({ entry }) => !opts.status || (entry.status ?? 'active') === opts.status)
      .filter(
        ({ entry }) =>
          !project ||
          (entry.project_name ?? '').toLowerCase().includes(project) ||
          entry.cwd.toLowerCase().includes(project),
      );
    const shown = newestFirst(all, opts.limit);
    const total = indexed && !filtered ? indexed.total : all.length;
    if (opts.json && full) {
      const registry = full;
      ctx.out.json(shown.map((s) => sessionJson(s.id, registry.sessions[s.id] as SessionEntry)));
      return 0;
    }
    const t = commandMessages(ctx.lang);
    const now = ctx.now();
    const lines = [t('listHeader', { n: total })];
    if (total === 0) lines.push('', t('listEmpty'));
    shown.forEach(({ id, entry }, i) => {
      lines.push(
        '',
        `${i + 1}. ${fmt.truncate(fmt.titleOf(entry, ctx.lang), 30)}`,
        `   ID: ${fmt.shortId(id)}`,
        `   ${fmt.agentTag(entry)}${fmt.sessionMetaLine(entry, now, ctx.lang)}`,
      );
    });
    if (total > shown.length) lines.push('', t('listMore', { n: total - shown.length }));
    ctx.out.print(lines.join('\n'));
    return 0;
  },
};
