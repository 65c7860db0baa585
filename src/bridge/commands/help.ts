import { bridgeMessages } from '../bridge-messages.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/** `/help`: the command list (static, no I/O). */
export async function handleHelp(_cmd: { name: 'help' }, ctx: CommandContext): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  return {
    reply: { kind: 'card', title: t('helpTitle'), status: 'info', sections: [{ type: 'plain', text: t('helpBody') }] },
  };
}
