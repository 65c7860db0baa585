import { statusOf } from '../../sessions/registry/registry-schema.js';
import { bridgeMessages } from '../bridge-messages.js';
import type { ListRef } from './command-parser.js';
import { checkWorkingDirectory } from './dir-safety.js';
import { tildify } from '../../core/tildify.js';
import { textReply, type Reply } from '../reply-model.js';
import type { CommandContext, CommandOutcome, SessionView } from './command-context.js';
import { dirPolicy } from './dir-policy.js';
import { resolveSessionRef } from './resolve-session-ref.js';
import { shortId, titleOf } from './session-format.js';
import { DEFAULT_AGENT } from '../../engine/engine-types.js';
import { agentLabel, catalogOf } from './agent-catalog.js';

/**
 * `/switch <n|prefix>`: the user's later messages go to that session (messages already queued keep
 * their snapshot). Refused for a corrupted session and for one whose directory fails the
 * directory-safety check — a chat message must not run Claude outside the allowed roots, even in
 * a session started from the terminal.
 */
export async function handleSwitch(
  cmd: { name: 'switch'; ref: ListRef },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const r = await resolveSessionRef(cmd.ref, ctx);
  if (!r.ok) return { reply: r.reply };
  return { reply: (await switchToSession(r.session, ctx)).reply };
}

/**
 * A message pinned to a session (`InboundMessage.sessionId`): points the user's mapping at it with
 * `/switch`'s checks and change — idempotent, so routing may replay it after a crash. `ok: false`
 * carries the reply to answer the message with instead (an unknown id, a refused session).
 */
export async function pinToSession(
  sessionId: string,
  ctx: CommandContext,
): Promise<{ ok: true } | { ok: false; reply: Reply }> {
  const session = await ctx.sessions.get(sessionId);
  if (!session)
    return { ok: false, reply: textReply(bridgeMessages(ctx.lang)('pinnedUnknown', { id: shortId(sessionId) })) };
  const r = await switchToSession(session, ctx);
  return r.ok ? { ok: true } : { ok: false, reply: r.reply };
}

/** Shared by `/switch` and the `switch` button: checks, updates the mapping, says what happened. */
export async function switchToSession(
  session: SessionView,
  ctx: CommandContext,
): Promise<{ ok: boolean; reply: Reply }> {
  const t = bridgeMessages(ctx.lang);
  const id = shortId(session.uuid);
  if (statusOf(session) === 'corrupted') return { ok: false, reply: textReply(t('switchCorrupted', { id })) };
  const dir = await checkWorkingDirectory(session.cwd, dirPolicy(ctx));
  if (!dir.ok) return { ok: false, reply: textReply(t('switchDirRefused', { id, reason: dir.message })) };
  const agent = session.agent && session.agent !== DEFAULT_AGENT ? session.agent : undefined;
  if (
    agent &&
    !catalogOf(ctx)
      .list()
      .some((a) => a.name === agent)
  )
    return { ok: false, reply: textReply(t('switchAgentMissing', { id, agent: agentLabel(ctx, agent), name: agent })) };
  const title = titleOf(session, ctx.lang);
  const entry = await ctx.mapping.get(ctx.userId);
  if (entry?.type === 'session' && entry.sessionUuid === session.uuid && entry.cwd === session.cwd) {
    return { ok: true, reply: textReply(t('switchAlready', { title, id })) };
  }
  // The session's own recorded cwd: agents find a session by the cwd it was created in.
  await ctx.mapping.setSession(ctx.userId, {
    sessionUuid: session.uuid,
    cwd: session.cwd,
    ...(agent ? { agent } : {}),
  });
  return { ok: true, reply: textReply(t('switchDone', { title, id, cwd: tildify(session.cwd, ctx.paths.userHome) })) };
}
