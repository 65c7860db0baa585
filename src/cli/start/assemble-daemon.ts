import { agentScanPaths } from '../../agents/agent-dirs.js';
import { agentEngines } from './agent-engines.js';
import { Semaphore, SessionLocks } from '../../engine/session-lock.js';
import type { Channel } from '../../bridge/channel.js';
import type { Bridge } from '../../bridge/bridge.js';
import { BridgeRuntime } from '../../bridge/runtime/bridge-runtime.js';
import { RegistrySessionDirectory, registryViewOf } from '../../bridge/runtime/registry-session-directory.js';
import { createGateway } from '../../ccexec/create-gateway.js';
import { createConsoleSessions } from '../../channels/web/console/console-sessions.js';
import { createConsoleWorkspace } from '../../channels/web/console/console-workspace.js';
import { consoleGatewayFrom } from '../../channels/web/console/gateway-adapter.js';
import type { FeishuChannel } from '../../channels/feishu/feishu-channel.js';
import { startWebConsole, type WebConsole } from '../../channels/web/start-web-console.js';
import { createEngine } from '../../claude/create-engine.js';
import { WarmBudget } from '../../engine/warm-pool.js';
import { listModels } from '../../claude/list-models.js';
import { claudeProgramFor } from '../../claude/find-claude-binary.js';
import { createRegistrySessionRecorder } from '../../engine/registry-session-recorder.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';
import { createChildTracker, killLeftovers } from '../../process/child-tracker.js';
import { acquireOwnerLock } from '../../store/owner-lock.js';
import { ccexecForBridge } from './ccexec-for-bridge.js';
import { FileSenderRegistry } from '../../engine/file-sender-registry.js';
import type { SendFileMcp } from '../../engine/send-file-mcp.js';
import fs from 'node:fs';
import path from 'node:path';
import { startDownloadCleanup } from './download-cleanup.js';
import { dingtalkChannel, type DingTalkStart } from './dingtalk-for-daemon.js';
import { mcpLaunchCommand } from './mcp-launch.js';
import { startLiveSessions, type LiveSessions } from './live-sessions.js';
import { slackChannel, type SlackStart } from './slack-for-daemon.js';
import type { ChatChannelStart } from './chat-channel-start.js';
import { daemonSpeech } from './speech-for-daemon.js';
import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import { telegramWebhook } from './telegram-webhook-for-daemon.js';

export interface DaemonOptions {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Start the Feishu channel (when credentials exist). */
  feishu: boolean;
  /** Overrides `web.port` (tests: 0). */
  webPort?: number;
  /** `poll` forces the session watcher's poll fallback (tests). */
  sessionWatch?: 'auto' | 'poll';
}

/** The running daemon, as `cc-linker start` holds it. */
export interface Daemon {
  bridge: Bridge;
  web: WebConsole | null;
  feishu: 'connected' | 'disabled' | 'no-credentials';
  /** The Telegram channel (`ChatChannelStart` says what each state means). */
  telegram: ChatChannelStart;
  /** The Slack channel, the same states as Telegram's (`no-credentials`: a token missing). */
  slack: SlackStart;
  /** The DingTalk channel, the same four states as Telegram's (`dingtalk-for-daemon.ts`). */
  dingtalk: DingTalkStart;
  /** The live registry and the request socket (`sync`, `clean`, `repair` from the CLI). */
  sessions: LiveSessions;
  /** Stops intake, waits ≤ `graceMs` for running messages, closes the console, releases the owner lock. */
  stop(graceMs?: number): Promise<void>;
}

/** The channel whose users the console's token already authenticated (always the owner). */
const WEB_CHANNEL = 'web';

/** True when both Feishu credentials are configured (file or environment). */
export function hasFeishuCredentials(config: Config): boolean {
  return config.feishu_bot.app_id !== '' && config.feishu_bot.app_secret !== '';
}

/** The chat apps other than Feishu that are switched on in the config (`start` names them). */
export function otherChatApps(config: Config): string[] {
  const on = { telegram: config.telegram.enabled, slack: config.slack.enabled, dingtalk: config.dingtalk.enabled };
  return Object.entries(on)
    .filter(([, enabled]) => enabled)
    .map(([id]) => id);
}

/**
 * The one place the whole daemon is put together and started, in this order:
 * 1. the owner lock (one `cc-linker start` per home: the single writer of the spool, the user
 *    mapping and the registry) — before anything else;
 * 2. the live registry (session folders watched, incremental syncs one at a time) and the request
 *    socket the write commands use while the daemon runs;
 * 3. the parts: the Claude engine (with the registry recorder and the child tracker), the cc_exec
 *    gateway (for `/cc` and the console), the bridge runtime, the Feishu channel (when wanted and
 *    configured), the Telegram channel (when enabled and given a token; it never fails the start)
 *    and the web console (when enabled);
 * 4. process groups a crashed predecessor left behind are killed;
 * 5. the bridge runtime starts: spool recovery, session sync and mapping repair, retention, the
 *    dispatcher, then the channels; the background sync runs from then on.
 * A failure on the way undoes what was started. `stop()` undoes it all in reverse order.
 */
export async function assembleDaemon(o: DaemonOptions): Promise<Daemon> {
  const { config, paths, lang, logger, env } = o;
  const lock = await acquireOwnerLock(paths.ownerLockFile);
  if (lock.tookOverStale) logger.warn('took over a stale owner lock left by a crashed process');
  let runtime: BridgeRuntime | undefined;
  let web: WebConsole | null = null;
  let live: LiveSessions | undefined;
  try {
    // Where each agent keeps its sessions when cc-linker starts it (a profile's env may move them).
    const scanPaths = agentScanPaths(paths, config, env);
    const files = new FileSenderRegistry(lang);
    live = await startLiveSessions({
      files,
      status: async () => {
        const s = runtime ? await runtime.bridge.status() : undefined;
        return {
          pid: process.pid,
          channels: s?.channels ?? [],
          pending: s?.pending ?? 0,
          processing: s?.processing ?? 0,
          failed: s?.failed ?? 0,
          running: s?.running ?? 0,
        };
      },
      config,
      paths,
      scanPaths,
      logger,
      onRegistryChanged: () => web?.sessionsChanged(),
      ...(o.sessionWatch ? { watch: o.sessionWatch } : {}),
    });
    const liveSessions = live;
    const sendFileMcp = live.control ? sendFileMcpOf(paths, live.control.socket, files, lang) : undefined;
    const tracker = createChildTracker(paths.childrenDir, { logger });
    const sessionRecorder = createRegistrySessionRecorder(paths, logger);
    // One set of locks and one run limit for every agent's runs.
    const locks = new SessionLocks();
    const slots = new Semaphore(config.runtime.max_concurrent_sessions);
    // One runtime.max_warm for the processes every agent keeps between turns.
    const warmBudget = new WarmBudget(config.runtime.max_warm);
    const claude = createEngine(config, {
      paths,
      logger,
      lang,
      tracker,
      env,
      sessionRecorder,
      locks,
      slots,
      warmBudget,
      ...(sendFileMcp ? { sendFileMcp } : {}),
    });
    const { engine, catalog } = agentEngines({
      config,
      paths,
      lang,
      logger,
      env,
      tracker,
      sessionRecorder,
      claude,
      locks,
      slots,
      warmBudget,
      ...(sendFileMcp ? { sendFileMcp } : {}),
    });
    const gateway = createGateway({ config, paths, env, lang, logger });
    const directory = new RegistrySessionDirectory(paths);
    runtime = new BridgeRuntime({
      config,
      paths,
      lang,
      logger,
      engine,
      sessions: directory,
      registry: registryViewOf(directory),
      trustedChannels: [WEB_CHANNEL],
      ccexec: ccexecForBridge(gateway, lang),
      agents: catalog,
      claudeProgram: claudeProgramFor(config.general.claude_bin, env, paths.userHome),
      models: async () =>
        listModels(config.claude.models, paths.claudeDir).map((m) => ({ alias: m.alias, model: m.model })),
      syncSessions: async () => {
        await liveSessions.syncNow();
      },
    });
    const speech = daemonSpeech(config, lang, logger);
    const canFeishu = hasFeishuCredentials(config);
    const feishu = o.feishu && canFeishu ? await feishuChannel(o, speech.forFeishu) : undefined;
    if (feishu) runtime.addChannel(feishu);
    const speechToText = speech.pick(feishu?.speechToText);
    const telegram = await telegramChannel(o, speechToText);
    if (typeof telegram !== 'string') runtime.addChannel(telegram);
    const slack = await slackChannel(o, speechToText);
    if (typeof slack !== 'string') runtime.addChannel(slack);
    const dingtalk = await dingtalkChannel(o);
    if (typeof dingtalk !== 'string') runtime.addChannel(dingtalk);
    if (config.web.enabled) {
      web = await startWebConsole({
        config,
        paths,
        lang,
        logger: logger.child('web'),
        bridge: runtime.bridge,
        gateway: consoleGatewayFrom(gateway, paths.auditFile),
        sessions: {
          ...createConsoleSessions(scanPaths, lang, { maxFileSize: config.scanner.max_file_size }),
          rescan: async () => {
            await liveSessions.syncNow();
          },
        },
        workspace: createConsoleWorkspace(scanPaths, { maxFileSize: config.scanner.max_file_size }),
        agents: catalog,
        ...(o.webPort !== undefined ? { port: o.webPort } : {}),
        // Without a speech-to-text the console hides its microphone.
        ...(speechToText ? { speechToText } : {}),
      });
      runtime.addChannel(web.channel);
    }
    try {
      const { killed } = await killLeftovers(paths.childrenDir);
      if (killed.length > 0) logger.warn('killed process groups left by a previous run', { groups: killed.length });
    } catch (err) {
      logger.warn('could not kill leftover processes', { err });
    }
    await runtime.start();
    const stopCleanup = startDownloadCleanup({ paths, config, logger });
    const started = runtime;
    const webConsole = web;
    let stopped = false;
    return {
      bridge: started.bridge,
      web: webConsole,
      sessions: liveSessions,
      feishu: !o.feishu ? 'disabled' : canFeishu ? 'connected' : 'no-credentials',
      telegram: typeof telegram === 'string' ? telegram : 'started',
      slack: typeof slack === 'string' ? slack : 'started',
      dingtalk: typeof dingtalk === 'string' ? dingtalk : 'started',
      async stop(graceMs = 30_000) {
        if (stopped) return;
        stopped = true;
        try {
          await started.stop(graceMs);
        } finally {
          await engine.close?.().catch(() => undefined); // the processes kept between turns
          await webConsole?.close().catch(() => undefined);
          await liveSessions.close().catch(() => undefined);
          stopCleanup();
          await lock.release();
        }
      },
    };
  } catch (err) {
    await runtime?.stop(0).catch(() => undefined);
    await web?.close().catch(() => undefined);
    await live?.close().catch(() => undefined);
    await lock.release();
    throw err;
  }
}

/**
 * How agent children start `cc-linker mcp` (docs/design.md#files-out): over this daemon's request
 * socket. Its `--mcp-config` files live in `runtime/mcp`; any a crashed predecessor left are removed
 * (their tokens died with it).
 */
function sendFileMcpOf(paths: Paths, socket: string, registry: FileSenderRegistry, lang: Language): SendFileMcp {
  const configDir = path.join(paths.runtimeDir, 'mcp');
  fs.rmSync(configDir, { recursive: true, force: true });
  return { ...mcpLaunchCommand(), socket, registry, configDir, lang };
}

/** The Feishu channel; the Lark SDK costs ~65 MB of memory, so it is loaded only when the channel runs. */
async function feishuChannel(o: DaemonOptions, speechToText: SpeechToText | null | undefined): Promise<FeishuChannel> {
  const { config, paths, lang, logger } = o;
  const { createFeishuChannel } = await import('../../channels/feishu/feishu-channel.js');
  return createFeishuChannel({
    appId: config.feishu_bot.app_id,
    appSecret: config.feishu_bot.app_secret,
    domain: config.feishu_bot.domain,
    lang,
    logger: logger.child('feishu'),
    imagesDir: paths.imagesDir,
    images: config.images,
    attachmentsDir: paths.attachmentsDir,
    files: config.files,
    voice: config.voice,
    ...(speechToText !== undefined ? { speechToText } : {}),
    stream: config.stream,
    runtimeDir: paths.runtimeDir,
  });
}

/**
 * The Telegram channel when `telegram.enabled` and a token are set. Its `start()` never throws (a
 * refused token or an outage shows in its status and is retried), and a failure to create it is
 * logged and skipped: Telegram never keeps Feishu or the console from running.
 */
async function telegramChannel(
  o: DaemonOptions,
  speechToText: SpeechToText | undefined,
): Promise<Channel | Exclude<ChatChannelStart, 'started'>> {
  const { config, paths, lang, logger } = o;
  if (!config.telegram.enabled) return 'disabled';
  if (config.telegram.bot_token === '') {
    logger.warn('telegram.enabled is true but no bot token is set (telegram.bot_token / CC_LINKER_TELEGRAM_BOT_TOKEN)');
    return 'no-credentials';
  }
  try {
    const { createTelegramChannel } = await import('../../channels/telegram/telegram-channel.js');
    return createTelegramChannel({
      botToken: config.telegram.bot_token,
      apiRoot: config.telegram.api_root,
      lang,
      logger,
      imagesDir: paths.imagesDir,
      images: config.images,
      attachmentsDir: paths.attachmentsDir,
      files: config.files,
      stream: config.stream,
      runtimeDir: paths.runtimeDir,
      voice: config.voice,
      ...(speechToText ? { speechToText } : {}),
      ...telegramWebhook(config.telegram),
    });
  } catch (err) {
    logger.error('the Telegram channel could not be created; running without it', { err });
    return 'error';
  }
}
