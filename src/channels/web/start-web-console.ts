import path from 'node:path';
import type { Channel } from '../../bridge/channel.js';
import { cleanupDownloads } from '../../bridge/inbound-files/cleanup-downloads.js';
import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import { CLAUDE_ONLY, type AgentCatalog } from '../../bridge/commands/agent-catalog.js';
import { UserMapping } from '../../bridge/mapping/user-mapping.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';
import { tildify } from '../../core/tildify.js';
import { handleApi, type ApiContext, type ConsoleBridge } from './console/api-routes.js';
import { statusBody } from './console/status-body.js';
import { consoleAgents } from './console/console-agents.js';
import { ConsoleChats } from './console/console-chats.js';
import type { ConsoleGateway } from './console/console-gateway.js';
import type { ConsoleSessions } from './console/console-sessions.js';
import { createConsoleWorkspace, type ConsoleWorkspace } from './console/console-workspace.js';
import { EventHub } from './console/event-hub.js';
import { handleVoice } from './console/voice-routes.js';
import { consoleUrl, resolveBindAddress } from './http/bind-address.js';
import { loginStoreFile, type LoginLimits } from './http/login-sessions.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './http/server-limits.js';
import { loadUiAssets } from './http/static-assets.js';
import { TokenSource } from './http/token-source.js';
import { startWebServer, type WebServer } from './http/web-server.js';
import { loadWebToken } from './http/web-token.js';
import { WebChannel, WEB_USER_ID } from './web-channel.js';
import { SentFiles } from './sent-files.js';
import { WebOutbox } from './web-outbox.js';
import { WebUploads } from './web-uploads.js';

/** What `startWebConsole` needs. `bridge` absent = the chat page only (sessions answer 503). */
export interface WebConsoleOptions {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
  bridge?: ConsoleBridge;
  gateway: ConsoleGateway;
  sessions: ConsoleSessions;
  /** A session's directory (changes, git status, files); default: over `paths` (the daemon passes its scan paths). */
  workspace?: ConsoleWorkspace;
  /** The agents the daemon runs (the bridge's catalog); absent = Claude Code alone. */
  agents?: AgentCatalog;
  /** Overrides `web.host` (tests); a non-loopback value still needs `web.host` + `web.token` in config. */
  host?: string;
  /** Overrides `web.port`; 0 = any free port (tests). */
  port?: number;
  /** The UI folder (default: `ui/` beside this module). */
  uiDir?: string;
  /** How often the status view is refreshed over SSE while a page is open. */
  statusIntervalMs?: number;
  /** How often uploads and sent files older than `files.cleanup_max_age_hours` are removed (default hourly). */
  cleanupIntervalMs?: number;
  /** Timeouts and caps of the server (tests shorten them); the rest keep `DEFAULT_SERVER_LIMITS`. */
  limits?: Partial<ServerLimits>;
  /** How long a login lasts and how many are kept (tests). */
  loginLimits?: LoginLimits;
  /** The speech service of the console's microphone (Feishu's, when Feishu is configured); absent = no microphone. */
  speechToText?: SpeechToText;
}

/** A running console. `url` carries `?token=` once: print it, never log it elsewhere. */
export interface WebConsole {
  url: string;
  port: number;
  /** The console as a bridge channel (id `web`): `bridge.addChannel(channel)` then `channel.start(bridge)`. */
  channel: Channel;
  /** Tells open pages the session registry changed (SSE `sessions.changed`; they reload their list). */
  sessionsChanged(): void;
  close(): Promise<void>;
}

/**
 * Starts the local web console: the HTTP server (`http/`) on `web.host:web.port` (127.0.0.1:9820
 * by default) serving the UI, the console's JSON API (`console/`) and an SSE event stream, and the
 * console's bridge channel (`WebChannel` with its durable `WebOutbox`), whose replies reach open
 * pages over that stream. Nothing is written when the bind address is refused; a failure to listen
 * closes what was opened.
 *
 * @example
 *   const web = await startWebConsole({ config, paths, lang, logger, bridge, gateway, sessions });
 *   bridge.addChannel(web.channel); await web.channel.start(bridge);
 *   console.log(web.url); // http://127.0.0.1:9820/?token=…
 */
export async function startWebConsole(opts: WebConsoleOptions): Promise<WebConsole> {
  const { config, lang, logger } = opts;
  const bind = resolveBindAddress(
    config,
    {
      ...(opts.host !== undefined ? { host: opts.host } : {}),
      ...(opts.port !== undefined ? { port: opts.port } : {}),
    },
    lang,
  );
  const { token, source } = await loadWebToken(config, opts.paths, lang);
  // A token from the token file follows that file (`cc-linker web rotate-token`) while running.
  const tokenSource =
    source === 'config' ? TokenSource.fixed(token) : await TokenSource.fromFile(token, opts.paths.webTokenFile);
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...opts.limits };
  const assets = await loadUiAssets(opts.uiDir);
  const hub = new EventHub({ maxPerClient: limits.maxStreamsPerClient });
  const sentFiles = new SentFiles(path.join(opts.paths.home, 'web', 'sent'), config.files.max_size_bytes);
  const uploads = new WebUploads({ attachmentsDir: opts.paths.attachmentsDir, maxBytes: config.files.max_size_bytes });
  const outbox = await WebOutbox.open(path.join(opts.paths.home, 'web', 'outbox.jsonl'), {
    lang,
    logger,
    sentFiles,
    onChange: (view) => hub.publish({ type: 'bridge.message', data: view }),
  });
  const channel = new WebChannel(outbox, (n) => hub.publish({ type: 'bridge.notify', data: n }));
  const chats = new ConsoleChats(opts.gateway, (e) => hub.publish(e), logger);
  const ctx: ApiContext = {
    config,
    lang,
    bridge: opts.bridge ?? null,
    gateway: opts.gateway,
    sessions: opts.sessions,
    agents: consoleAgents(opts.agents ?? CLAUDE_ONLY, () =>
      new UserMapping(opts.paths.userMappingFile).defaultAgentOf(WEB_USER_ID),
    ),
    chats,
    outbox,
    hub,
    dirPolicy: {
      allowedRoots: config.security.allowed_roots,
      deniedRoots: config.security.denied_roots,
      home: opts.paths.userHome,
      lang,
    },
    workspace: opts.workspace ?? createConsoleWorkspace(opts.paths, { maxFileSize: config.scanner.max_file_size }),
    uploads,
    sentFiles,
  };

  const voice = { api: ctx, ...(opts.speechToText && config.voice.enabled ? { stt: opts.speechToText } : {}) };

  let server: WebServer;
  try {
    server = await startWebServer({
      bind,
      token: tokenSource,
      loginStore: loginStoreFile(opts.paths),
      ...(opts.loginLimits ? { loginLimits: opts.loginLimits } : {}),
      limits,
      assets,
      lang,
      logger,
      api: async (req, res, url, l, client) =>
        (await handleVoice(voice, req, res, url, l)) || handleApi(ctx, req, res, url, l, client),
      loginHint: {
        source: source === 'config' ? 'config' : 'file',
        file: tildify(source === 'config' ? opts.paths.configFile : opts.paths.webTokenFile, opts.paths.userHome),
      },
    });
  } catch (err) {
    hub.close();
    await outbox.close();
    throw err;
  }

  // The status view refreshes itself while a page is open.
  let lastStatus = '';
  const statusTimer = setInterval(() => {
    if (hub.size === 0) return;
    statusBody(ctx).then(
      (s) => {
        const json = JSON.stringify(s);
        if (json !== lastStatus) hub.publish({ type: 'status', data: s });
        lastStatus = json;
      },
      (err: unknown) => logger.warn('status refresh failed', { err }),
    );
  }, opts.statusIntervalMs ?? 3000);
  statusTimer.unref();

  // The agent's sent files age out like attachments (`files.cleanup_max_age_hours`; the daemon
  // cleans the attachments folder, uploads included).
  const cleanup = (): void => {
    for (const dir of [sentFiles.dir])
      cleanupDownloads(dir, config.files.cleanup_max_age_hours).then(
        (n) => (n > 0 ? logger.info('old console files removed', { dir, count: n }) : undefined),
        (err: unknown) => logger.warn('console file cleanup failed', { dir, err }),
      );
  };
  cleanup();
  const cleanupTimer = setInterval(cleanup, opts.cleanupIntervalMs ?? 3600_000);
  cleanupTimer.unref();

  return {
    url: consoleUrl(bind.host, server.port, token),
    port: server.port,
    channel,
    sessionsChanged: () => hub.publish({ type: 'sessions.changed', data: {} }),
    async close() {
      clearInterval(statusTimer);
      clearInterval(cleanupTimer);
      await channel.stop();
      hub.close();
      await server.close();
      await outbox.close();
    },
  };
}
