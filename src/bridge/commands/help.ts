import { bridgeMessages } from '../bridge-messages.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/**
 * `/help`: the command list (static, no I/O). In Slack the commands are typed after the app's one
 * slash command (`/cc new`), which the list's first line says there.
 */
export async function handleHelp(_cmd: { name: 'help' }, ctx: CommandContext): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const body = ctx.channel === 'slack' ? `${t('helpSlack')}\n\n${t('helpBody')}` : t('helpBody');
  return {
    reply: { kind: 'card', title: t('helpTitle'), status: 'info', sections: [{ type: 'plain', text: body }] },
  };
}
