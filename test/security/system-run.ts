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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeFeishuServer, type FakeFeishu } from '../fakes/fake-feishu/fake-feishu-server.js';
import {
  startFakeAnthropicMessagesServer,
  type FakeAnthropicMessagesServer,
} from '../fakes/fake-llm/fake-anthropic-messages-server.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../fakes/fake-llm/fake-openai-server.js';
import { SAMPLE_DATA } from '../fakes/fake-chainlesschain/fake-cli.js';
import { createRng, writeSession } from '../fixtures/claude-tree.js';
import { plantSecrets, secretEnv, type PlantedSecrets } from './secrets.js';
import { feishuFlows, webFlows, type RunContext } from './system-run-flows.js';
import {
  APP_ID,
  configToml,
  MAIN,
  OWNER,
  REPO,
  runCli,
  sleep,
  TERMINAL_SESSION,
  waitFor,
  writeClaudeWrapper,
  type Capture,
  type CliResult,
} from './system-run-parts.js';

export {
  APP_ID,
  OWNER,
  REPO,
  runCli,
  STRANGER,
  TERMINAL_SESSION,
  type Capture,
  type CliResult,
} from './system-run-parts.js';

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
