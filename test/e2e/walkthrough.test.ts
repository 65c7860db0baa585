/**
 * A new user's walk-through, driving the BUILT binary (`dist/cli/launcher/cc-linker.js`, the package's `bin`)
 * as a user would, on a clean HOME: no `CC_LINKER_HOME` / `CLAUDE_CONFIG_DIR` (so `~/.cc-linker`
 * and `~/.claude` are the defaults under that HOME) and no `claude` on PATH (so the Agent SDK's
 * bundled binary is the one used).
 *
 *   1. `npm start` (= `cc-linker start`) with nothing configured: the local console alone; its URL logs in; Ctrl+C.
 *   2. `cc-linker doctor`.
 *   3. `cc-linker setup --app-id … --app-secret … --yes`, checked against the fake Feishu server.
 *   4. `cc-linker start` again: the Feishu bot connects; one conversation as the owner (`/new <dir> -- …`,
 *      `/list`, `/whoami`) — the real Claude Code binary in sdk mode against the fake Anthropic API.
 *   5. `cc-linker stop` from another process; the owner lock is released (`sync` works); `list` shows the session.
 *
 * Every line a user sees on the way is checked: what it says, in Chinese (the default), and never
 * a stack trace, `undefined`, `[object Object]`, an unfilled `{placeholder}` or a secret.
 * The steps share one HOME and run in order; a failing step makes the later ones meaningless.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { resolvePaths, type Paths } from '../../src/core/paths.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { claudeTestEnv } from '../fakes/fake-anthropic/claude-env.js';
import {
  DEFAULT_APP_ID,
  newFeishuId,
  startFakeFeishuServer,
  textMessageEvent,
  type FakeFeishu,
} from '../fakes/fake-feishu/fake-feishu-server.js';
import { CLAUDE_BIN, replyFinished, replyTemplate, repliesTo, streamedReply } from './system-harness.js';
import {
  expectClean,
  freePort,
  httpGet,
  lines,
  pathWithoutClaude,
  HAS_PROC,
  MAIN,
  processesOfThisHome,
  readRegistrySessions,
  REPO,
  runNode,
  SECRET,
  startNode,
  wrongModes,
  type Run,
  type Started,
} from './walkthrough-rig.js';

const OWNER = 'ou_walk';
const APP_ID = DEFAULT_APP_ID; // cli_0123456789abcdef
const STEP_TIMEOUT_MS = 60_000;

let root: string;
let home: string;
let projects: string;
let project: string;
let env: NodeJS.ProcessEnv;
let paths: Paths;
let feishu: FakeFeishu;
let anthropic: FakeAnthropic;
const started: ChildProcess[] = [];
let bridge: Started | undefined; // started in step 4, stopped in step 5
/** Every text a user saw, checked once more at the end for secrets. */
const seen: string[] = [];

/** `cc-linker <args…>` from the user's home directory; every line it printed is remembered. */
async function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}, timeoutMs = 40_000): Promise<Run> {
  const run = await runNode(MAIN, args, { cwd: home, env: { ...env, ...extraEnv }, timeoutMs });
  seen.push(run.stdout, run.stderr);
  return run;
}

/** `cc-linker start` on web port `port`, once it says it runs; stopped at the end if a step fails. */
function startBridge(port: number): Promise<Started> {
  const startEnv = { ...env, CC_LINKER_WEB_PORT: String(port) };
  return startNode(MAIN, { cwd: home, env: startEnv, onSpawn: (child) => started.push(child) });
}

/** Sends `text` to the bot as the owner (private chat); resolves with the message id once the bot answered it. */
async function say(text: string, timeoutMs = 20_000): Promise<string> {
  const messageId = newFeishuId('om_');
  const { ack } = await feishu.pushEvent(textMessageEvent({ openId: OWNER, text, messageId }));
  expect(ack.code).toBe(200);
  await feishu.waitFor(() => repliesTo(feishu, messageId).length > 0, timeoutMs);
  return messageId;
}

/** What the owner reads in the bot's (only) reply to `messageId`. */
function replyText(messageId: string): string {
  const replies = repliesTo(feishu, messageId);
  expect(replies, `replies to ${messageId}`).toHaveLength(1);
  const text = feishu.textOf(replies[0] as NonNullable<(typeof replies)[0]>);
  seen.push(text);
  expectClean(`reply to ${messageId}`, text);
  return text;
}

const registrySessions = () => readRegistrySessions(paths.registryFile);

describe.skipIf(!CLAUDE_BIN || !HAS_PROC)(
  'a new user: npm start, doctor, setup, start with Feishu, one conversation, stop',
  () => {
    beforeAll(async () => {
      if (!fs.existsSync(MAIN)) {
        // `npm test` builds first; a bare `vitest run` of this file builds here.
        await new Promise<void>((resolve, reject) => {
          const b = spawn('npm', ['run', 'build'], { cwd: REPO, stdio: 'ignore' });
          b.once('error', reject);
          b.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm run build exited ${code}`))));
        });
      }
      root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-walk-')));
      home = path.join(root, 'home');
      projects = path.join(root, 'projects');
      project = path.join(projects, 'walk-demo');
      fs.mkdirSync(home, { mode: 0o755 });
      fs.mkdirSync(project, { recursive: true });
      [feishu, anthropic] = await Promise.all([
        startFakeFeishuServer({ appId: APP_ID, appSecret: SECRET }),
        startFakeAnthropic(),
      ]);
      env = { ...claudeTestEnv({ home, baseUrl: anthropic.url }), PATH: pathWithoutClaude(process.env.PATH) };
      paths = resolvePaths(env);
    }, 180_000);

    afterAll(async () => {
      for (const c of started)
        if (c.exitCode === null && c.signalCode === null && c.pid) process.kill(c.pid, 'SIGKILL');
      await Promise.all([feishu?.close(), anthropic?.close()]);
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });

    it('the environment is a clean machine: defaults under HOME, no claude on PATH', () => {
      expect(env.CC_LINKER_HOME).toBeUndefined();
      expect(env.CLAUDE_CONFIG_DIR).toBeUndefined();
      expect(Object.keys(env).filter((k) => k.startsWith('CC_LINKER_'))).toEqual([]);
      expect(paths.home).toBe(path.join(home, '.cc-linker'));
      expect(paths.claudeDir).toBe(path.join(home, '.claude'));
      expect(fs.readdirSync(home)).toEqual([]);
      for (const dir of (env.PATH ?? '').split(path.delimiter))
        expect(fs.existsSync(path.join(dir, 'claude')), dir).toBe(false);
    });

    it(
      '1. npm start: the local console alone, a working login URL, Ctrl+C stops cleanly',
      async () => {
        const port = await freePort();
        const s = await startBridge(port);
        const out = lines(s.stdout());
        expect(out).toHaveLength(6);
        expect(out[0]).toBe('🚀 cc-linker 正在启动…');
        expect(out[1]).toBe(
          'ℹ️  未配置飞书凭据（feishu_bot.app_id / app_secret），也没有启用其他聊天应用：本次只启动本地控制台。运行 cc-linker setup 连接聊天应用。',
        );
        const url = /^✅ 本地控制台：(http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43}))$/.exec(out[2] ?? '');
        expect(url, out[2]).not.toBeNull();
        expect(Number(url?.[2])).toBe(port);
        expect(out.slice(3)).toEqual(['✅ 会话索引已加载：0 个会话', '', '按 Ctrl+C 停止']);
        expect(s.stderr()).toBe('');
        expectClean('start (no Feishu)', s.stdout());

        // The printed URL logs in: a redirect to the clean address with an HttpOnly cookie, then the API answers.
        const token = url?.[3] as string;
        expect((await httpGet(port, '/api/status')).status).toBe(401);
        const login = await httpGet(port, `/?token=${token}`);
        expect(login.status).toBe(303);
        expect(login.headers.location).toBe('/');
        const setCookie = login.headers['set-cookie']?.[0] ?? '';
        expect(setCookie).toMatch(/HttpOnly/);
        expect(setCookie).not.toContain(token);
        const status = await httpGet(port, '/api/status', { Cookie: setCookie.split(';')[0] as string });
        expect(status.status).toBe(200);
        const body = JSON.parse(status.body) as {
          bridge: { pending: number; processing: number; channels: Array<{ id: string; connected: boolean }> };
        };
        expect(body.bridge).toMatchObject({ pending: 0, processing: 0 });
        expect(body.bridge.channels.map((c) => c.id)).not.toContain('feishu');
        expect(body.bridge.channels.find((c) => c.id === 'web')?.connected).toBe(true);

        s.child.kill('SIGINT');
        expect(await s.exited).toEqual({ code: 0, signal: null });
        expect(lines(s.stderr())).toEqual(['⏳ 正在停止（最多等待 30 秒完成进行中的消息）…', '👋 已停止。']);
        seen.push(s.stdout(), s.stderr());

        expect(wrongModes(paths.home)).toEqual([]);
        expect(fs.existsSync(paths.webTokenFile)).toBe(true);
        expect(fs.existsSync(paths.pidFile)).toBe(false);
        expect(processesOfThisHome(home)).toEqual([]);
      },
      STEP_TIMEOUT_MS,
    );

    it(
      '2. cc-linker doctor: every check right for this machine; warnings only, exit 0',
      async () => {
        const r = await cli(['doctor']);
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expectClean('doctor', r.stdout);
        const out = lines(r.stdout);
        expect(out[0]).toBe('cc-linker doctor');
        expect(out[1]).toMatch(/^─+$/);
        const checks = out.slice(2, -2);
        expect(checks).toEqual([
          '✅ 配置: ~/.cc-linker/config.toml 不存在，使用默认值',
          `✅ Node.js: ${process.version}（需要 ≥ 20.19）`,
          expect.stringMatching(
            /^✅ Claude Code: (\S+)（\d+\.\d+\.\d+；PATH 中没有 claude，使用 Agent SDK 自带的版本）$/,
          ),
          // The ACP agents: installed (dev-only, via node_modules/.bin on PATH) or not — never a failure.
          ...['Codex', 'Gemini CLI', 'Qwen Code', 'OpenCode'].map((label) =>
            expect.stringMatching(new RegExp(`^(✅ ${label}: \\S+（.+）|➖ ${label}: 未安装 — npm i -g \\S+)$`)),
          ),
          // Step 1's start made it; without it `list` could not work, and doctor would fail.
          '✅ 会话索引: ~/.cc-linker/registry.json',
          '✅ 目录可写: ~/.cc-linker',
          '✅ 目录可写: ~/.cc-linker/runtime',
          '⚠️  Claude 会话目录不存在: ~/.claude/projects（还没有用过 Claude Code？）',
          '⚠️  飞书凭据: 未配置（不启动飞书通道）',
          '➖ 语音: 没有可用的语音转写服务，语音消息会收到如何配置的说明；请设置 [voice] api_key（或 CC_LINKER_VOICE_API_KEY，OpenAI 兼容接口）或配置飞书应用',
          '⚠️  Claude Code SessionStart hook: 未安装（可选：运行 cc-linker hook install 后，Claude Code 每次新开会话都会通知 cc-linker）',
          '➖ AI 对话: 没有配置模型服务（可选；见 README 中 [ccexec.providers.<名字>] 的示例）',
          // No model configured: the ChainlessChain CLI only warns, installed on this machine or not.
          expect.stringMatching(
            /^(✅ ChainlessChain CLI: .+|⚠️ {2}找不到 ChainlessChain CLI（chainlesschain）.+（只有 AI 对话需要它，而当前没有配置模型服务）)$/,
          ),
        ]);
        const shownBin = /^✅ Claude Code: (\S+)（/.exec(checks[2] ?? '')?.[1] as string;
        expect(fs.realpathSync(shownBin)).toBe(fs.realpathSync(CLAUDE_BIN as string));
        expect(out.slice(-2)).toEqual(['', '全部检查通过']);
      },
      STEP_TIMEOUT_MS,
    );

    it(
      '3. cc-linker setup, answered by flags: credentials checked with Feishu, config written, the secret never shown',
      async () => {
        const r = await cli([
          'setup',
          '--app-id',
          APP_ID,
          '--app-secret',
          SECRET,
          '--domain',
          feishu.baseUrl,
          '--owner',
          OWNER,
          '--default-cwd',
          project,
          '--allowed-root',
          projects,
          '--yes',
        ]);
        expect(r.code).toBe(0);
        const host = new URL(feishu.baseUrl).host;
        expect(lines(r.stderr)).toEqual([`正在向 ${host} 验证凭据…`, '✅ 凭据有效（飞书已签发 tenant_access_token）']);
        expect(lines(r.stdout)).toEqual([
          '✅ 已写入 ~/.cc-linker/config.toml',
          '下一步：运行 cc-linker start，然后在飞书里给机器人发消息。',
          '开发者后台的配置（权限、长连接事件、卡片回调、发布）见 docs/feishu-setup.md。',
        ]);
        expect(fs.existsSync(path.join(REPO, 'docs', 'feishu-setup.md'))).toBe(true);
        expectClean('setup stdout', r.stdout);
        expectClean('setup stderr', r.stderr);
        expect(feishu.tokenRequests.filter((t) => t.app_id === APP_ID && t.ok)).toHaveLength(1);

        const { config, warnings } = await loadConfig({ paths, env });
        expect(warnings).toEqual([]);
        expect(config.general.language).toBe('zh');
        expect(config.feishu_bot).toMatchObject({
          app_id: APP_ID,
          app_secret: SECRET,
          domain: feishu.baseUrl,
          owner_open_id: OWNER,
          default_cwd: project,
          allow_auto_bind_owner: false,
        });
        expect(config.security.allowed_roots).toEqual([projects]);
        expect(fs.statSync(paths.configFile).mode & 0o777).toBe(0o600);
      },
      STEP_TIMEOUT_MS,
    );

    it('4. cc-linker start connects to Feishu; the owner starts a session, lists it and asks who they are', async () => {
      const port = await freePort();
      const s = await startBridge(port);
      const out = lines(s.stdout());
      expect(out).toEqual([
        '🚀 cc-linker 正在启动…',
        '✅ 飞书机器人已通过长连接接入',
        expect.stringMatching(new RegExp(`^✅ 本地控制台：http://127\\.0\\.0\\.1:${port}/\\?token=[A-Za-z0-9_-]{43}$`)),
        '✅ 会话索引已加载：0 个会话',
        '',
        '按 Ctrl+C 停止',
      ]);
      expectClean('start (Feishu)', s.stdout());
      await feishu.waitForConnection(10_000);
      // The leftover-process check sees a running bridge (so its later "none" means something).
      expect(processesOfThisHome(home).some((p) => p.startsWith(`${s.child.pid}:`))).toBe(true);

      // /new <dir> -- <prompt>: a new Claude Code session (the real binary, sdk mode) answers in one streamed card.
      const first = await say(`/new ${project} -- echo: hello walkthrough`, 40_000);
      await feishu.waitFor(() => replyFinished(feishu, first), 40_000);
      expect(replyTemplate(feishu, first)).toBe('green');
      expect(streamedReply(feishu, first)).toBeDefined();
      const answer = replyText(first);
      expect(answer).toMatch(/^✅ Claude\nhello walkthrough\n/);
      expect(answer).toMatch(/🔄 1 轮/);
      expect(anthropic.messageRequests().map((q) => q.scriptRequest?.lastUserText)).toContain(
        'echo: hello walkthrough',
      );

      const sessions = registrySessions();
      const ids = Object.keys(sessions);
      expect(ids).toHaveLength(1);
      const sid = ids[0] as string;
      expect(sessions[sid]).toMatchObject({ origin: 'feishu', cwd: project });

      // /list: the new session, numbered, current, with its title and short id.
      const list = replyText(await say('/list'));
      expect(list).toContain('📋 我的会话（共 1 个）');
      expect(list).toContain('1. echo: hello walkthrough（当前）');
      expect(list).toContain(`ID: ${sid.slice(0, 8)}`);
      expect(list).toMatch(/飞书 .* 刚刚 .* walk-demo/);

      // /whoami: the owner's own open_id.
      expect(replyText(await say('/whoami'))).toBe(`你的 open_id：${OWNER}`);

      // Nothing else reached the owner, and the running bridge printed nothing more.
      expect(feishu.messagesTo(OWNER)).toHaveLength(3);
      expect(s.stderr()).toBe('');

      // While it runs, `sync` is done by the daemon (its request socket) and prints the same as standalone.
      const synced = await cli(['sync']);
      expect(synced.code, synced.stderr).toBe(0);
      expect(synced.stdout).toContain('✅ 同步完成'); // general.language (zh) decides the CLI's language
      // `init` (a full rescan) still refuses clearly while the owner lock is held.
      const refused = await cli(['init']);
      expect(refused.code).toBe(75);
      expect(refused.stdout).toBe('');
      expect(lines(refused.stderr)).toEqual([
        `✖ 无法执行 cc-linker init：cc-linker start 正在运行（pid ${s.child.pid}），请先停止它（cc-linker stop）后再执行`,
      ]);

      bridge = s;
    }, 90_000);

    it(
      '5. cc-linker stop from another process: a clean exit, the owner lock released (sync works), list shows the session',
      async () => {
        const s = bridge as Started;
        expect(s).toBeDefined();
        const stop = await cli(['stop']);
        expect(stop.code).toBe(0);
        expect(lines(stop.stderr)).toEqual([`⏳ 已向 pid ${s.child.pid} 发送停止信号…`]);
        expect(lines(stop.stdout)).toEqual(['👋 已停止。']);
        expect(await s.exited).toEqual({ code: 0, signal: null });
        expect(lines(s.stderr())).toEqual(['⏳ 正在停止（最多等待 30 秒完成进行中的消息）…', '👋 已停止。']);
        seen.push(s.stdout(), s.stderr());
        expect(fs.existsSync(paths.pidFile)).toBe(false);
        expect(processesOfThisHome(home)).toEqual([]);

        const sync = await cli(['sync']);
        expect(sync.code).toBe(0);
        expect(sync.stderr).toBe('');
        expect(lines(sync.stdout)).toEqual([
          '🔄 正在同步会话…',
          '   从 JSONL 文件中找到 1 个 Claude 会话',
          '   恢复了 1 条飞书来源信息',
          '✅ 同步完成，共登记 1 个会话',
        ]);

        const list = await cli(['list']);
        expect(list.code).toBe(0);
        expect(list.stderr).toBe('');
        expectClean('list', list.stdout);
        const sid = Object.keys(registrySessions())[0] as string;
        expect(lines(list.stdout)).toEqual([
          '📋 我的会话（共 1 个）',
          '',
          '1. echo: hello walkthrough',
          `   ID: ${sid.slice(0, 8)}`,
          expect.stringMatching(/^ {3}飞书 \| \d+条 \| 刚刚 \| walk-demo$/),
        ]);

        // Nothing a user saw, and nothing cc-linker logged, holds the app secret; all state is private.
        for (const text of seen) expect(text).not.toContain(SECRET);
        expect(fs.readFileSync(paths.defaultLogFile, 'utf8')).not.toContain(SECRET);
        expect(wrongModes(paths.home)).toEqual([]);
        expect(processesOfThisHome(home)).toEqual([]);
      },
      STEP_TIMEOUT_MS,
    );
  },
);
