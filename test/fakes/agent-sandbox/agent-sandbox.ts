import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexAcpBinary, qwenCliScript } from './agent-binaries.js';

/**
 * Throw-away homes for real coding agents pointed at a fake model (`test/fakes/fake-llm/`,
 * `startAgentModelServer`). Each sandbox is a temp root holding `home/` and a working directory;
 * `env` is the whole environment to spawn the agent with (PATH, HOME and the agent's own
 * variables, nothing inherited from the test runner), `command` its argv.
 */

export type AgentKind = 'codex' | 'qwen';

export interface AgentSandbox {
  kind: AgentKind;
  /** Temp root; `cleanup()` removes it. */
  root: string;
  /** The agent's HOME (symlinks resolved). */
  home: string;
  /** A working directory for sessions (symlinks resolved). */
  cwd: string;
  /** The child's complete environment. */
  env: Record<string, string>;
  /** argv: the executable, then its arguments. */
  command: string[];
  /** Where the agent writes its session files (see README.md for the layout inside). */
  sessionsDir: string;
  cleanup(): void;
}

/** What every sandbox builder takes. */
export type SandboxOptions = {
  /** The fake's base URL including `/v1` (`AgentModelServer.baseUrl`). */
  baseUrl: string;
  /** Name of the working directory (spaces, CJK … allowed). */
  cwdName?: string;
};

/** The API key value put in every sandbox env; the fakes accept anything. */
export const FAKE_API_KEY = 'sk-fake-test-key';

const PATH = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';

function makeRoot(kind: AgentKind, cwdName: string): { root: string; home: string; cwd: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `cc-linker-${kind}-`)));
  const home = join(root, 'home');
  const cwd = join(root, cwdName);
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(cwd);
  return { root, home, cwd };
}

function checkBaseUrl(baseUrl: string): void {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`agent sandbox: base URL must be on 127.0.0.1, got ${baseUrl}`);
}

/** The `$CODEX_HOME/config.toml` pointing Codex at the fake (docs in README.md). */
export function codexConfigToml(baseUrl: string): string {
  return [
    'model = "gpt-5.4"',
    'model_provider = "fake"',
    'approval_policy = "untrusted"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.fake]',
    'name = "Fake"',
    `base_url = ${JSON.stringify(baseUrl)}`,
    'env_key = "FAKE_API_KEY"',
    'wire_api = "responses"',
    '',
  ].join('\n');
}

/**
 * Codex through codex-acp (native binary): `$CODEX_HOME=<home>/.codex` with {@link codexConfigToml};
 * sessions in `<home>/.codex/sessions/YYYY/MM/DD/rollout-<time>-<sessionId>.jsonl`.
 */
export function createCodexSandbox(opts: SandboxOptions): AgentSandbox {
  checkBaseUrl(opts.baseUrl);
  const binary = codexAcpBinary();
  if (binary === null) throw new Error('agent sandbox: the codex-acp native binary is not installed');
  const { root, home, cwd } = makeRoot('codex', opts.cwdName ?? 'project');
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { mode: 0o700 });
  writeFileSync(join(codexHome, 'config.toml'), codexConfigToml(opts.baseUrl));
  return {
    kind: 'codex',
    root,
    home,
    cwd,
    env: { PATH, HOME: home, CODEX_HOME: codexHome, FAKE_API_KEY },
    command: [binary],
    sessionsDir: join(codexHome, 'sessions'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The model name Qwen Code is given (`OPENAI_MODEL`). */
export const QWEN_FAKE_MODEL = 'fake-qwen-model';

/**
 * Qwen Code in ACP mode with the ordinary permission flow (`--acp --approval-mode default`), run by
 * this Node: `OPENAI_BASE_URL`/`OPENAI_API_KEY`/`OPENAI_MODEL`, and `<home>/.qwen/settings.json`
 * with usage statistics off (otherwise it looks up a telemetry host). Sessions in
 * `<home>/.qwen/projects/<cwd with "/" as "-">/chats/<sessionId>.jsonl`.
 */
export function createQwenSandbox(opts: SandboxOptions): AgentSandbox {
  checkBaseUrl(opts.baseUrl);
  const cli = qwenCliScript();
  if (cli === null) throw new Error('agent sandbox: @qwen-code/qwen-code is not installed');
  const { root, home, cwd } = makeRoot('qwen', opts.cwdName ?? 'project');
  const qwenDir = join(home, '.qwen');
  mkdirSync(qwenDir, { mode: 0o700 });
  writeFileSync(join(qwenDir, 'settings.json'), JSON.stringify({ privacy: { usageStatisticsEnabled: false } }));
  return {
    kind: 'qwen',
    root,
    home,
    cwd,
    env: {
      PATH,
      HOME: home,
      OPENAI_BASE_URL: opts.baseUrl,
      OPENAI_API_KEY: FAKE_API_KEY,
      OPENAI_MODEL: QWEN_FAKE_MODEL,
    },
    command: [process.execPath, cli, '--acp', '--approval-mode', 'default'],
    sessionsDir: join(qwenDir, 'projects'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The sandbox builder for `kind`. */
export function createAgentSandbox(kind: AgentKind, opts: SandboxOptions): AgentSandbox {
  return kind === 'codex' ? createCodexSandbox(opts) : createQwenSandbox(opts);
}
