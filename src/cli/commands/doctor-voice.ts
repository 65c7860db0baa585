import type { CliContext } from '../context/cli-context.js';
import type { DoctorCheck } from './doctor-check.js';
import { doctorVoiceMessages } from './doctor-voice-messages.js';

/**
 * `doctor`'s check of voice messages (docs/design.md#voice-in), with the daemon's own choice of
 * service (`chosenSpeechService`): off or none set up is information (the user who sends one reads
 * how to set one up); Feishu's is ok, plus a line that Slack's audio clips stay files when Slack is
 * enabled (Feishu's takes raw audio only); the OpenAI-compatible endpoint is asked once
 * (`checkOpenAISpeech`): a refused key fails, anything else that goes wrong only warns. The key is
 * never printed.
 */
export async function voiceChecks(ctx: CliContext): Promise<DoctorCheck[]> {
  const v = ctx.config.voice;
  const t = doctorVoiceMessages(ctx.lang);
  const check = (level: DoctorCheck['level'], text: string): DoctorCheck => ({ name: 'voice', level, text });
  if (!v.enabled) return [check('info', t('off'))];
  const [{ chosenSpeechService }, { hasFeishuCredentials }] = await Promise.all([
    import('../start/speech-for-daemon.js'),
    import('../start/assemble-daemon.js'),
  ]);
  const chosen = chosenSpeechService(v, hasFeishuCredentials(ctx.config));
  if (chosen === 'none')
    return [
      check('info', t(v.service === 'feishu' ? 'noneFeishu' : v.service === 'openai' ? 'noneOpenai' : 'noneAuto')),
    ];
  if (chosen === 'feishu') {
    const checks = [check('ok', t('feishu'))];
    if (ctx.config.slack.enabled) checks.push(check('info', t(v.api_key === '' ? 'slackClipsNoKey' : 'slackClipsKey')));
    return checks;
  }
  const [{ checkOpenAISpeech }, { displayURL }, { redact }] = await Promise.all([
    import('../../speech/check-openai-speech.js'),
    import('../../ccexec/providers/provider-error.js'),
    import('../../core/redact.js'),
  ]);
  const shown = { base: displayURL(v.api_base), model: v.model };
  const r = await checkOpenAISpeech({ baseURL: v.api_base, apiKey: v.api_key, model: v.model, lang: ctx.lang });
  if (r.state === 'ok') return [check('ok', t('openai', shown))];
  if (r.state === 'unchecked') return [check('warn', t('unchecked', { ...shown, status: r.status }))];
  const text = redact(t('failed', { error: r.error.localize(ctx.lang) }));
  return [check(r.error.kind === 'auth' ? 'fail' : 'warn', text)];
}
