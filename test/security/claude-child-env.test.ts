/**
 * Security review: what Claude Code — and every command it runs — gets of the daemon's environment.
 *
 * The REAL Claude Code binary bundled by the Agent SDK, started through `createEngine` as the daemon
 * starts it (each of the three modes), against the in-repo fake Anthropic API, with credentials
 * planted in the environment the engine is built from. Two views of every run:
 *
 * (a) Claude's own environment, `/proc/$CLAUDE_PID/environ`, and the environment of a command it
 *     runs, both dumped by a SessionStart hook (Claude runs hooks with its own environment — so the
 *     hook cc-linker installs sees exactly what Claude sees);
 * (b) what an allowed Bash tool prints: the model calls Bash `env`, and the tool_result the binary
 *     sends back to the fake API is searched for every planted value.
 *
 * And `cc-linker hook install` (run with the same environment) writes nothing secret into the hook
 * command Claude runs: only the relocated `CC_LINKER_HOME` and the script.
 *
 * Cloud credentials reach Claude only when their provider is selected (`CLAUDE_CODE_USE_BEDROCK`,
 * `CLAUDE_CODE_USE_VERTEX`: Claude needs them then); anything else only through `claude.env_allow`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/claude/create-engine.js';
import type { ClaudeMode } from '../../src/claude/create-engine.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { resolvePaths } from '../../src/core/paths.js';
import { CLAUDE_BIN, RUN_TIMEOUT_MS, waitNoLeftovers } from '../e2e/claude-harness.js';
import { createClaudeSandbox, type ClaudeSandbox } from '../fakes/fake-anthropic/claude-sandbox.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { runCli } from './system-run.js';

const hex = () => randomBytes(12).toString('hex');

/** Credentials in the daemon's environment: random values, so only a real leak can match. */
const AWS = {
  AWS_ACCESS_KEY_ID: `AKIAPLANTED${hex().toUpperCase()}`,
  AWS_SECRET_ACCESS_KEY: `awssecret-${hex()}`,
  AWS_SESSION_TOKEN: `awssession-${hex()}`,
};
const GOOGLE = { GOOGLE_APPLICATION_CREDENTIALS: `/secrets/gcp-${hex()}.json` };
const OTHER = {
  GITHUB_TOKEN: `ghtoken-${hex()}`,
  NPM_TOKEN: `npmtoken-${hex()}`,
  DB_PASSWORD: `dbpassword-${hex()}`,
  // cc-linker's own secret, and the key of a configured cc_exec provider.
  CC_LINKER_FEISHU_APP_SECRET: `feishusecret-${hex()}`,
  OPENAI_API_KEY: `openaikey-${hex()}`,
};
const PLANTED: Record<string, string> = { ...AWS, ...GOOGLE, ...OTHER };
/** Harmless settings of the two cloud providers, also planted: they follow their provider too. */
const CLOUD_SETTINGS = { AWS_REGION: 'us-east-1', CLOUD_ML_REGION: 'us-east5', ANTHROPIC_VERTEX_PROJECT_ID: 'proj-1' };

let fake: FakeAnthropic;
let sb: ClaudeSandbox;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = createClaudeSandbox(fake.url);
});
afterAll(async () => {
  if (sb) await waitNoLeftovers(sb.home, 5000);
  sb?.cleanup();
  await fake?.close();
});

/** What one run showed. */
interface Seen {
  /** Claude's own environment (`/proc/<claude pid>/environ`), as `NAME=value` lines. */
  claude: string;
  /** The environment of a command Claude ran (the SessionStart hook's `env`). */
  command: string;
  /** What the Bash tool printed (`env`), from the tool_result Claude sent to the API; '' when none ran. */
  bash: string;
  outcome: 'ok' | 'failed';
}

/** One run of `prompt` through `createEngine` in `mode`, with the planted environment plus `extra`. */
async function run(
  mode: ClaudeMode,
  prompt: string,
  extra: NodeJS.ProcessEnv = {},
  tweak?: (config: Config) => void,
): Promise<Seen> {
  const dumps = fs.mkdtempSync(path.join(sb.home, 'dumps-'));
  const claudeDump = path.join(dumps, 'claude.env');
  const commandDump = path.join(dumps, 'command.env');
  fs.mkdirSync(path.join(sb.home, '.claude'), { recursive: true });
  const hook = `tr '\\0' '\\n' < /proc/$CLAUDE_PID/environ > '${claudeDump}'; env > '${commandDump}'`;
  fs.writeFileSync(
    path.join(sb.home, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hook, timeout: 10 }] }] } }),
  );
  const config = defaultConfig();
  config.claude.mode = mode;
  config.general.claude_bin = CLAUDE_BIN ?? '';
  config.claude.allowed_tools = ['Read', 'Bash(env)'];
  config.runtime.hard_timeout_ms = RUN_TIMEOUT_MS;
  config.ccexec.providers = {
    openai: { kind: 'openai', base_url: '', api_key_env: 'OPENAI_API_KEY', model: 'gpt-4o-mini' },
  };
  tweak?.(config);
  const env = { ...sb.env, ...PLANTED, ...CLOUD_SETTINGS, ...extra };
  const paths = resolvePaths({ ...sb.env, CC_LINKER_HOME: path.join(sb.home, '.cc-linker') });
  const engine = createEngine(config, { paths, logger: silentLogger, lang: 'en', env });
  const before = fake.messageRequests().length;
  const outcome = await engine.send({ prompt, cwd: sb.cwd }).then(
    () => 'ok' as const,
    () => 'failed' as const,
  );
  await engine.close?.(); // the child a warm session keeps
  const bash = fake
    .messageRequests()
    .slice(before)
    .flatMap((r) => r.scriptRequest?.lastUserToolResults ?? [])
    .filter((t) => t.toolName === 'Bash')
    .map((t) => t.content)
    .join('\n');
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  return { claude: read(claudeDump), command: read(commandDump), bash, outcome };
}

/** The planted names whose value appears in `text`. */
const leaked = (text: string, names: readonly string[] = Object.keys(PLANTED)) =>
  names.filter((name) => text.includes(PLANTED[name] as string));
/** The names set in a `NAME=value` listing. */
const namesIn = (text: string) => new Set(text.split('\n').map((l) => l.slice(0, l.indexOf('='))));

describe.skipIf(!CLAUDE_BIN || process.platform !== 'linux')('Claude Code child environment, real claude', () => {
  describe.each(['sdk', 'stream-json', 'json'] as const)('%s mode, no cloud provider selected', (mode) => {
    it(
      'neither Claude, nor a command it runs, nor a Bash tool sees any planted credential or cloud setting',
      { timeout: RUN_TIMEOUT_MS },
      async () => {
        const seen = await run(mode, 'tool: Bash env');
        expect(seen.outcome).toBe('ok');
        // The views are real: Claude's environment has its API settings, the tool printed HOME.
        expect(seen.claude).toContain(`ANTHROPIC_BASE_URL=${fake.url}`);
        expect(seen.command).toContain(`HOME=${sb.home}`);
        expect(seen.bash).toContain(`HOME=${sb.home}`);
        for (const [view, text] of Object.entries({ claude: seen.claude, command: seen.command, bash: seen.bash })) {
          expect(leaked(text), view).toEqual([]);
          const names = namesIn(text);
          expect(
            [...Object.keys(PLANTED), ...Object.keys(CLOUD_SETTINGS)].filter(
              (n) => names.has(n) && n !== 'ANTHROPIC_VERTEX_PROJECT_ID',
            ),
            view,
          ).toEqual([]);
          expect(
            [...names].filter((n) => n.startsWith('CC_LINKER_')),
            view,
          ).toEqual([]);
        }
      },
    );
  });

  it(
    'CLAUDE_CODE_USE_BEDROCK: the AWS credentials reach Claude (it needs them), nothing else does',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      // Claude then talks to Bedrock: pointed at the fake (which has no Bedrock API), the run fails
      // after the session started — the hook has run by then.
      const seen = await run('stream-json', 'echo: hi', {
        CLAUDE_CODE_USE_BEDROCK: '1',
        ANTHROPIC_BEDROCK_BASE_URL: fake.url,
        CLAUDE_CODE_SKIP_BEDROCK_AUTH: '1',
        CLAUDE_CODE_MAX_RETRIES: '0',
      });
      expect(seen.outcome).toBe('failed');
      for (const [view, text] of Object.entries({ claude: seen.claude, command: seen.command })) {
        expect(text, view).toContain('CLAUDE_CODE_USE_BEDROCK=1');
        expect(leaked(text).sort(), view).toEqual(Object.keys(AWS).sort());
        expect(text, view).toContain('AWS_REGION=us-east-1');
        expect(namesIn(text).has('CLOUD_ML_REGION'), view).toBe(false);
      }
    },
  );

  it(
    'CLAUDE_CODE_USE_VERTEX: the Google settings reach Claude, the AWS ones and the rest do not',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const seen = await run('stream-json', 'echo: hi', {
        CLAUDE_CODE_USE_VERTEX: 'true',
        ANTHROPIC_VERTEX_BASE_URL: fake.url,
        CLAUDE_CODE_SKIP_VERTEX_AUTH: '1',
        CLAUDE_CODE_MAX_RETRIES: '0',
      });
      expect(seen.outcome).toBe('failed');
      for (const [view, text] of Object.entries({ claude: seen.claude, command: seen.command })) {
        expect(text, view).toContain('CLAUDE_CODE_USE_VERTEX=true');
        expect(leaked(text), view).toEqual(Object.keys(GOOGLE));
        expect(text, view).toContain('CLOUD_ML_REGION=us-east5');
        expect(namesIn(text).has('AWS_REGION'), view).toBe(false);
      }
    },
  );

  it(
    'claude.env_allow = ["GITHUB_TOKEN"] passes exactly that one, to Claude and to the Bash tool',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const seen = await run('sdk', 'tool: Bash env', {}, (c) => (c.claude.env_allow = ['GITHUB_TOKEN']));
      expect(seen.outcome).toBe('ok');
      for (const [view, text] of Object.entries({ claude: seen.claude, bash: seen.bash })) {
        expect(leaked(text), view).toEqual(['GITHUB_TOKEN']);
        expect(text, view).toContain(`GITHUB_TOKEN=${OTHER.GITHUB_TOKEN}`);
      }
    },
  );
});

describe('the SessionStart hook cc-linker installs', () => {
  it('hook install writes no secret into the command Claude runs: only CC_LINKER_HOME and the script', async () => {
    const home = fs.mkdtempSync(path.join(sb.home, 'hook-home-'));
    const ccHome = path.join(home, 'relocated-cc-linker');
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      LANG: 'C.UTF-8',
      CC_LINKER_HOME: ccHome,
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      ...PLANTED,
      ...CLOUD_SETTINGS,
    };
    const r = await runCli(['hook', 'install'], env, 30_000);
    expect(r.code, r.stderr).toBe(0);
    const text = fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8');
    expect(leaked(text + r.stdout + r.stderr)).toEqual([]);
    const settings = JSON.parse(text) as { hooks: { SessionStart: Array<{ hooks: Array<{ command: string }> }> } };
    const command = settings.hooks.SessionStart[0]?.hooks[0]?.command ?? '';
    expect(command).toMatch(/^CC_LINKER_HOME=\S+ node \S*session-start-hook\.cjs$/);
    expect(command.startsWith(`CC_LINKER_HOME=${ccHome} node `)).toBe(true);
  });
});
