import type { CliContext } from '../context/cli-context.js';
import { commandMessages } from './command-messages.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * `doctor`'s checks of the AI chat (the cc_exec gateway): each `[ccexec.providers.<id>]` can be built
 * — its key variable is set (named, its value never printed) and its table is complete — and the
 * ChainlessChain CLI runs: `<cli> --version` through the gateway's exec service and version gate,
 * always probed afresh (the result also refreshes the version cache `ask` and `chat` read). Every
 * failure says what to do. Without any provider the AI chat is not in use: that is information, and
 * a CLI that cannot run is only a warning.
 */
export async function chatChecks(ctx: CliContext): Promise<DoctorCheck[]> {
  const [{ createProvider, providerKeyEnv }, { ProviderError }, { openGateway }, { silentLogger }] = await Promise.all([
    import('../../ccexec/providers/create-provider.js'),
    import('../../ccexec/providers/provider-error.js'),
    import('./ask.js'),
    import('../../core/logger.js'),
  ]);
  const t = commandMessages(ctx.lang);
  const checks: DoctorCheck[] = [];
  const providers = Object.entries(ctx.config.ccexec.providers);
  if (providers.length === 0) checks.push({ name: 'provider', level: 'info', text: t('doctorProvidersNone') });
  for (const [id, cfg] of providers) {
    const base = { name: 'provider', provider: id };
    try {
      const p = createProvider(id, cfg, ctx.env, { language: ctx.lang });
      const envVar = providerKeyEnv(id, cfg);
      checks.push({
        ...base,
        level: 'ok',
        text: t('doctorProvider', {
          provider: id,
          model: p.model,
          key: envVar ? t('doctorProviderKeySet', { envVar }) : '',
        }),
      });
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      const text =
        err.kind === 'missing_key'
          ? t('doctorProviderNoKey', { provider: id, envVar: err.envVar ?? 'api_key_env' })
          : t('doctorProviderBroken', { provider: id, reason: err.userMessage });
      checks.push({ ...base, level: 'fail', text });
    }
  }

  // Silent: the check's own line says what the gateway would log.
  const gateway = await openGateway(ctx, silentLogger);
  const cli = await gateway.cli({ recheck: true });
  await gateway.flushed();
  if (cli.status === 'available') {
    checks.push({ name: 'ccexec_cli', level: 'ok', text: t('doctorCcCli', { version: cli.version }) });
  } else {
    // The gate's own sentence (what is wrong, what to do) without the chat header's icon.
    const reason = cli.reason.replace(/^🔧\s*/u, '');
    checks.push({
      name: 'ccexec_cli',
      level: providers.length > 0 ? 'fail' : 'warn',
      text: `${reason}${providers.length > 0 ? '' : t('doctorCcCliUnused')}`,
    });
  }
  return checks;
}
