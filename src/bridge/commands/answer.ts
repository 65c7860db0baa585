import type { PromptDecision } from './command-parser.js';
import { textReply } from '../reply-model.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/**
 * `/allow [n]`, `/deny [n]`, `/always [n]`: the text equivalent of a permission card's buttons, for
 * clients where cards are awkward. Answers the user's `n`-th waiting permission prompt (1 = the
 * oldest); the reply is what the button's toast would say ("已允许", or "this prompt has expired").
 * The user was already checked as the owner when the message was accepted.
 */
export async function handleAnswer(
  cmd: { name: 'answer'; decision: PromptDecision; index: number },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const result = ctx.prompts.resolveByIndex(ctx.userId, cmd.index, cmd.decision);
  return { reply: textReply(result.toast?.text ?? '') };
}
