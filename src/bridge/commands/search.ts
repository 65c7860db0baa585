import { bridgeMessages } from '../bridge-messages.js';
import type { CardSection } from '../reply-model.js';
import { textReply } from '../reply-model.js';
import { agentLabel } from './agent-catalog.js';
import type { CommandContext, CommandOutcome } from './command-context.js';
import { currentSessionId } from './list.js';
import { sessionEntrySection, switchButton } from './session-format.js';

/** Results shown by `/search`; more means the keyword is too vague for a chat card. */
export const SEARCH_LIMIT = 10;

/**
 * `/search <keyword>`: sessions matching the keyword in title, previews or project (the registry
 * search), numbered like `/list` with switch buttons. The numbers become the list snapshot, so
 * `/switch 2` right after a search means the second result shown.
 */
export async function handleSearch(
  cmd: { name: 'search'; keyword: string },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const found = await ctx.sessions.search(cmd.keyword);
  if (found.length === 0) return { reply: textReply(t('searchNone', { keyword: cmd.keyword })) };
  const shown = found.slice(0, SEARCH_LIMIT);
  await ctx.listSnapshots.save(
    ctx.userId,
    shown.map((s) => s.uuid),
  );
  const current = await currentSessionId(ctx);
  const sections: CardSection[] = shown.map((s, i) =>
    sessionEntrySection(s, i + 1, {
      now: ctx.now,
      lang: ctx.lang,
      current: s.uuid === current,
      agentLabel: agentLabel(ctx, s.agent),
    }),
  );
  if (found.length > shown.length)
    sections.push({ type: 'markdown', text: t('searchTruncated', { shown: shown.length }) });
  sections.push({ type: 'divider' }, { type: 'markdown', text: t('listHint') });
  return {
    reply: {
      kind: 'card',
      title: t('searchTitle', { count: found.length, keyword: cmd.keyword }),
      status: 'info',
      sections,
      buttons: shown.map((s, i) => switchButton(s, i + 1, ctx.lang)),
    },
  };
}
