import { bridgeMessages } from '../bridge-messages.js';
import type { ListRef } from './command-parser.js';
import type { Reply } from '../reply-model.js';
import { textReply } from '../reply-model.js';
import { agentLabel } from './agent-catalog.js';
import type { CommandContext, SessionView } from './command-context.js';
import { byLastActive, sessionEntrySection, switchButton } from './session-format.js';

/** How many candidates an ambiguous prefix lists. */
const MAX_CANDIDATES = 10;

/**
 * Resolves `/switch` / `/resume` arguments: a number through the user's latest list snapshot, a
 * uuid prefix through the registry. Every miss comes back as the reply to send ("请重新执行
 * /list", the candidates of an ambiguous prefix with a switch button each, …).
 */
export async function resolveSessionRef(
  ref: ListRef,
  ctx: CommandContext,
): Promise<{ ok: true; session: SessionView } | { ok: false; reply: Reply }> {
  const t = bridgeMessages(ctx.lang);
  if ('index' in ref) {
    const r = await ctx.listSnapshots.resolve(ctx.userId, ref.index);
    if (!r.ok) {
      if (r.reason === 'none') return miss(t('snapshotNone'));
      if (r.reason === 'expired')
        return miss(t('snapshotExpired', { minutes: ctx.config.queue.list_snapshot_ttl_minutes }));
      return miss(t('snapshotOutOfRange', { index: ref.index }));
    }
    const session = await ctx.sessions.get(r.sessionId);
    return session ? { ok: true, session } : miss(t('sessionGone'));
  }
  const matches = await ctx.sessions.resolvePrefix(ref.prefix);
  if (matches.length === 0) return miss(t('prefixNotFound', { prefix: ref.prefix }));
  const exact = matches.find((s) => s.uuid === ref.prefix);
  if (matches.length === 1 || exact) return { ok: true, session: exact ?? (matches[0] as SessionView) };
  const shown = [...matches].sort(byLastActive).slice(0, MAX_CANDIDATES);
  return {
    ok: false,
    reply: {
      kind: 'card',
      title: t('prefixAmbiguousTitle'),
      status: 'warning',
      sections: [
        { type: 'plain', text: t('prefixAmbiguous', { prefix: ref.prefix, count: matches.length }) },
        ...shown.map((s, i) =>
          sessionEntrySection(s, i + 1, {
            now: ctx.now,
            lang: ctx.lang,
            current: false,
            agentLabel: agentLabel(ctx, s.agent),
          }),
        ),
      ],
      buttons: shown.map((s, i) => switchButton(s, i + 1, ctx.lang)),
    },
  };
}

function miss(text: string): { ok: false; reply: Reply } {
  return { ok: false, reply: textReply(text) };
}
