import { redact } from '../../core/redact.js';
import type { CliContext } from '../context/cli-context.js';
import { commandMessages } from './command-messages.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * `doctor`'s DingTalk checks, when `dingtalk.enabled`: both credentials and an owner (or
 * auto-binding) are set, then one live `accessToken` call — are the client id and secret
 * accepted (the daemon would only retry and show it in `/status`)? The secret is never printed.
 */
export async function dingtalkChecks(ctx: CliContext): Promise<DoctorCheck[]> {
  const cfg = ctx.config.dingtalk;
  if (!cfg.enabled) return [];
  const t = commandMessages(ctx.lang);
  const credentials = cfg.client_id !== '' && cfg.client_secret !== '';
  const owner = cfg.owner_staff_id !== '' || cfg.allow_auto_bind_owner;
  const checks: DoctorCheck[] = [
    {
      name: 'dingtalk',
      level: credentials && owner ? 'ok' : 'warn',
      text: t(!credentials ? 'doctorDingTalkNoCredentials' : owner ? 'doctorDingTalk' : 'doctorDingTalkNoOwner'),
    },
  ];
  if (!credentials) return checks;
  const { checkCredentials } = await import('../../channels/dingtalk/check-credentials.js');
  const r = await checkCredentials({ apiBase: cfg.api_base, clientId: cfg.client_id, clientSecret: cfg.client_secret });
  checks.push({
    name: 'dingtalk-credentials',
    level: r.ok ? 'ok' : r.refused ? 'fail' : 'warn',
    text: redact(
      r.ok
        ? t('doctorDingTalkAccepted')
        : t(r.refused ? 'doctorDingTalkRefused' : 'doctorDingTalkUnreachable', { detail: r.detail }),
    ),
  });
  return checks;
}
