/** The pieces of a security run that the flows and the run share: constants, the CLI runner, the fake `claude` wrapper, config.toml. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeFeishu } from '../fakes/fake-feishu/fake-feishu-server.js';
import type { FakeAnthropicMessagesServer } from '../fakes/fake-llm/fake-anthropic-messages-server.js';
import type { FakeOpenAIServer } from '../fakes/fake-llm/fake-openai-server.js';
import { FAKE_CLI_SCRIPT } from '../fakes/fake-chainlesschain/fake-cli.js';
import { FAKE_CLAUDE } from '../fakes/fake-claude-cli/engine-fixture.js';
import type { PlantedSecrets } from './secrets.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const MAIN = path.join(REPO, 'src', 'cli', 'launcher', 'cc-linker.ts');
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(what: string, pred: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
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
export function writeClaudeWrapper(file: string): void {
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

export function configToml(o: {
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
