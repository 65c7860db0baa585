import { bridgeMessages } from '../bridge-messages.js';
import { textReply } from '../reply-model.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/**
 * `/cc <question>` when no cc_exec gateway is configured. With a gateway, the bridge spools the
 * question as its own target (a gateway run takes seconds, far too long for accept time).
 */
export async function handleCc(_cmd: { name: 'cc'; question: string }, ctx: CommandContext): Promise<CommandOutcome> {
  return { reply: textReply(bridgeMessages(ctx.lang)('ccNotConfigured')) };
}
