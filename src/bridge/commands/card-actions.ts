import type { ActionResult } from '../channel.js';
import { bridgeMessages } from '../bridge-messages.js';
import { checkWorkingDirectory } from './dir-safety.js';
import { tildify } from '../../core/tildify.js';
import type { CardAction } from '../reply-model.js';
import type { CommandContext } from './command-context.js';
import { dirPolicy } from './dir-policy.js';
import { dirBrowser } from './list-dir.js';
import { switchToSession } from './switch.js';

/**
 * The `switch` button of /list, /search and ambiguous-prefix cards: same checks as `/switch`.
 * The list card stays; the result is a toast (its first line).
 */
export async function handleSwitchAction(
  action: Extract<CardAction, { type: 'switch' }>,
  ctx: CommandContext,
): Promise<ActionResult> {
  const t = bridgeMessages(ctx.lang);
  const session = await ctx.sessions.get(action.sessionId);
  if (!session) return { toast: { type: 'error', text: t('sessionGone') } };
  const r = await switchToSession(session, ctx);
  const text = r.reply.kind === 'text' ? r.reply.text : r.reply.title;
  return { toast: { type: r.ok ? 'success' : 'error', text: firstLine(text) } };
}

/**
 * A `select_dir` button of the /listDir card: re-checks the directory (a click may be forged or
 * stale), then makes it the pending new-session directory and replaces the card
 * with the confirmation.
 */
export async function handleSelectDirAction(
  action: Extract<CardAction, { type: 'select_dir' }>,
  ctx: CommandContext,
): Promise<ActionResult> {
  const t = bridgeMessages(ctx.lang);
  const r = await checkWorkingDirectory(action.path, dirPolicy(ctx));
  if (!r.ok) return { toast: { type: 'error', text: firstLine(r.message) } };
  await ctx.mapping.setPendingNew(ctx.userId, { cwd: r.realPath });
  const text = t('selectDirDone', { path: tildify(r.realPath, ctx.paths.userHome) });
  return {
    toast: { type: 'success', text: firstLine(text) },
    card: { kind: 'card', title: t('listDirTitle'), status: 'complete', sections: [{ type: 'plain', text }] },
  };
}

/** A `browse_dir` button (enter a subdirectory, or ⬆️ parent): the card is replaced by that directory's browser. */
export async function handleBrowseDirAction(
  action: Extract<CardAction, { type: 'browse_dir' }>,
  ctx: CommandContext,
): Promise<ActionResult> {
  const reply = await dirBrowser(action.path, ctx);
  if (reply.kind === 'text') return { toast: { type: 'error', text: firstLine(reply.text) } };
  return { card: reply };
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
