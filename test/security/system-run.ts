/**
 * One realistic run of the assembled system for the security tests, with distinctive secrets
 * planted in config.toml AND the environment (see secrets.ts):
 *
 *   cc-linker init → config.toml written (0600) → `cc-linker start` as a real child process
 *   (tsx over src/), connected to the in-repo fake Feishu server with injected faults, the engine in
 *   stream-json mode running the fake `claude` (wrapped to dump its environment), the cc_exec
 *   gateway running the fake ChainlessChain CLI (FAKE_CC_DUMP_ENV) against the scripted fake OpenAI
 *   and Anthropic servers → Feishu conversation, a stranger, `/cc`, Claude failing with a key on
 *   stderr, provider 401s that echo keys, web chats with tool calls, bridge messages and `/new`
 *   from the console, every GET route of the console → SIGTERM → doctor / status / list / show
 *   (and setup when the program registers it).
 *
 * Everything a user, a log reader or a child process could see is collected in `captures`, so the
 * tests can grep it; nothing here asserts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeFeishuServer, textMessageEvent, type FakeFeishu } from '../fakes/fake-feishu/fake-feishu-server.js';
import {
  anthropicHttpError,
  startFakeAnthropicMessagesServer,
  type FakeAnthropicMessagesServer,
} from '../fakes/fake-llm/fake-anthropic-messages-server.js';
import {
  openaiHttpError,
  openaiTextTurn,
  openaiToolCallTurn,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from '../fakes/fake-llm/fake-openai-server.js';
import { FAKE_CLI_SCRIPT, SAMPLE_DATA } from '../fakes/fake-chainlesschain/fake-cli.js';
import { FAKE_CLAUDE } from '../fakes/fake-claude-cli/engine-fixture.js';
import { createRng, writeSession } from '../fixtures/claude-tree.js';
import { plantSecrets, secretEnv, type PlantedSecrets } from './secrets.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = path.join(REPO, 'src', 'cli', 'launcher', 'cc-linker.ts');
export const OWNER = 'ou_0wner0000000000000000000000000a';
export const STRANGER = 'ou_str4nger000000000000000000000b';
export const APP_ID = 'cli_5ec0de5ec0de5ec0';
/** A terminal session the registry knows (so list/show/status have something to print). */
export const TERMINAL_SESSION = '5e5510f1-0000-4000-8000-00000000c0de';

/** One thing someone could read: a process's stdout, a page, a message, an error text. */
export interface Capture {
  label: string;
  text: string;
}

/** A finished CLI run. */
export interface CliResult {
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface SystemRun {
  root: string;
  /** `$HOME` of the run. */
  home: string;
  /** `~/.cc-linker` of the run. */
  ccHome: string;
  secrets: PlantedSecrets;
  /** Everything captured (stdout/stderr of every process, web bodies, what Feishu users saw). */
  captures: Capture[];
  /** `cc-linker start`'s own stdout (checked separately: it prints the console URL once). */
  startStdout: string;
  startStderr: string;
  startExit: number | null;
  cli: CliResult[];
  /** The environment of every Claude Code child the engine started (dumped by the wrapper). */
  claudeEnvs: Array<{ argv: string[]; env: Record<string, string> }>;
  /** The environment the fake ChainlessChain CLI saw on its last run. */
  cliEnv: Record<string, string> | null;
  feishu: FakeFeishu;
  openai: FakeOpenAIServer;
  anthropic: FakeAnthropicMessagesServer;
  /** Whether `setup` was registered and run. */
  setupRan: boolean;
  /** Progress notes (which flows completed), to explain a failure. */
  notes: string[];
  cleanup(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, pred: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await pred()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Runs `cc-linker <args>` (tsx over src/) to completion, asynchronously so in-process fakes keep serving. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ args, code, stdout, stderr });
    });
  });
}

/**
 * A `claude` that writes its whole environment to `$CLAUDE_CONFIG_DIR/env-dumps/<pid>.json`, then is
 * the fake claude, its stdin passed through. In stream-json mode stdin stays open between turns (one
 * JSON user line each), so the prompts are looked at line by line.
 */
function writeClaudeWrapper(file: string): void {
  const script = `#!/usr/bin/env node
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
const dir = path.join(process.env.CLAUDE_CONFIG_DIR ?? '/nonexistent-claude-dir', 'env-dumps');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, process.pid + '.json'), JSON.stringify({ argv: process.argv.slice(2), env: process.env }));
let child;
const fake = () => {
  if (child) return child;
  child = spawn(process.execPath, [${JSON.stringify(FAKE_CLAUDE)}, ...process.argv.slice(2)], { stdio: ['pipe', 'inherit', 'inherit'] });
  child.stdin.on('error', () => undefined);
  child.on('exit', (code) => process.exit(code ?? 1));
  return child;
};
// "leak": Claude Code failing with the API key in its error output (what a rejected key looks like).
const leaks = (prompt) => String(prompt).trim().startsWith('leak');
const leak = () => {
  process.stderr.write('Invalid API key · ' + (process.env.ANTHROPIC_API_KEY ?? '') + '\\n');
  child?.kill('SIGKILL');
  process.exit(1);
};
if (process.argv.includes('--input-format')) {
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    let prompt = '';
    try {
      prompt = JSON.parse(line).message?.content ?? '';
    } catch {}
    if (leaks(prompt)) leak();
    else fake().stdin.write(line + '\\n');
  });
  lines.on('close', () => (child ? child.stdin.end() : process.exit(0)));
} else {
  let input = '';
  process.stdin.on('data', (chunk) => (input += chunk.toString('utf8')));
  process.stdin.on('end', () => (leaks(input) ? leak() : fake().stdin.end(input)));
}
`;
  fs.writeFileSync(file, script, { mode: 0o755 });
}

function configToml(o: {
  secrets: PlantedSecrets;
  home: string;
  claudeBin: string;
  feishu: FakeFeishu;
  openai: FakeOpenAIServer;
  anthropic: FakeAnthropicMessagesServer;
  dataHome: string;
}): string {
  const q = (v: string) => JSON.stringify(v);
  return [
    '[general]',
    'log_level = "debug"',
    `claude_bin = ${q(o.claudeBin)}`,
    '',
    '[claude]',
    'mode = "stream-json"',
    '',
    '[feishu_bot]',
    `app_id = ${q(APP_ID)}`,
    `app_secret = ${q(o.secrets.feishuSecretInFile)}`,
    `owner_open_id = ${q(OWNER)}`,
    `domain = ${q(o.feishu.baseUrl)}`,
    `default_cwd = ${q(path.join(o.home, 'Git', 'alpha'))}`,
    '',
    '[security]',
    `allowed_roots = [${q(path.join(o.home, 'Git'))}]`,
    'denied_roots = ["~", "/"]',
    '',
    '[cli_proxy]',
    `token = ${q(o.secrets.cliProxyToken)}`,
    '',
    '[web]',
    `token = ${q(o.secrets.webToken)}`,
    '',
    '[ccexec]',
    `cli = [${q(process.execPath)}, ${q(FAKE_CLI_SCRIPT)}]`,
    `cwd = ${q(o.dataHome)}`,
    'default_provider = "openai"',
    'env_allow = ["FAKE_CC_DUMP_ENV", "XDG_CONFIG_HOME"]',
    '',
    '[ccexec.providers.openai]',
    'kind = "openai"',
    `base_url = ${q(o.openai.baseURL)}`,
    'api_key_env = "OPENAI_API_KEY"',
    'model = "gpt-4o-mini"',
    '',
    '[ccexec.providers.doubao]',
    'kind = "doubao"',
    `base_url = ${q(o.openai.baseURL)}`,
    'api_key_env = "ARK_API_KEY"',
    'model = "ep-20250101-fake"',
    '',
    '[ccexec.providers.anthropic]',
    'kind = "anthropic"',
    `base_url = ${q(o.anthropic.baseURL)}`,
    'api_key_env = "ANTHROPIC_API_KEY"',
    'model = "claude-sonnet-4-5"',
    '',
    '[ccexec.providers.acme]',
    'kind = "openai-compatible"',
    `base_url = ${q(o.openai.baseURL)}`,
    'api_key_env = "ACME_LLM_KEY"',
    'model = "acme-1"',
    'tools = true',
    '',
  ].join('\n');
}

/** What the phases of a run share. */
interface RunContext {
  secrets: PlantedSecrets;
  home: string;
  env: NodeJS.ProcessEnv;
  feishu: FakeFeishu;
  openai: FakeOpenAIServer;
  anthropic: FakeAnthropicMessagesServer;
  captures: Capture[];
  notes: string[];
}

/** The console as a signed-in script uses it (Bearer token); every answer is captured. */
function consoleClient(ctx: RunContext, base: string) {
  const auth = { Authorization: `Bearer ${ctx.secrets.webToken}` };
  const call = async (url: string, init: RequestInit = {}) => {
    const r = await fetch(`${base}${url}`, {
      ...init,
      headers: { ...auth, ...(init.headers as Record<string, string> | undefined) },
    });
    const text = await r.text();
    ctx.captures.push({
      label: `web ${init.method ?? 'GET'} ${url} (${r.status})`,
      text: `${[...r.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${text}`,
    });
    return { status: r.status, text };
  };
  const post = (url: string, body: unknown) =>
    call(url, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  const read = async (url: string) => (await fetch(`${base}${url}`, { headers: auth })).text();
  return { auth, call, post, read };
}

/** Feishu: a conversation, a stranger, faults that echo secrets, Claude failing with its key on stderr, `/cc`. */
async function feishuFlows(ctx: RunContext): Promise<void> {
  const { feishu, openai, secrets, notes } = ctx;
  const texts = (openId: string) => feishu.messagesTo(openId).map((m) => feishu.textOf(m));
  // A final answer (not a streaming snapshot) carries the footer.
  const answered = (text: string) => () => texts(OWNER).some((t) => t.includes(text) && /轮|openai · /.test(t));

  await feishu.pushEvent(
    textMessageEvent({ openId: OWNER, text: `/new ${path.join(ctx.home, 'Git', 'alpha')} -- 你好 hello` }),
  );
  await waitFor('the first answer', answered('echo: 你好 hello'));
  notes.push('feishu conversation');

  await feishu.pushEvent(textMessageEvent({ openId: STRANGER, text: `/new ${ctx.home}` }));
  await waitFor('the refusal', () => texts(STRANGER).length > 0);
  notes.push('stranger refused');

  const hostile = `internal error near ${secrets.feishuSecret} / ${secrets.webToken} / ${secrets.openaiKey}`;
  const im = { method: 'POST', pathPrefix: '/open-apis/im/v1/messages' };
  feishu.failNext(im, { status: 500, code: 1500, msg: hostile });
  feishu.failNext(im, { status: 429, code: 99991400, msg: hostile });
  feishu.failNext(im, { resetConnection: true });
  feishu.failNext(im, { status: 400, code: 99991663, msg: `token invalid ${secrets.feishuSecret}` });
  feishu.failNext(
    { pathPrefix: '/open-apis/auth/v3' },
    { status: 400, code: 10014, msg: `app secret invalid: ${secrets.feishuSecret}` },
  );
  feishu.failNext({ pathPrefix: '/open-apis/cardkit' }, { status: 500, code: 1500, msg: hostile, times: 2 });
  await feishu.pushEvent(textMessageEvent({ openId: OWNER, text: '第二条 second' }));
  await waitFor('the answer despite faults', answered('echo: 第二条 second'), 45_000);
  notes.push('feishu faults');

  await feishu.pushEvent(textMessageEvent({ openId: OWNER, text: 'leak the key please' }));
  await waitFor(
    'the error card of the failing Claude run',
    () => texts(OWNER).some((t) => t.includes('Invalid API key')),
    30_000,
  );
  notes.push('claude failure');

  openai.enqueue(
    openaiToolCallTurn({
      id: 'call_cc1',
      name: 'cc_exec',
      argPieces: ['{"command":"note",', '"subargs":["list","--limit","5"]}'],
    }),
    openaiTextTurn('你有 3 条笔记。'),
  );
  await feishu.pushEvent(textMessageEvent({ openId: OWNER, text: '/cc 列一下最近的笔记' }));
  await waitFor('the /cc card', answered('你有 3 条笔记'), 30_000);
  notes.push('feishu /cc');
}

/** The console: provider errors that echo keys, a chat with tool calls, bridge messages and /new, every GET route. */
async function webFlows(ctx: RunContext, base: string): Promise<void> {
  const { openai, anthropic, secrets, notes, captures } = ctx;
  const web = consoleClient(ctx, base);
  const chatDone = async (id: string) => {
    let view = '';
    await waitFor(
      `web chat ${id} to end`,
      async () => {
        view = await web.read(`/api/chats/${id}`);
        return (JSON.parse(view) as { running: boolean }).running === false && view.includes('"kind":"end"');
      },
      30_000,
    );
    captures.push({ label: `web chat ${id}`, text: view });
    return view;
  };

  // Provider 401/403s that echo the key (as OpenAI does), for every provider family.
  openai.enqueue(
    openaiHttpError(
      401,
      `Incorrect API key provided: ${secrets.openaiKey}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      'invalid_api_key',
    ),
  );
  openai.enqueue(
    openaiHttpError(401, `The API key ${secrets.arkKey} is invalid for region cn-beijing`, 'AuthenticationError'),
  );
  openai.enqueue(openaiHttpError(403, `key ${secrets.acmeKey} forbidden`, 'forbidden'));
  anthropic.enqueue(anthropicHttpError(401, 'authentication_error', `invalid x-api-key ${secrets.anthropicKey}`));
  for (const provider of ['openai', 'doubao', 'acme', 'anthropic']) {
    const { id } = JSON.parse((await web.post('/api/chats', { provider })).text) as { id: string };
    await web.post(`/api/chats/${id}/send`, { text: `hello ${provider}` });
    await chatDone(id);
  }
  notes.push('provider 401s');

  // A chat with tool calls (one allowed, one denied), then a 5xx that echoes keys.
  openai.enqueue(
    openaiToolCallTurn({ id: 'call_w1', name: 'cc_exec', argPieces: ['{"command":"note","subargs":["list"]}'] }),
    openaiToolCallTurn({
      id: 'call_w2',
      name: 'cc_exec',
      argPieces: ['{"command":"note","subargs":["delete","--all"]}'],
    }),
    openaiTextTurn('done'),
    openaiHttpError(500, `upstream failed for key ${secrets.openaiKey} and ${secrets.acmeKey}`, 'server_error'),
  );
  const chat = JSON.parse((await web.post('/api/chats', { provider: 'openai' })).text) as { id: string };
  await web.post(`/api/chats/${chat.id}/send`, { text: '列一下笔记' });
  const view = await chatDone(chat.id);
  for (const toolId of [...view.matchAll(/"kind":"tool","id":"([\w-]+)"/g)].map((x) => x[1] as string))
    await web.call(`/api/chats/${chat.id}/tools/${toolId}`);
  await web.post(`/api/chats/${chat.id}/send`, { text: 'again' });
  await chatDone(chat.id);
  notes.push('web chat with tools');

  // The bridge from the console: /new with a directory and a prompt, then a message to that session.
  type View = { kind: string; streaming: boolean; html?: string };
  const consoleSays = async (what: string) => {
    const final = (m: View) =>
      m.kind === 'reply' && !m.streaming && (m.html ?? '').includes(what) && (m.html ?? '').includes('card-footer');
    try {
      await waitFor(
        what,
        async () => (JSON.parse(await web.read('/api/bridge/messages')) as { messages: View[] }).messages.some(final),
        30_000,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}; the console shows: ${await web.read('/api/bridge/messages')}`);
    }
  };
  await web.post('/api/sessions/new', {
    id: randomUUID(),
    dir: path.join(ctx.home, 'Git', 'beta'),
    prompt: 'start here',
  });
  await consoleSays('echo: start here');
  await web.post('/api/bridge/messages', { id: randomUUID(), text: 'hello from the console' });
  await consoleSays('echo: hello from the console');
  notes.push('console bridge');

  // Every GET route and page, the event stream, and what a visitor without the token sees.
  const uiFiles = fs
    .readdirSync(path.join(REPO, 'src', 'channels', 'web', 'ui'))
    .filter((f) => !f.endsWith('.test.js'));
  const pages = [
    '/',
    '/index.html',
    ...uiFiles.map((f) => `/assets/${f}`),
    '/api/status',
    '/api/chat/providers',
    '/api/chat/availability',
    '/api/chat/availability?provider=anthropic',
    '/api/chats',
    '/api/audit?limit=500',
    '/api/sessions',
    `/api/sessions/${TERMINAL_SESSION}`,
    '/api/dirs',
    `/api/dirs?path=${encodeURIComponent(path.join(ctx.home, 'Git'))}`,
    '/api/bridge/messages',
    '/api/nope',
  ];
  for (const url of pages) await web.call(url);
  const events = new AbortController();
  const sse = await fetch(`${base}/api/events`, { headers: web.auth, signal: events.signal });
  const reader = sse.body?.getReader();
  const first = reader ? await Promise.race([reader.read(), sleep(4000).then(() => null)]) : null;
  captures.push({ label: 'web GET /api/events', text: first?.value ? Buffer.from(first.value).toString('utf8') : '' });
  events.abort();
  for (const url of ['/', '/api/status']) {
    const r = await fetch(`${base}${url}`, { headers: { Accept: 'text/html' } });
    captures.push({ label: `web GET ${url} without token`, text: await r.text() });
  }
  notes.push('web pages');
}

/** Builds the run's directories, fakes and config; then drives every flow. Call `cleanup()` after. */
export async function runSystem(): Promise<SystemRun> {
  const secrets = plantSecrets();
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sec-')));
  const home = path.join(root, 'home');
  const ccHome = path.join(home, '.cc-linker');
  const claudeDir = path.join(home, '.claude');
  const dataHome = path.join(root, 'cc-data');
  for (const d of ['Git/alpha', 'Git/beta']) fs.mkdirSync(path.join(home, d), { recursive: true });
  fs.mkdirSync(path.join(dataHome, '.config', 'chainlesschain'), { recursive: true });
  fs.writeFileSync(path.join(dataHome, '.config', 'chainlesschain', 'fake-data.json'), JSON.stringify(SAMPLE_DATA));
  writeSession(
    claudeDir,
    {
      id: TERMINAL_SESSION,
      cwd: path.join(home, 'Git', 'alpha'),
      start: new Date(Date.now() - 3_600_000),
      turns: [{ prompt: 'explain the build', answer: 'It uses **tsc**.' }],
    },
    createRng(7),
  );
  const claudeBin = path.join(root, 'bin', 'claude');
  fs.mkdirSync(path.dirname(claudeBin), { recursive: true });
  writeClaudeWrapper(claudeBin);
  const cliEnvFile = path.join(root, 'cli-env.json');

  const feishu = await startFakeFeishuServer({ appSecret: secrets.feishuSecret });
  const openai = await startFakeOpenAIServer();
  const anthropic = await startFakeAnthropicMessagesServer();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    CC_LINKER_HOME: ccHome,
    CLAUDE_CONFIG_DIR: claudeDir,
    XDG_CONFIG_HOME: path.join(dataHome, '.config'),
    FAKE_CC_DUMP_ENV: cliEnvFile,
    ...secretEnv(secrets),
  };
  const ctx: RunContext = { secrets, home, env, feishu, openai, anthropic, captures: [], notes: [] };
  const { captures, notes } = ctx;

  let child: ChildProcess | undefined;
  let startStdout = '';
  let startStderr = '';
  let startExit: number | null = null;
  const run: SystemRun = {
    root,
    home,
    ccHome,
    secrets,
    captures,
    get startStdout() {
      return startStdout;
    },
    get startStderr() {
      return startStderr;
    },
    get startExit() {
      return startExit;
    },
    cli: [],
    claudeEnvs: [],
    cliEnv: null,
    feishu,
    openai,
    anthropic,
    setupRan: false,
    notes,
    async cleanup() {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await feishu.close();
      await openai.close();
      await anthropic.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  const cli = async (args: string[]) => {
    const r = await runCli(args, env);
    run.cli.push(r);
    captures.push(
      { label: `cc-linker ${args.join(' ')} (stdout)`, text: r.stdout },
      { label: `cc-linker ${args.join(' ')} (stderr)`, text: r.stderr },
    );
    return r;
  };

  try {
    await cli(['init']);
    fs.mkdirSync(ccHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(ccHome, 'config.toml'),
      configToml({ secrets, home, claudeBin, feishu, openai, anthropic, dataHome }),
      { mode: 0o600 },
    );

    const started = spawn(process.execPath, ['--import', 'tsx', MAIN, 'start', '--port', '0'], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    const exited = new Promise<void>((resolve) => started.on('close', (code) => ((startExit = code), resolve())));
    started.stdout.on('data', (d: Buffer) => (startStdout += d.toString()));
    started.stderr.on('data', (d: Buffer) => (startStderr += d.toString()));
    await waitFor(
      'the console URL on stdout',
      () => /http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(startStdout) || startExit !== null,
      60_000,
    );
    const port = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=/.exec(startStdout)?.[1];
    if (!port) throw new Error('cc-linker start did not print the console URL');
    await feishu.waitForConnection(20_000);
    notes.push('started');

    await feishuFlows(ctx);
    await webFlows(ctx, `http://127.0.0.1:${port}`);

    started.kill('SIGTERM');
    await Promise.race([exited, sleep(45_000)]);
    if (startExit === null) started.kill('SIGKILL');
    notes.push(`stopped (${startExit})`);

    for (const args of [
      ['doctor'],
      ['doctor', '--json'],
      ['status'],
      ['status', '--json'],
      ['list'],
      ['list', '--json'],
      ['show', TERMINAL_SESSION.slice(0, 8)],
      ['search', 'build'],
      ['stop'],
    ])
      await cli(args);
    if (/^\s+setup\b/m.test((await runCli(['--help'], env)).stdout)) {
      run.setupRan = true;
      await cli([
        'setup',
        '--yes',
        '--app-id',
        APP_ID,
        '--domain',
        feishu.baseUrl,
        '--owner',
        OWNER,
        '--allowed-root',
        path.join(home, 'Git'),
      ]);
    }
  } catch (err) {
    const log = path.join(ccHome, 'cc-linker.log');
    const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(-40).join('\n') : '(no log)';
    const sent = feishu.sent.map((x) => `${x.to ?? '?'}: ${feishu.textOf(x).slice(0, 200)}`).join('\n');
    await run.cleanup(); // the caller never gets `run`: end the child and remove the temp dirs here
    throw new Error(
      `${(err as Error).message}\nnotes: ${notes.join(', ')}\n--- start stdout\n${startStdout}\n--- start stderr\n${startStderr.slice(-3000)}\n--- log tail\n${tail}\n--- feishu sent\n${sent}`,
    );
  }

  // What the children saw, and what Feishu users saw.
  const dumps = path.join(claudeDir, 'env-dumps');
  if (fs.existsSync(dumps)) {
    for (const f of fs.readdirSync(dumps).filter((f) => f.endsWith('.json')))
      run.claudeEnvs.push(JSON.parse(fs.readFileSync(path.join(dumps, f), 'utf8')) as SystemRun['claudeEnvs'][number]);
  }
  if (fs.existsSync(cliEnvFile))
    run.cliEnv = (JSON.parse(fs.readFileSync(cliEnvFile, 'utf8')) as { env: Record<string, string> }).env;
  for (const msg of feishu.sent)
    captures.push({
      label: `feishu message to ${msg.to ?? msg.chat_id}`,
      text: `${JSON.stringify(msg.content)}\n${feishu.textOf(msg)}`,
    });
  for (const p of feishu.patches)
    captures.push({ label: `feishu patch ${p.message_id}`, text: JSON.stringify(p.content) });
  for (const op of feishu.cardkit)
    captures.push({
      label: `feishu cardkit ${op.op} ${op.card_id}`,
      text: `${op.content ?? ''}\n${JSON.stringify(feishu.cardJson(op.card_id) ?? {})}`,
    });
  for (const a of feishu.acks)
    captures.push({ label: `feishu ack ${a.eventType}`, text: JSON.stringify(a.data ?? null) });
  return run;
}
