/**
 * The assembled system in-process, for the owner, path and hostile-corpus checks: the real bridge
 * runtime (`BridgeRuntime` under the owner lock, its real owner policy), the real Feishu channel over the official SDK
 * against the in-repo fake Feishu server, the real cc_exec gateway (fake OpenAI server + fake
 * ChainlessChain CLI) wired to `/cc` exactly as `cc-linker start` wires it, the real web console,
 * the real registry — and a scripted `FakeEngine` in place of Claude Code.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RegistrySessionDirectory, registryViewOf } from '../../src/bridge/runtime/registry-session-directory.js';
import type { CardAction } from '../../src/bridge/reply-model.js';
import { BridgeRuntime } from '../../src/bridge/runtime/bridge-runtime.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { createGateway } from '../../src/ccexec/create-gateway.js';
import { createFeishuChannel } from '../../src/channels/feishu/feishu-channel.js';
import { createConsoleSessions } from '../../src/channels/web/console/console-sessions.js';
import { consoleGatewayFrom } from '../../src/channels/web/console/gateway-adapter.js';
import { startWebConsole, type WebConsole } from '../../src/channels/web/start-web-console.js';
import { ccexecForBridge } from '../../src/cli/start/ccexec-for-bridge.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { resolvePaths, type Paths } from '../../src/core/paths.js';
import { upsertSession } from '../../src/sessions/registry/registry.js';
import { acquireOwnerLock } from '../../src/store/owner-lock.js';
import { FAKE_CC_ENV_ALLOW, HARNESS_KEYS } from '../fakes/fake-chainlesschain/gateway-harness.js';
import { createFakeCliHome, SAMPLE_DATA, type FakeCliHome } from '../fakes/fake-chainlesschain/fake-cli.js';
import { FakeEngine } from '../fakes/fake-engine.js';
import {
  cardActionEvent,
  startFakeFeishuServer,
  textMessageEvent,
  type FakeFeishu,
  type FeishuEventEnvelope,
} from '../fakes/fake-feishu/fake-feishu-server.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../fakes/fake-llm/fake-openai-server.js';

export const OWNER = 'ou_0wner00000000000000000000000001';
export const STRANGER = 'ou_str4nger0000000000000000000002';

export interface LiveSystem {
  root: string;
  /** `$HOME`; `~/Git` is the only allowed root, `~`, `/` and `~/Git/private` are denied. */
  home: string;
  /** A directory outside every allowed root. */
  outside: string;
  paths: Paths;
  config: Config;
  runtime: BridgeRuntime;
  engine: FakeEngine;
  feishu: FakeFeishu;
  openai: FakeOpenAIServer;
  cli: FakeCliHome;
  /** JSON lines of every real run of the fake CLI (argv). */
  cliCalls(): string[][];
  web: WebConsole | null;
  /** `http://127.0.0.1:<port>` of the console (when started). */
  base: string;
  token: string;
  /** Sends a private text message to the bot as `openId` and waits for the ack. */
  say(openId: string, text: string): Promise<void>;
  /** Pushes any event and returns the ack data. */
  push(envelope: FeishuEventEnvelope): Promise<unknown>;
  /** Clicks a button (its `value` as rendered) as `openId`; returns the callback answer. */
  click(
    openId: string,
    value: unknown,
    messageId?: string,
  ): Promise<{ toast?: { type: string; content: string }; card?: unknown }>;
  /** What `openId` sees of every message the bot sent them, in order. */
  texts(openId: string): string[];
  /** Waits until `openId` has seen `n` messages (or one matching `re`). */
  waitForText(openId: string, re: RegExp, timeoutMs?: number): Promise<string>;
  /** Every button value (`CardAction`) on every card the bot sent, newest last, with its card's message id. */
  buttons(): Array<{ messageId: string; action: CardAction }>;
  mapping(userId: string): Promise<unknown>;
  mappingFile(): string;
  /** Registers a terminal session in the registry (for /switch and the console's "continue"). */
  addSession(id: string, cwd: string): Promise<void>;
  close(): Promise<void>;
}

export interface LiveOptions {
  configure?: (config: Config, dirs: { home: string; outside: string }) => void;
  web?: boolean;
  /** Extra environment for the gateway (FAKE_CC_* switches). */
  env?: NodeJS.ProcessEnv;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Finds every `{type:'callback', value}` behaviour in a card JSON (any depth). */
function callbackValues(node: unknown, out: unknown[]): void {
  if (Array.isArray(node)) for (const x of node) callbackValues(x, out);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.type === 'callback' && 'value' in o) out.push(o.value);
    for (const v of Object.values(o)) callbackValues(v, out);
  }
}

export async function startLiveSystem(opts: LiveOptions = {}): Promise<LiveSystem> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sec-live-')));
  const home = path.join(root, 'home');
  const outside = path.join(root, 'outside');
  for (const d of ['Git/alpha', 'Git/beta', 'Git/private/inner', 'Downloads', '.ssh'])
    fs.mkdirSync(path.join(home, d), { recursive: true });
  fs.mkdirSync(path.join(outside, 'loot'), { recursive: true });
  const paths = resolvePaths({
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  });

  const feishu = await startFakeFeishuServer();
  const openai = await startFakeOpenAIServer();
  const cli = createFakeCliHome(SAMPLE_DATA);
  const callLog = path.join(cli.home, 'cli-calls.jsonl');

  const config = defaultConfig();
  config.general.language = 'zh';
  config.feishu_bot.app_id = 'cli_5ec0de5ec0de5ec1';
  config.feishu_bot.app_secret = feishu.appSecret;
  config.feishu_bot.owner_open_id = OWNER;
  config.feishu_bot.domain = feishu.baseUrl;
  config.security.allowed_roots = [path.join(home, 'Git')];
  config.security.denied_roots = [home, '/', path.join(home, 'Git', 'private')];
  config.queue.spool_dir = path.join(paths.home, 'spool');
  config.sdk.timeout_ms = 60_000;
  config.ccexec = {
    cli: cli.cli,
    cwd: cli.home,
    timeout_ms: 20_000,
    default_provider: 'openai',
    env_allow: FAKE_CC_ENV_ALLOW,
    providers: {
      openai: { kind: 'openai', base_url: openai.baseURL, api_key_env: 'OPENAI_API_KEY', model: 'gpt-4o-mini' },
    },
  };
  opts.configure?.(config, { home, outside });

  const env: NodeJS.ProcessEnv = { ...cli.env, ...HARNESS_KEYS, FAKE_CC_CALL_LOG: callLog, ...opts.env };
  const engine = new FakeEngine();
  const gateway = createGateway({ config, paths, env, lang: 'zh', logger: silentLogger });
  const directory = new RegistrySessionDirectory(paths);
  const channel = createFeishuChannel({
    appId: config.feishu_bot.app_id,
    appSecret: config.feishu_bot.app_secret,
    domain: config.feishu_bot.domain,
    lang: 'zh',
    logger: silentLogger,
    imagesDir: paths.imagesDir,
    images: config.images,
    attachmentsDir: paths.attachmentsDir,
    files: config.files,
    stream: config.stream,
    runtimeDir: paths.runtimeDir,
    retryPolicy: { baseDelayMs: 20, maxDelayMs: 200 },
  });
  const lock = await acquireOwnerLock(paths.ownerLockFile);
  const runtime = new BridgeRuntime({
    config,
    paths,
    lang: 'zh',
    logger: silentLogger,
    engine,
    sessions: directory,
    registry: registryViewOf(directory),
    trustedChannels: ['web'],
    ccexec: ccexecForBridge(gateway, 'zh'),
  });
  runtime.addChannel(channel);
  let web: WebConsole | null = null;
  if (opts.web) {
    config.web.token = 'live-console-token-0123456789abcdef';
    web = await startWebConsole({
      config,
      paths,
      lang: 'zh',
      logger: silentLogger,
      bridge: runtime.bridge,
      gateway: consoleGatewayFrom(gateway, paths.auditFile),
      sessions: createConsoleSessions(paths, 'zh'),
      port: 0,
    });
    runtime.addChannel(web.channel);
  }
  await runtime.start();
  await feishu.waitForConnection(10_000);

  const texts = (openId: string) => feishu.messagesTo(openId).map((m) => feishu.textOf(m));
  const system: LiveSystem = {
    root,
    home,
    outside,
    paths,
    config,
    runtime,
    engine,
    feishu,
    openai,
    cli,
    cliCalls: () =>
      fs.existsSync(callLog)
        ? fs
            .readFileSync(callLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { argv: string[] }).argv)
        : [],
    web,
    base: web ? `http://127.0.0.1:${web.port}` : '',
    token: config.web.token,
    async say(openId, text) {
      await feishu.pushEvent(textMessageEvent({ openId, text }));
    },
    async push(envelope) {
      return (await feishu.pushEvent(envelope)).ack.data;
    },
    async click(openId, value, messageId) {
      const { ack } = await feishu.pushEvent(cardActionEvent({ openId, value, ...(messageId ? { messageId } : {}) }));
      return (ack.data ?? {}) as { toast?: { type: string; content: string }; card?: unknown };
    },
    texts,
    async waitForText(openId, re, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const hit = texts(openId).find((t) => re.test(t));
        if (hit !== undefined) return hit;
        await sleep(20);
      }
      throw new Error(`${openId} never saw ${re}; saw:\n${texts(openId).join('\n---\n')}`);
    },
    buttons() {
      const out: Array<{ messageId: string; action: CardAction }> = [];
      const add = (messageId: string, card: unknown) => {
        const values: unknown[] = [];
        callbackValues(card, values);
        for (const v of values)
          out.push({ messageId, action: (typeof v === 'string' ? JSON.parse(v) : v) as CardAction });
      };
      for (const m of feishu.sent) {
        add(m.message_id, m.content);
        const cardId = (m.content as { data?: { card_id?: string } } | undefined)?.data?.card_id;
        if (cardId) add(m.message_id, feishu.cardJson(cardId));
      }
      for (const p of feishu.patches) add(p.message_id, p.content);
      return out;
    },
    async mapping(userId) {
      return new UserMapping(paths.userMappingFile).get(userId);
    },
    mappingFile() {
      return fs.existsSync(paths.userMappingFile) ? fs.readFileSync(paths.userMappingFile, 'utf8') : '';
    },
    async addSession(id, cwd) {
      await upsertSession(paths, id, {
        cwd,
        origin: 'cli',
        title: `session ${id.slice(0, 8)}`,
        project_name: path.basename(cwd),
        status: 'active',
        last_active: new Date().toISOString(),
        message_count: 2,
      });
    },
    async close() {
      await web?.close().catch(() => undefined);
      await runtime.stop(1000).catch(() => undefined);
      await lock.release();
      await feishu.close();
      await openai.close();
      cli.cleanup();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return system;
}
