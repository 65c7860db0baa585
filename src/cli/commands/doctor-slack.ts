import { redact } from '../../core/redact.js';
import type { CliContext } from '../context/cli-context.js';
import { commandMessages } from './command-messages.js';
import type { DoctorCheck } from './doctor-check.js';
import { slackScopesCheck } from './doctor-slack-scopes.js';

/**
 * `doctor`'s checks of the Slack channel, when `slack.enabled`: both tokens and an owner set,
 * then one live look at each token (`auth.test` with the bot token: the bot's name; Socket Mode's
 * `apps.connections.open` with the app token). A refused token fails; Slack unreachable only
 * warns (the daemon keeps retrying). No token is ever printed. Then the scopes `auth.test` said
 * the bot token has (`slackScopesCheck`).
 */
export async function slackChecks(ctx: CliContext): Promise<DoctorCheck[]> {
  const c = ctx.config.slack;
  if (!c.enabled) return [];
  const t = commandMessages(ctx.lang);
  const tokens = c.bot_token !== '' && c.app_token !== '';
  const owner = c.owner_user_id !== '' || c.allow_auto_bind_owner;
  const checks: DoctorCheck[] = [
    {
      name: 'slack',
      level: tokens && owner ? 'ok' : 'warn',
      text: t(!tokens ? 'doctorSlackNoToken' : owner ? 'doctorSlack' : 'doctorSlackNoOwner'),
    },
  ];
  if (!tokens) return checks;
  const { checkSlackTokens } = await import('../../channels/slack/check-tokens.js');
  const r = await checkSlackTokens({ botToken: c.bot_token, appToken: c.app_token, apiUrl: c.api_url });
  for (const [name, check, token] of [
    ['slack-bot-token', r.bot, 'bot token'],
    ['slack-app-token', r.app, 'app token'],
  ] as const) {
    const text = check.ok
      ? name === 'slack-bot-token'
        ? t('doctorSlackBot', { bot: check.name ?? '', team: check.team ?? '' })
        : t('doctorSlackApp')
      : t(check.refused ? 'doctorSlackRefused' : 'doctorSlackUnreachable', { token, detail: check.detail });
    checks.push({ name, level: check.ok ? 'ok' : check.refused ? 'fail' : 'warn', text: redact(text) });
  }
  if (r.bot.ok) checks.push(await slackScopesCheck(r.bot.scopes, ctx));
  return checks;
}
