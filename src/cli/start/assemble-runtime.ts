import { consoleGatewayFrom } from '../../channels/web/gateway-adapter.js';
import { createConsoleSessions } from '../../channels/web/console-sessions.js';
import { startWebConsole, type WebConsole } from '../../channels/web/web-server.js';
import { RegistrySessionDirectory, registryViewOf } from '../../bridge/registry-session-directory.js';
import { openRuntime, type Runtime } from '../../bridge/runtime.js';
import { createGateway } from '../../ccexec/create-gateway.js';
import { createEngine } from '../../claude/create-engine.js';
import { listModels } from '../../claude/list-models.js';
import { createRegistrySessionRecorder } from '../../claude/registry-session-recorder.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';
import { createChildTracker, killLeftovers } from '../../process/child-tracker.js';
import { syncRegistry } from '../../sessions/registry/sync-registry.js';
import { readMappedSessions } from '../../bridge/mapping/read-mapped-sessions.js';
import { ccexecForBridge } from './ccexec-for-bridge.js';

export interface AssembleOptions {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Start the Feishu channel (when credentials exist). */
  feishu: boolean;
  /** Overrides `web.port` (tests: 0). */
  webPort?: number;
}

export interface Assembled {
  runtime: Runtime;
  web: WebConsole | null;
  feishu: 'connected' | 'disabled' | 'no-credentials';
}

/** True when both Feishu credentials are configured (file or environment). */
export function hasFeishuCredentials(config: Config): boolean {
  return config.feishu_bot.app_id !== '' && config.feishu_bot.app_secret !== '';
}

/**
 * Builds the whole running system from config: engine (with the registry recorder and the child
 * tracker), the bridge runtime (owner lock first), the cc_exec gateway for `/cc` and the console,
 * the web console and — when configured and wanted — the Feishu channel; then starts it.
 */
export async function assembleRuntime(o: AssembleOptions): Promise<Assembled> {
  const { config, paths, lang, logger, env } = o;
  const tracker = createChildTracker(paths.childrenDir, { logger });
  const engine = createEngine(config, {
    paths,
    logger,
    lang,
    tracker,
    env,
    sessionRecorder: createRegistrySessionRecorder(paths, logger),
  });
  const gateway = createGateway({ config, paths, env, lang, logger });
  const directory = new RegistrySessionDirectory(paths);
  const canFeishu = hasFeishuCredentials(config);
  const channels = [];
  if (o.feishu && canFeishu) {
    // The Lark SDK costs ~65 MB of memory: load it only when the channel runs.
    const { createFeishuChannel } = await import('../../channels/feishu/feishu-channel.js');
    channels.push(
      createFeishuChannel({
        appId: config.feishu_bot.app_id,
        appSecret: config.feishu_bot.app_secret,
        domain: config.feishu_bot.domain,
        lang,
        logger: logger.child('feishu'),
        imagesDir: paths.imagesDir,
        images: config.images,
        stream: config.stream,
        runtimeDir: paths.runtimeDir,
      }),
    );
  }
  const runtime = await openRuntime({
    config,
    paths,
    lang,
    logger,
    engine,
    channels,
    sessions: directory,
    registry: registryViewOf(directory),
    ccexec: ccexecForBridge(gateway, lang),
    models: async () =>
      listModels(config.claude.models, paths.claudeDir).map((m) => ({ alias: m.alias, model: m.model })),
    syncSessions: async () => {
      await syncRegistry({
        paths,
        maxFileSize: config.scanner.max_file_size,
        incremental: config.scanner.incremental,
        readMapping: () => readMappedSessions(paths.userMappingFile),
      });
    },
    killLeftovers: async () => {
      const r = await killLeftovers(paths.childrenDir);
      if (r.killed.length > 0) logger.warn('killed process groups left by a previous run', { groups: r.killed.length });
    },
  });
  let web: WebConsole | null = null;
  try {
    if (config.web.enabled) {
      web = await startWebConsole({
        config,
        paths,
        lang,
        logger: logger.child('web'),
        bridge: runtime.bridge,
        gateway: consoleGatewayFrom(gateway, paths.auditFile),
        sessions: createConsoleSessions(paths, lang),
        ...(o.webPort !== undefined ? { port: o.webPort } : {}),
      });
      runtime.addChannel(web.channel);
    }
    await runtime.start();
  } catch (err) {
    await web?.close().catch(() => undefined);
    await runtime.stop(0).catch(() => undefined);
    throw err;
  }
  return { runtime, web, feishu: !o.feishu ? 'disabled' : canFeishu ? 'connected' : 'no-credentials' };
}
