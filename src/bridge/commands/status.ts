import { bridgeMessages } from '../bridge-messages.js';
import { tildify } from '../../core/tildify.js';
import { defaultModelOf, type MappingEntry } from '../mapping/user-mapping.js';
import type { CommandContext, CommandOutcome } from './command-context.js';
import { shortId, titleOf } from './session-format.js';

/**
 * `/status`: the bridge as the user's chat sees it — their current target and default model,
 * the queue, Claude runs, prompts waiting for them, channels, and how many sessions are known.
 */
export async function handleStatus(_cmd: { name: 'status' }, ctx: CommandContext): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const [status, entry, sessions] = await Promise.all([ctx.status(), ctx.mapping.get(ctx.userId), ctx.sessions.list()]);
  const channels = status.channels
    .map(
      (c) =>
        `${c.id}: ${c.connected ? t('statusChannelUp') : t('statusChannelDown')}${c.detail ? ` (${c.detail})` : ''}`,
    )
    .join('\n');
  const fields = [
    { label: t('statusTarget'), value: await describeTarget(entry, ctx) },
    {
      label: t('statusModel'),
      value: defaultModelOf(entry) ?? (ctx.config.claude.default_model || t('modelFallbackClaude')),
    },
    {
      label: t('statusQueue'),
      value: t('statusQueueValue', {
        pending: status.pending,
        processing: status.processing,
        failed: status.failed,
        max: ctx.config.queue.max_pending,
        workers: ctx.config.queue.worker_concurrency,
      }),
    },
    { label: t('statusEngines'), value: String(status.running) },
    { label: t('statusPrompts'), value: String(status.pendingPrompts) },
    { label: t('statusEngineMode'), value: ctx.config.claude.mode },
    { label: t('statusChannels'), value: channels || '-' },
    { label: t('statusSessions'), value: t('statusSessionsValue', { total: sessions.length }) },
  ];
  return { reply: { kind: 'card', title: t('statusTitle'), status: 'info', sections: [{ type: 'fields', fields }] } };
}

async function describeTarget(entry: MappingEntry | null, ctx: CommandContext): Promise<string> {
  const t = bridgeMessages(ctx.lang);
  if (!entry) return t('statusTargetNone');
  const cwd = tildify(entry.cwd, ctx.paths.userHome);
  if (entry.type === 'pending_new_session') return t('statusTargetPending', { cwd });
  if (entry.type === 'pending_new_session_claimed') return t('statusTargetClaimed', { cwd });
  const session = await ctx.sessions.get(entry.sessionUuid);
  return t('statusTargetSession', {
    id: shortId(entry.sessionUuid),
    title: session ? titleOf(session, ctx.lang) : cwd,
  });
}
