import type { CliContext } from '../context/cli-context.js';
import { commandMessages } from './command-messages.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * `doctor`'s check of the Slack app's bot scopes against the ones the channel needs
 * (`channels/slack/bot-scopes.ts`), from what Slack's `x-oauth-scopes` header listed (`granted`):
 * all there is ok; a missing one is a warning naming each with what it is for and the fix (the
 * channel runs, but that part of it fails with `missing_scope`); no header is information — the
 * scopes could not be checked, which is never a failure.
 */
export async function slackScopesCheck(granted: readonly string[] | undefined, ctx: CliContext): Promise<DoctorCheck> {
  const { BOT_SCOPES, missingBotScopes, missingScopesText } = await import('../../channels/slack/bot-scopes.js');
  const t = commandMessages(ctx.lang);
  const missing = missingBotScopes(granted);
  if (missing === undefined) return { name: 'slack-scopes', level: 'info', text: t('doctorSlackScopesUnknown') };
  if (missing.length === 0)
    return {
      name: 'slack-scopes',
      level: 'ok',
      text: t('doctorSlackScopes', { scopes: Object.keys(BOT_SCOPES).join(', ') }),
    };
  return {
    name: 'slack-scopes',
    level: 'warn',
    text: t('doctorSlackScopesMissing', { detail: missingScopesText(missing, ctx.lang) }),
  };
}
