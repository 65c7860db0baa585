import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';
import { parsePositiveInt } from './option-parsers.js';

/**
 * `cc-linker search <query>`: case-insensitive search of titles, previews, project
 * names and directories; `--content` also streams every session file and searches the message
 * text (prompts and replies). Newest first; `--limit <n>` shows only the first n (the count says
 * how many matched). Output:
 *
 *     找到 3 个匹配:
 *     1. Improve README and create acceptance guide
 *        ID: 8c4b1297 | 终端 | 230条 | 刚刚
 */
export const searchCommand: CommandSpec = {
  name: 'search',
  description: 'Search sessions by title, previews and project (--content: message text too)',
  args: [{ name: '<query>', description: 'text to look for' }],
  options: [
    { flags: '--content', description: 'also search the message text of every session file' },
    {
      flags: '--limit <n>',
      description: 'show at most n matches (newest first; default all)',
      parse: parsePositiveInt,
    },
    { flags: '--json', description: 'print the matches as JSON' },
  ],
  action: async (ctx, query: string, opts: { content?: boolean; json?: boolean; limit?: number }) => {
    const [{ requireRegistry }, search, fmt, { sessionJson }, { printWarnings }] = await Promise.all([
      import('../../sessions/registry/read-registry.js'),
      import('../../sessions/present/search-sessions.js'),
      import('../../sessions/present/format-session.js'),
      import('../format/session-json.js'),
      import('../format/print-warnings.js'),
    ]);
    const { registry, warnings } = await requireRegistry(ctx.paths);
    printWarnings(ctx.out, warnings, ctx.lang);
    const hits = opts.content
      ? await search.searchContent(registry, query, { maxFileSize: ctx.config.scanner.max_file_size })
      : search.searchSessions(registry, query);
    const shown = opts.limit === undefined ? hits : hits.slice(0, opts.limit);
    if (opts.json) {
      ctx.out.json(shown.map((h) => ({ ...sessionJson(h.id, h.entry), matched: h.fields, snippet: h.snippet })));
      return 0;
    }
    const t = commandMessages(ctx.lang);
    if (hits.length === 0) {
      ctx.out.print(t('searchNone', { q: query }));
      return 0;
    }
    const now = ctx.now();
    const lines = [t('searchFound', { n: hits.length })];
    shown.forEach((h, i) => {
      const meta = fmt.sessionMetaLine(h.entry, now, ctx.lang).split(' | ').slice(0, 3).join(' | ');
      lines.push(
        `${i + 1}. ${fmt.titleOf(h.entry, ctx.lang)}`,
        `   ID: ${fmt.shortId(h.id)} | ${fmt.agentTag(h.entry)}${meta}`,
      );
      if (h.snippet) lines.push(`   “${h.snippet}”`);
    });
    if (hits.length > shown.length) lines.push(t('listMore', { n: hits.length - shown.length }));
    ctx.out.print(lines.join('\n'));
    return 0;
  },
};
