import type { App } from '@slack/bolt';
import type { AcceptResult, BridgeInbound } from '../../bridge/channel.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { slackTextToPlain } from './inbound-event.js';
import type { SlackApi } from './slack-api.js';
import { SlackApiError } from './slack-api-error.js';
import { slackMessages } from './slack-messages.js';
import { escapeMrkdwn } from './slack-mrkdwn.js';
import { convertSlashCommand, SLASH_COMMAND } from './slash-command.js';

/** Users whose DM channel we remember; past this the memory starts over (one owner, a few strangers). */
const MAX_REMEMBERED = 200;

export interface SlashCommandDeps {
  api: SlackApi;
  bridge: BridgeInbound;
  lang: Language;
  logger: Logger;
  now(): Date;
  /** True while the channel stops: the command is answered as not taken. */
  stopping(): boolean;
}

/**
 * `/cc <command>` (docs/design.md#slack): the text becomes the bridge command `/<command>` from
 * that user in their DM with the app, accepted like a typed message, and the envelope is
 * acknowledged only once `accept()` returned — the ack is the only answer Slack shows for a
 * command, so a command that could not be kept (accept failed, a stop in progress) is acknowledged
 * with a sentence saying nothing ran. A command typed outside the app's DM is answered with a
 * sentence and runs nothing. The owner rules are the bridge's, unchanged. Copies of one invocation
 * share its `trigger_id`, hence the message id, and the bridge runs it once.
 */
export function listenForSlashCommand(app: App, d: SlashCommandDeps): void {
  const t = slackMessages(d.lang);
  const dms = new Map<string, string>();
  async function dmWith(user: string): Promise<string> {
    const known = dms.get(user);
    if (known) return known;
    const channel = await d.api.directChannel(user);
    if (dms.size >= MAX_REMEMBERED) dms.clear();
    dms.set(user, channel);
    return channel;
  }

  app.command(SLASH_COMMAND, async ({ command, ack }) => {
    const say = (text: string) => ack({ response_type: 'ephemeral', text: escapeMrkdwn(text) });
    const typed = `${SLASH_COMMAND} ${slackTextToPlain(command.text ?? '')}`.trim();
    let dm: string;
    try {
      dm = await dmWith(command.user_id);
    } catch (err) {
      d.logger.warn('slash command: the DM with its sender could not be found', { err });
      // An app made before /cc may have the command but not the scope `conversations.open` needs.
      if (err instanceof SlackApiError && err.slackCode === 'missing_scope')
        return say(t('commandNoScope', { scope: 'im:write' }));
      return say(t('commandNotTaken', { text: typed }));
    }
    const decision = convertSlashCommand(command, dm, d.now());
    if (decision.kind === 'ignore') {
      d.logger.debug('slash command ignored', { reason: decision.reason });
      return ack();
    }
    if (decision.kind === 'not-dm') return say(t('commandOutsideDm', { command: SLASH_COMMAND }));
    let result: AcceptResult | undefined;
    if (!d.stopping()) {
      try {
        result = await d.bridge.accept(decision.message);
      } catch (err) {
        d.logger.error('slash command: accept failed', { err, messageId: decision.message.id });
      }
    }
    if (!result || (result.status === 'refused' && result.reason === 'shutting-down'))
      return say(t('commandNotTaken', { text: typed }));
    await ack();
  });
}
