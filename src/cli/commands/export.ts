import type { CommandSpec } from './command-spec.js';
import { commandMessages } from './command-messages.js';

interface ExportOptions {
  format: 'markdown' | 'json' | 'text';
  output?: string;
  thinking?: boolean;
}

/**
 * `cc-linker export <id> --format markdown|json|text [--output <file>] [--thinking]`:
 * the session's messages in order, tool calls and results summarised, thinking only when
 * asked. With `--output` the file is written atomically (0600) and the two status lines go to
 * stdout; without it the export itself goes to stdout and the status lines to stderr, so it pipes.
 */
export const exportCommand: CommandSpec = {
  name: 'export',
  description: 'Export a session as Markdown, JSON or plain text',
  args: [{ name: '<id>', description: 'session id or id prefix' }],
  options: [
    {
      flags: '--format <format>',
      description: 'output format',
      choices: ['markdown', 'json', 'text'],
      default: 'markdown',
    },
    { flags: '--output <file>', description: 'write to this file instead of stdout' },
    { flags: '--thinking', description: 'include thinking blocks' },
  ],
  action: async (ctx, idPrefix: string, opts: ExportOptions) => {
    const [
      { requireRegistry },
      { resolveSession },
      exporter,
      fmt,
      { SessionsError },
      { writeFileAtomic },
      { expandHome },
      { printWarnings },
    ] = await Promise.all([
      import('../../sessions/registry/read-registry.js'),
      import('../../sessions/registry/resolve-session.js'),
      import('../../sessions/present/export-session.js'),
      import('../../sessions/present/format-session.js'),
      import('../../sessions/sessions-error.js'),
      import('../../store/atomic-write.js'),
      import('../../core/expand-home.js'),
      import('../format/print-warnings.js'),
    ]);
    const { registry, warnings } = await requireRegistry(ctx.paths);
    printWarnings(ctx.out, warnings, ctx.lang);
    const { id, entry } = resolveSession(registry, idPrefix);
    const t = commandMessages(ctx.lang);
    const title = fmt.titleOf(entry, ctx.lang);
    const say = opts.output ? (s: string) => ctx.out.print(s) : (s: string) => ctx.out.progress(s);
    say(t('exportStart', { title }));
    let messages;
    try {
      messages = await exporter.readSessionTranscript(id, entry, { thinking: Boolean(opts.thinking) });
    } catch (err) {
      throw new SessionsError(
        'SESSION_FILE_MISSING',
        { id: fmt.shortId(id), file: entry.jsonl_path ?? '-' },
        { cause: err },
      );
    }
    const text = exporter.renderTranscript({ id, title, entry }, messages, opts.format);
    if (opts.output) {
      const file = expandHome(opts.output, ctx.paths.userHome);
      await writeFileAtomic(file, text);
      say(t('exportDone', { file, n: messages.length }));
    } else {
      ctx.out.print(text.replace(/\n$/, ''));
      say(t('exportDone', { file: 'stdout', n: messages.length }));
    }
    return 0;
  },
};
