import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../../src/core/config-schema.js';
import { defaultConfig } from '../../../src/core/default-config.js';
import { silentLogger } from '../../../src/core/logger.js';
import { resolvePaths, type Paths } from '../../../src/core/paths.js';
import {
  startFakeAnthropicMessagesServer,
  type FakeAnthropicMessagesServer,
} from '../fake-llm/fake-anthropic-messages-server.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../fake-llm/fake-openai-server.js';
import { createFakeCliHome, SAMPLE_DATA, type FakeCliHome, type FakeData } from './fake-cli.js';

/** The fake CLI's switches a harness passes through `[ccexec] env_allow`. */
export const FAKE_CC_ENV_ALLOW = [
  'FAKE_CC_SLOW_MS',
  'FAKE_CC_HUGE',
  'FAKE_CC_SPAWN_GRANDCHILD',
  'FAKE_CC_IGNORE_TERM',
  'FAKE_CC_PID_FILE',
  'FAKE_CC_DUMP_ENV',
  'FAKE_CC_VERSION',
  'FAKE_CC_CALL_LOG',
  'FAKE_CC_VERSION_LOG',
];

/** Keys the harness puts in the environment; tests assert none of them reach the CLI. */
export const HARNESS_KEYS = {
  OPENAI_API_KEY: 'sk-harness-openai-0123456789',
  ARK_API_KEY: 'ark-harness-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-harness-0123456789',
  DASHSCOPE_API_KEY: 'ds-harness-0123456789',
};

/**
 * Everything an end-to-end gateway test needs: the fake CLI with sample data in a temp HOME, the
 * scripted OpenAI and Anthropic servers on 127.0.0.1, and a config whose providers point at them:
 * `openai` (default), `doubao`, `anthropic` (tools) and `qwen` (plain chat, the preset default).
 */
export type GatewayHarness = {
  readonly fake: FakeCliHome;
  readonly openai: FakeOpenAIServer;
  readonly anthropic: FakeAnthropicMessagesServer;
  readonly config: Config;
  readonly paths: Paths;
  /** Parent environment: the fake's, the provider keys, and `FAKE_CC_CALL_LOG`. */
  readonly env: NodeJS.ProcessEnv;
  /** One JSON line per real CLI start (not `--version`). */
  readonly callLog: string;
  /** argv of every real CLI start so far. */
  cliCalls(): string[][];
  close(): Promise<void>;
};

/** Starts a harness; `env` adds switches (e.g. `FAKE_CC_SLOW_MS`) to the parent environment. */
export async function startGatewayHarness(
  options: { data?: FakeData; env?: NodeJS.ProcessEnv; configure?: (config: Config) => void } = {},
): Promise<GatewayHarness> {
  const fake = createFakeCliHome(options.data ?? SAMPLE_DATA);
  const openai = await startFakeOpenAIServer();
  const anthropic = await startFakeAnthropicMessagesServer();
  const callLog = path.join(fake.home, 'cli-calls.jsonl');
  const env: NodeJS.ProcessEnv = {
    ...fake.env,
    ...HARNESS_KEYS,
    FAKE_CC_CALL_LOG: callLog,
    CC_LINKER_HOME: path.join(fake.home, '.cc-linker'),
    ...options.env,
  };
  const config = defaultConfig();
  config.ccexec = {
    cli: fake.cli,
    cwd: fake.home,
    timeout_ms: 30_000,
    default_provider: 'openai',
    env_allow: FAKE_CC_ENV_ALLOW,
    providers: {
      openai: { kind: 'openai', base_url: openai.baseURL, api_key_env: 'OPENAI_API_KEY', model: 'gpt-4o-mini' },
      doubao: { kind: 'doubao', base_url: openai.baseURL, api_key_env: 'ARK_API_KEY', model: 'ep-20250101-fake' },
      anthropic: {
        kind: 'anthropic',
        base_url: anthropic.baseURL,
        api_key_env: 'ANTHROPIC_API_KEY',
        model: 'claude-sonnet-4-5',
      },
      qwen: {
        kind: 'openai-compatible',
        base_url: openai.baseURL,
        api_key_env: 'DASHSCOPE_API_KEY',
        model: 'qwen-plus',
        // Plain chat by choice: an openai-compatible table without `tools` would try them first.
        tools: false,
      },
    },
  };
  options.configure?.(config);
  return {
    fake,
    openai,
    anthropic,
    config,
    paths: resolvePaths(env),
    env,
    callLog,
    cliCalls: () =>
      fs.existsSync(callLog)
        ? fs
            .readFileSync(callLog, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { argv: string[] }).argv)
        : [],
    async close() {
      await openai.close();
      await anthropic.close();
      fake.cleanup();
    },
  };
}

/**
 * Writes the harness's `[ccexec]` section as `$CC_LINKER_HOME/config.toml`, for tests that run the
 * real command-line path (`loadCliContext` → `loadConfig`).
 */
export function writeHarnessConfig(h: GatewayHarness): string {
  const c = h.config.ccexec;
  const q = (v: string): string => JSON.stringify(v);
  const lines = [
    '[ccexec]',
    `cli = [${c.cli.map(q).join(', ')}]`,
    `cwd = ${q(c.cwd)}`,
    `default_provider = ${q(c.default_provider)}`,
    `env_allow = [${c.env_allow.map(q).join(', ')}]`,
  ];
  for (const [id, p] of Object.entries(c.providers)) {
    lines.push(
      '',
      `[ccexec.providers.${id}]`,
      `kind = ${q(p.kind)}`,
      `base_url = ${q(p.base_url)}`,
      `api_key_env = ${q(p.api_key_env)}`,
      `model = ${q(p.model)}`,
      ...(p.tools !== undefined ? [`tools = ${String(p.tools)}`] : []),
    );
  }
  fs.mkdirSync(h.paths.home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(h.paths.configFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  return h.paths.configFile;
}

/** The silent logger, re-exported so tests build the gateway in one import. */
export const harnessLogger = silentLogger;
