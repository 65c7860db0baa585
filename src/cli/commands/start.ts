import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CommandSpec } from './command-spec.js';
import { startMessages } from '../start/start-messages.js';

interface StartOptions {
  feishu: boolean;
  daemon?: boolean;
  port?: string;
}

/**
 * `cc-linker start`: the main job. `assembleDaemon` builds and starts everything (owner lock →
 * reconcile → dispatcher → channels: the local web console always, Feishu when credentials are
 * configured); this runs it in the foreground with a clean SIGINT/SIGTERM shutdown; `--daemon`
 * runs the same in the background with a PID file.
 */
export const startCommand: CommandSpec = {
  name: 'start',
  description: 'Run the bridge: the local web console, and the Feishu bot when configured',
  options: [
    { flags: '--no-feishu', description: 'do not connect to Feishu even if credentials are configured' },
    { flags: '--daemon', description: 'run in the background (stop it with cc-linker stop)' },
    { flags: '--port <port>', description: 'web console port (default: web.port, 9820)' },
  ],
  action: async (ctx, opts: StartOptions) => {
    const t = startMessages(ctx.lang);
    const logFile = ctx.config.general.log_path || ctx.paths.defaultLogFile;
    // A hand-written config.toml others can read: said once, on the terminal that starts us (the
    // daemon's own copy of this line would only reach its log).
    if (!ctx.env.CC_LINKER_DAEMON_READY) {
      const { configFileExposure } = await import('../../core/config-file-mode.js');
      const { tildify } = await import('../../core/tildify.js');
      const exposed = configFileExposure(ctx.paths.configFile, tildify(ctx.paths.configFile, ctx.paths.userHome));
      if (exposed) ctx.out.progress(`⚠️  ${exposed.text[ctx.lang]}`);
    }
    if (opts.daemon) return startDaemon(ctx.paths.runtimeDir, logFile, t, ctx.out, ctx.env);

    const { createLogger } = await import('../../core/logger.js');
    const { assembleDaemon, hasFeishuCredentials, otherChatApps } = await import('../start/assemble-daemon.js');
    const { writePidFile, removePidFile } = await import('../start/pid-file.js');
    const { readRegistry } = await import('../../sessions/registry/read-registry.js');
    const logger = createLogger({
      level: ctx.config.general.log_level,
      sink: ctx.config.general.log_path
        ? { file: ctx.config.general.log_path, maxBytes: 10 * 1024 * 1024, keep: 3 }
        : { stream: process.stderr },
    });
    ctx.out.print(t('starting'));
    if (!opts.feishu) ctx.out.print(t('feishuDisabled'));
    else if (!hasFeishuCredentials(ctx.config))
      ctx.out.print(t(otherChatApps(ctx.config).length > 0 ? 'noFeishuOthers' : 'noFeishu'));
    const port = opts.port !== undefined ? Number.parseInt(opts.port, 10) : undefined;
    const daemon = await assembleDaemon({
      config: ctx.config,
      paths: ctx.paths,
      lang: ctx.lang,
      logger,
      env: ctx.env,
      feishu: opts.feishu,
      ...(port !== undefined && Number.isInteger(port) ? { webPort: port } : {}),
    });
    await writePidFile(ctx.paths.pidFile);
    if (daemon.feishu === 'connected') ctx.out.print(t('feishuConnected'));
    const hook = ctx.config.telegram.webhook_url;
    if (daemon.telegram === 'started' && hook !== '')
      ctx.out.print(t('telegramStartedWebhook', { url: hook, listen: ctx.config.telegram.webhook_listen }));
    else if (daemon.telegram === 'started') ctx.out.print(t('telegramStarted'));
    else if (daemon.telegram === 'no-credentials') ctx.out.print(t('telegramNoToken'));
    if (daemon.slack === 'started') ctx.out.print(t('slackStarted'));
    else if (daemon.slack === 'no-credentials') ctx.out.print(t('slackNoToken'));
    if (daemon.dingtalk === 'started') ctx.out.print(t('dingtalkStarted'));
    else if (daemon.dingtalk === 'no-credentials') ctx.out.print(t('dingtalkNoCredentials'));
    // In the daemon, stdout is the log file: the token stays out of it (the parent shows the full URL once).
    const { redact } = await import('../../core/redact.js');
    const url = daemon.web && (ctx.env.CC_LINKER_DAEMON_READY ? redact(daemon.web.url) : daemon.web.url);
    ctx.out.print(url ? t('web', { url }) : t('webDisabled'));
    const registry = await readRegistry(ctx.paths).catch(() => null);
    ctx.out.print(t('registry', { n: registry ? Object.keys(registry.registry.sessions).length : 0 }));
    if (ctx.env.CC_LINKER_DAEMON_READY)
      fs.writeFileSync(
        ctx.env.CC_LINKER_DAEMON_READY,
        JSON.stringify({ pid: process.pid, url: daemon.web?.url ?? null }),
        { mode: 0o600 },
      );
    ctx.out.print(t('ctrlC'));
    logger.info('cc-linker started', {
      pid: process.pid,
      feishu: daemon.feishu,
      telegram: daemon.telegram,
      slack: daemon.slack,
      dingtalk: daemon.dingtalk,
      web: Boolean(daemon.web),
    });

    await new Promise<void>((resolve) => {
      let stopping = false;
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping) {
          ctx.out.progress(t('forced'));
          process.exit(130);
        }
        stopping = true;
        ctx.out.progress(t('stopping'));
        logger.info('stopping', { signal });
        void (async () => {
          await daemon.stop(30_000).catch((err) => logger.error('stop failed', { err }));
          await removePidFile(ctx.paths.pidFile);
          ctx.out.progress(t('stopped'));
          resolve();
        })();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
    return 0;
  },
};

/** Starts `cc-linker start` detached, waits until it reports ready (or dies), prints where it runs. */
async function startDaemon(
  runtimeDir: string,
  logFile: string,
  t: ReturnType<typeof startMessages>,
  out: { print(s: string): void; progress(s: string): void },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { makePrivateDirSync } = await import('../../core/private-dir.js');
  makePrivateDirSync(runtimeDir);
  makePrivateDirSync(path.dirname(logFile), { leaveExisting: true }); // `general.log_path` may name the user's own directory
  const ready = path.join(runtimeDir, `daemon-ready-${process.pid}.json`);
  fs.rmSync(ready, { force: true });
  const log = fs.openSync(logFile, 'a', 0o600);
  const args = process.argv.slice(1).filter((a) => a !== '--daemon');
  const child = spawn(process.execPath, [...process.execArgv, ...args], {
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...env, CC_LINKER_DAEMON_READY: ready },
  });
  child.unref();
  fs.closeSync(log);
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !exited) {
    if (fs.existsSync(ready)) {
      const info = JSON.parse(fs.readFileSync(ready, 'utf8')) as { pid: number; url: string | null };
      fs.rmSync(ready, { force: true });
      out.print(t('daemonStarted', { pid: info.pid, log: logFile }));
      if (info.url) out.print(t('web', { url: info.url }));
      return 0;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  out.progress(`✖ ${t('daemonFailed', { log: logFile })}`);
  return 1;
}
