// The whole system under test, assembled exactly as `cc-linker start` does (assembleDaemon): the
// real Feishu SDK against the fake Feishu server, the real bundled Claude Code binary against the
// fake Anthropic API, the real bridge, spool, registry and mapping — all in one throw-away root.
// Shared by system-feishu.test.ts and web-system.test.ts (the crash test's child process gets the
// same config as JSON: fixtures/system-feishu-child.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, onTestFailed } from 'vitest';
import { assembleDaemon, type Daemon } from '../../src/cli/start/assemble-daemon.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { createLogger } from '../../src/core/logger.js';
import { resolvePaths, type Paths } from '../../src/core/paths.js';
import { bundledClaudePath, claudeTestEnv } from '../fakes/fake-anthropic/claude-env.js';
import { encodeProjectDir } from '../fakes/fake-anthropic/claude-sandbox.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import {
  cardActionEvent,
  startFakeFeishuServer,
  textMessageEvent,
  type FakeFeishu,
  type PushResult,
  type SentMessage,
} from '../fakes/fake-feishu/fake-feishu-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import { withCodex, withQwen, type CodexSetup, type QwenSetup } from './system-agents.js';

export {
  CODEX_BIN,
  QWEN_BIN,
  withCodex,
  withQwen,
  type AgentSetup,
  type CodexSetup,
  type QwenSetup,
} from './system-agents.js';

const CHILD = path.join(import.meta.dirname, 'fixtures/system-feishu-child.ts');

/** The bundled Claude Code binary, or null on a platform without it (the tests then skip). */
export const CLAUDE_BIN = bundledClaudePath();
/** The configured owner (`feishu_bot.owner_open_id`). */
export const OWNER = 'ou_5a1e0f7c2b9d4e8a6c3f1b0d9e7a5c21';
/** Limit of one real Claude Code run (and of each case). */
export const CASE_TIMEOUT_MS = 60_000;

/** A throw-away root: the user's HOME (Claude's sessions in `<home>/.claude/projects`), `~/.cc-linker`, the allowed projects dir. */
export interface SystemRoot {
  root: string;
  home: string;
  /** The one allowed root (`security.allowed_roots`). */
  projects: string;
  /** What the runtime and the Claude child see: the offline Claude env plus CC_LINKER_HOME. */
  env: NodeJS.ProcessEnv;
  paths: Paths;
  /** `<projects>/<name>`, created. */
  project(name: string): string;
  cleanup(): void;
}

export function systemRoot(anthropicUrl: string): SystemRoot {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-system-')));
  const home = path.join(root, 'home');
  const projects = path.join(root, 'projects');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(projects);
  const env = { ...claudeTestEnv({ home, baseUrl: anthropicUrl }), CC_LINKER_HOME: path.join(home, '.cc-linker') };
  return {
    root,
    home,
    projects,
    env,
    paths: resolvePaths(env),
    project(name) {
      const dir = path.join(projects, name);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** A fresh app id (`cli_` + 16 hex): the SDK caches tenant tokens per app id, process-wide. */
export const newAppId = (): string => `cli_${randomBytes(8).toString('hex')}`;

/**
 * The config of one system run, from the embedded defaults: Feishu pointed at the fake (or off),
 * the given Claude mode with the bundled binary, English messages, everything under the root.
 */
export function systemConfig(o: {
  sys: SystemRoot;
  mode: Config['claude']['mode'];
  feishu?: { baseUrl: string; appSecret: string; appId: string };
  web?: boolean;
  /** `[agents.codex]` pointed at the real codex-acp binary, from `withCodex`. */
  codex?: CodexSetup;
  /** `[agents.qwen]` pointed at the real Qwen Code, from `withQwen`. */
  qwen?: QwenSetup;
}): Config {
  const c = defaultConfig();
  c.general.language = 'en';
  c.general.claude_bin = CLAUDE_BIN ?? '';
  c.general.log_path = path.join(o.sys.paths.home, 'cc-linker.log');
  if (o.feishu) {
    c.feishu_bot.app_id = o.feishu.appId;
    c.feishu_bot.app_secret = o.feishu.appSecret;
    c.feishu_bot.domain = o.feishu.baseUrl;
  }
  c.feishu_bot.owner_open_id = OWNER;
  c.claude.mode = o.mode;
  c.runtime.stale_timeout_ms = 30_000;
  c.runtime.hard_timeout_ms = CASE_TIMEOUT_MS;
  c.sdk.timeout_ms = CASE_TIMEOUT_MS;
  c.queue.spool_dir = path.join(o.sys.paths.home, 'spool');
  c.security.allowed_roots = [o.sys.projects];
  c.security.denied_roots = [];
  c.web.enabled = o.web ?? false;
  c.ccexec.cwd = o.sys.home;
  if (o.codex) c.agents.profiles.codex = o.codex.profile;
  if (o.qwen) c.agents.profiles.qwen = o.qwen.profile;
  return c;
}

/** The CardKit card id a streamed reply message refers to (`{type:'card', data:{card_id}}`), if any. */
export function cardIdOf(m: SentMessage): string | undefined {
  const c = m.content as { type?: string; data?: { card_id?: string } } | null;
  return c?.type === 'card' ? c.data?.card_id : undefined;
}

/** The bot's messages threaded on the user's message `messageId`, in order. */
export function repliesTo(fake: FakeFeishu, messageId: string): SentMessage[] {
  return fake.sent.filter((m) => m.parent_id === messageId);
}

/** The streamed reply card (a CardKit card message) among the replies to `messageId`. */
export function streamedReply(fake: FakeFeishu, messageId: string): SentMessage | undefined {
  return repliesTo(fake, messageId).find((m) => cardIdOf(m) !== undefined);
}

/**
 * True once the streamed reply to `messageId` is final: its card left streaming mode and its
 * header is green (complete) or red (error).
 */
export function replyFinished(fake: FakeFeishu, messageId: string): boolean {
  const m = streamedReply(fake, messageId);
  const cardId = m && cardIdOf(m);
  const card = cardId
    ? (fake.cardJson(cardId) as { config?: { streaming_mode?: boolean }; header?: { template?: string } } | undefined)
    : undefined;
  return (
    card?.config?.streaming_mode === false && (card.header?.template === 'green' || card.header?.template === 'red')
  );
}

/** Header colour of the streamed reply's card (`green` complete, `red` error). */
export function replyTemplate(fake: FakeFeishu, messageId: string): string | undefined {
  const m = streamedReply(fake, messageId);
  const cardId = m && cardIdOf(m);
  return (cardId ? (fake.cardJson(cardId) as { header?: { template?: string } } | undefined) : undefined)?.header
    ?.template;
}

interface CardButtonJson {
  text: { content: string };
  behaviors: Array<{ type: string; value: unknown }>;
}

/** The callback buttons of an interactive card message as sent: `[{label, value}]`. */
export function buttonsOf(m: SentMessage): Array<{ label: string; value: unknown }> {
  const card = m.content as {
    body?: { elements?: Array<{ tag?: string; columns?: Array<{ elements?: CardButtonJson[] }> }> };
  } | null;
  const out: Array<{ label: string; value: unknown }> = [];
  for (const el of card?.body?.elements ?? []) {
    if (el.tag !== 'column_set') continue;
    for (const col of el.columns ?? []) {
      for (const b of col.elements ?? []) {
        const cb = b.behaviors?.find((x) => x.type === 'callback');
        if (cb) out.push({ label: b.text.content, value: cb.value });
      }
    }
  }
  return out;
}

/** One running system: both fakes, the root, and the runtime assembled as `cc-linker start` does. */
export interface System {
  anth: FakeAnthropic;
  fake: FakeFeishu;
  sys: SystemRoot;
  config: Config;
  runtime: Daemon;
  logFile: string;
  /** Pushes a text message as `openId` (default: the owner); resolves once acked. */
  send(
    text: string,
    opts?: { openId?: string; chatType?: 'p2p' | 'group' },
  ): Promise<{ messageId: string; eventId: string; push: PushResult }>;
  /** Waits until the streamed reply to `messageId` is final (complete or error). */
  finished(messageId: string): Promise<void>;
  /** What the user reads in the streamed reply card. */
  answer(messageId: string): string;
  /** Claude runs started for `prompt` (API requests whose last user text is the prompt). */
  runsOf(prompt: string): number;
  /** The real Codex's fake model, when started with `agents: ['codex']`. */
  codex?: CodexSetup;
  /** The real Qwen Code's fake model, when started with `agents: ['qwen']`. */
  qwen?: QwenSetup;
  stop(): Promise<void>;
}

/**
 * Starts both fakes and the system in `mode`; `prepare` runs on the fresh root before the runtime
 * is assembled (e.g. a terminal session the start-up sync should find), `tweak` edits the config.
 */
export async function startSystem(
  mode: Config['claude']['mode'],
  opts: {
    tweak?: (c: Config) => void;
    prepare?: (sys: SystemRoot) => Promise<void>;
    /** Other agents to configure with their real binaries (`[agents.<name>]`); see `withCodex`, `withQwen`. */
    agents?: Array<'codex' | 'qwen'>;
  } = {},
): Promise<System> {
  const anth = await startFakeAnthropic();
  const fake = await startFakeFeishuServer();
  const sys = systemRoot(anth.url);
  const codex = opts.agents?.includes('codex') ? await withCodex(sys) : undefined;
  const qwen = opts.agents?.includes('qwen') ? await withQwen(sys) : undefined;
  const config = systemConfig({
    sys,
    mode,
    feishu: { baseUrl: fake.baseUrl, appSecret: fake.appSecret, appId: newAppId() },
    ...(codex ? { codex } : {}),
    ...(qwen ? { qwen } : {}),
  });
  // Ask for every tool call that is not on the allow list (the default `acceptEdits` would let
  // `touch` through without asking, and the permission cases need a prompt).
  config.sdk.permission_mode = 'default';
  opts.tweak?.(config);
  const logFile = path.join(sys.root, 'cc-linker.log');
  let assembledRuntime: Daemon | undefined;
  try {
    await opts.prepare?.(sys);
    const assembled = await assembleDaemon({
      config,
      paths: sys.paths,
      lang: 'en',
      logger: createLogger({ level: 'debug', sink: { file: logFile } }),
      env: sys.env,
      feishu: true,
    });
    assembledRuntime = assembled;
    expect(assembled.feishu).toBe('connected');
    await fake.waitForConnection();
  } catch (err) {
    await assembledRuntime?.stop(0).catch(() => undefined);
    await fake.close();
    await anth.close();
    await codex?.fake.close();
    await qwen?.fake.close();
    sys.cleanup();
    throw err;
  }
  const runtime = assembledRuntime;
  return {
    anth,
    fake,
    sys,
    config,
    runtime,
    logFile,
    ...(codex ? { codex } : {}),
    ...(qwen ? { qwen } : {}),
    async send(text, opts = {}) {
      const event = textMessageEvent({
        openId: opts.openId ?? OWNER,
        text,
        ...(opts.chatType ? { chatType: opts.chatType } : {}),
      });
      const push = await fake.pushEvent(event);
      return {
        messageId: (event.event.message as { message_id: string }).message_id,
        eventId: event.header.event_id,
        push,
      };
    },
    finished: (messageId) => fake.waitFor(() => replyFinished(fake, messageId), CASE_TIMEOUT_MS),
    answer(messageId) {
      const m = streamedReply(fake, messageId);
      if (!m) throw new Error(`no streamed reply to ${messageId}`);
      return fake.textOf(m);
    },
    runsOf: (prompt) => anth.messageRequests().filter((r) => r.scriptRequest?.lastUserText === prompt).length,
    async stop() {
      await runtime.stop(5_000);
      const left = await waitNoLeftovers(sys.home, 5_000);
      await fake.close();
      await anth.close();
      await codex?.fake.close();
      await qwen?.fake.close();
      sys.cleanup();
      expect(left).toEqual([]);
    },
  };
}

/** Runs the real `claude` (not blocking: the fake API lives in this process); resolves with stdout. */
export function runClaude(args: string[], input: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLAUDE_BIN as string, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`claude exited ${code}: ${err}`))));
    child.stdin.end(input);
  });
}

/** Dumps the runtime's warnings and errors when a case fails (the log is removed with the root). */
export function showLogOnFailure(s: () => System | undefined): void {
  onTestFailed(() => {
    const sys = s();
    if (!sys || !fs.existsSync(sys.logFile)) return;
    const lines = fs
      .readFileSync(sys.logFile, 'utf8')
      .split('\n')
      .filter((l) => /"level":"(warn|error)"/.test(l));
    console.error(`--- cc-linker log (warn/error) ---\n${lines.slice(-40).join('\n')}`);
  });
}

/** The prompt card (one with buttons) among the replies to `messageId`. */
export function promptCard(fake: FakeFeishu, messageId: string): SentMessage | undefined {
  return repliesTo(fake, messageId).find((m) => m.msg_type === 'interactive' && buttonsOf(m).length > 0);
}

/** Clicks the button labelled `label` on `card` as `openId`; resolves with the callback's toast. */
export async function click(
  fake: FakeFeishu,
  card: SentMessage,
  label: string,
  openId = OWNER,
): Promise<{ type: string; content: string }> {
  const button = buttonsOf(card).find((b) => b.label === label);
  if (!button)
    throw new Error(`no button '${label}' on the card: ${JSON.stringify(buttonsOf(card).map((b) => b.label))}`);
  const { ack } = await fake.pushEvent(cardActionEvent({ openId, value: button.value, messageId: card.message_id }));
  expect(ack.code).toBe(200);
  return (ack.data as { toast: { type: string; content: string } }).toast;
}

/** Session ids Claude Code wrote under `<home>/.claude/projects/<encoded cwd>/`. */
export function sessionFiles(sys: SystemRoot, cwd: string): string[] {
  const dir = path.join(sys.paths.claudeProjectsDir, encodeProjectDir(cwd));
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => f.slice(0, -'.jsonl'.length))
    : [];
}

/** A life of the system in a child process (fixtures/system-feishu-child.ts). */
export interface ChildLife {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

/** Spawns fixtures/system-feishu-child.ts on `specFile`; `ready` resolves on its `READY` line. */
export function startChild(specFile: string, sys: SystemRoot): ChildLife {
  // The node process gets the sandbox HOME too: nothing can reach the real ~/.claude or ~/.cc-linker.
  const env: NodeJS.ProcessEnv = { ...process.env, ...sys.env };
  delete env.CLAUDE_CONFIG_DIR;
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, specFile], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) resolve();
    });
    void exited.then(({ code, signal }) => reject(new Error(`child exited (${code ?? signal}) before READY: ${err}`)));
  });
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return { child, ready, exited, stderr: () => err };
}
