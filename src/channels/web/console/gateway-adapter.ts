import { readAudit } from '../../../ccexec/audit-log.js';
import type { Gateway } from '../../../ccexec/create-gateway.js';
import { isAppError } from '../../../core/app-error.js';
import type { ConsoleGateway } from './console-gateway.js';

/**
 * Adapts the cc_exec gateway (`createGateway()`) to the console's narrow `ConsoleGateway`: the
 * same providers, chats and availability, plus the audit history read from `auditFile`
 * (`paths.auditFile`), newest first. An availability check that cannot pick a provider (none
 * configured, unknown id) becomes `no-provider` with the gateway's message instead of an error,
 * so the page can still load and say what to configure.
 *
 * @example
 *   const gateway = consoleGatewayFrom(createGateway({ config, paths, env: process.env, lang, logger }), paths.auditFile);
 *   await startWebConsole({ …, gateway });
 */
export function consoleGatewayFrom(gateway: Gateway, auditFile: string): ConsoleGateway {
  return {
    async availability(target = {}) {
      try {
        const a = await gateway.availability({
          ...(target.provider ? { provider: target.provider } : {}),
          ...(target.model ? { model: target.model } : {}),
        });
        return {
          status: a.status,
          reason: a.reason,
          ...('version' in a ? { version: a.version } : {}),
          ...(a.status === 'no-tools-for-model' ? { provider: a.provider, why: a.why } : {}),
        };
      } catch (err) {
        if (!isAppError(err)) throw err;
        return { status: 'no-provider', reason: err.userMessage };
      }
    },
    async cli() {
      const c = await gateway.cli();
      return { status: c.status, reason: c.reason, ...('version' in c ? { version: c.version } : {}) };
    },
    providers: () => gateway.providers().map((p) => ({ id: p.id, label: p.label, model: p.model, tools: p.tools })),
    newChat: (target = {}) =>
      gateway.newChat({
        ...(target.provider ? { provider: target.provider } : {}),
        ...(target.model ? { model: target.model } : {}),
      }),
    async audit(limit) {
      const records = await readAudit(auditFile, { limit });
      return records.reverse().map((r) => ({
        time: r.time,
        provider: r.provider,
        model: r.model,
        command: r.command,
        args: r.args,
        decision: r.decision,
        exit: r.exit,
        durationMs: r.durationMs,
        bytes: r.bytes,
        ...(r.reason !== undefined ? { reason: r.reason } : {}),
      }));
    },
  };
}
