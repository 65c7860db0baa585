import { bridgeMessages } from '../bridge-messages.js';
import { textReply } from '../reply-model.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/**
 * `/cc <question>` when no cc_exec gateway is configured. With a gateway, the question becomes the
 * message's own target: a gateway run takes seconds, so it runs as the message's run, never while
 * the dispatcher routes the user's messages.
 */
export async function handleCc(_cmd: { name: 'cc'; question: string }, ctx: CommandContext): Promise<CommandOutcome> {
  return { reply: textReply(bridgeMessages(ctx.lang)('ccNotConfigured')) };
}
