import { bridgeMessages } from '../bridge-messages.js';
import type { CardSection } from '../reply-model.js';
import { textReply } from '../reply-model.js';
import { agentLabel } from './agent-catalog.js';
import type { CommandContext, CommandOutcome, SessionView } from './command-context.js';
import { byLastActive, sessionEntrySection, switchButton } from './session-format.js';

/** Sessions per `/list` page: a chat card stays readable and its buttons fit. */
export const LIST_PAGE_SIZE = 20;

/**
 * `/list [page]`: the user's sessions, most recently active first, numbered, with a switch button
 * each. The numbers are saved as the user's list snapshot, so `/switch 3` means
 * the third entry shown; page 2 numbers 21–40 and its snapshot covers 1–40.
 */
export async function handleList(cmd: { name: 'list'; args: string }, ctx: CommandContext): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const arg = cmd.args.trim();
  if (arg && !/^\d+$/.test(arg)) return { reply: textReply(t('usageList')) };
  const page = arg ? Number(arg) : 1;
  const all = (await ctx.sessions.list()).sort(byLastActive);
  if (all.length === 0) return { reply: textReply(t('listEmpty')) };
  const pages = Math.ceil(all.length / LIST_PAGE_SIZE);
  if (page < 1 || page > pages) return { reply: textReply(t('listPageOutOfRange', { page, pages })) };
  const start = (page - 1) * LIST_PAGE_SIZE;
  const shown = all.slice(start, start + LIST_PAGE_SIZE);
  await ctx.listSnapshots.save(
    ctx.userId,
    all.slice(0, start + shown.length).map((s) => s.uuid),
  );
  const current = await currentSessionId(ctx);
  const sections: CardSection[] = shown.map((s, i) =>
    sessionEntrySection(s, start + i + 1, {
      now: ctx.now,
      lang: ctx.lang,
      current: s.uuid === current,
      agentLabel: agentLabel(ctx, s.agent),
    }),
  );
  sections.push({ type: 'divider' }, { type: 'markdown', text: t('listHint') });
  if (page < pages) sections.push({ type: 'markdown', text: t('listMorePages', { next: page + 1 }) });
  const title =
    pages > 1 ? t('listPageTitle', { total: all.length, page, pages }) : t('listTitle', { total: all.length });
  return {
    reply: {
      kind: 'card',
      title,
      status: 'info',
      sections,
      buttons: shown.map((s: SessionView, i) => switchButton(s, start + i + 1, ctx.lang)),
    },
  };
}

/** The session the user is talking to now, to mark it in lists. */
export async function currentSessionId(ctx: CommandContext): Promise<string | null> {
  const entry = await ctx.mapping.get(ctx.userId);
  return entry?.type === 'session' ? entry.sessionUuid : null;
}
