import type { AuditRecord } from '../../ccexec/audit-log.js';
import type { CommandSpec } from './command-spec.js';
import type { ChatCommandOptions } from './ask.js';
import { chatMessages } from './chat-render.js';
import { parsePositiveInt } from './option-parsers.js';

interface HistoryOptions extends ChatCommandOptions {
  limit: number;
  json?: boolean;
}

/** Filtering reads at most this many records from the end of the audit file. */
const FILTER_WINDOW = 10_000;

const MARKS: Record<AuditRecord['decision'], string> = {
  allowed: '✔',
  denied: '🚫',
  invalid: '⚠️',
  'unknown-tool': '⚠️',
  duplicate: '♻️',
  skipped: '⏭️',
};

/**
 * `cc-linker chat history [--limit <n>] [--provider <id>] [--model <name>] [--json]` — what the AI ran
 * (cc_exec's audit log, `~/.cc-linker/ccexec/audit.jsonl`): time, provider/model, command, and the
 * exit code, duration and output size — or why it did not run. Oldest first, newest last.
 */
export const chatHistoryCommand: CommandSpec = {
  name: 'history',
  description: 'Show the cc_exec tool calls the AI made (audit log), newest last',
  options: [
    { flags: '--limit <n>', description: 'show the last n calls', parse: parsePositiveInt, default: 20 },
    { flags: '--provider <id>', description: 'only calls made through this model service' },
    { flags: '--model <name>', description: 'only calls made by this model' },
    { flags: '--json', description: 'print the records as JSON' },
  ],
  // Unless the program enables positional options, commander gives `chat history --provider x` to
  // the parent `chat` command, which has a --provider of its own: the options arrive merged with
  // the parent's (own values win), so either place works.
  action: async (ctx, opts: HistoryOptions) => {
    const { readAudit } = await import('../../ccexec/audit-log.js');
    const filtered = Boolean(opts.provider || opts.model);
    const records = (await readAudit(ctx.paths.auditFile, { limit: filtered ? FILTER_WINDOW : opts.limit }))
      .filter((r) => (!opts.provider || r.provider === opts.provider) && (!opts.model || r.model === opts.model))
      .slice(-opts.limit);
    if (opts.json) {
      ctx.out.json(records);
      return 0;
    }
    const t = chatMessages(ctx.lang);
    if (records.length === 0) {
      ctx.out.progress(t('historyEmpty'));
      return 0;
    }
    for (const r of records) {
      const ran = r.decision === 'allowed';
      ctx.out.print(
        t('historyLine', {
          time: r.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
          provider: r.provider,
          model: r.model,
          mark: MARKS[r.decision] ?? '?',
          command: ['cc', r.command, ...r.args].join(' '),
          result: ran
            ? t('historyRan', { exit: r.exit, ms: r.durationMs, bytes: r.bytes })
            : t('historyNotRun', { decision: r.decision, exit: r.exit }),
        }),
      );
    }
    return 0;
  },
};
