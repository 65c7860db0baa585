// The real agents the system tests can add beside Claude Code (`startSystem({ agents })`): Codex and
// Qwen Code, each with a fake model server on 127.0.0.1 and the `[agents.<name>]` table a user writes.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../src/core/config-schema.js';
import { codexAcpBinary, qwenBin } from '../fakes/agent-sandbox/agent-binaries.js';
import { codexConfigToml, FAKE_API_KEY, QWEN_FAKE_MODEL } from '../fakes/agent-sandbox/agent-sandbox.js';
import { startAgentModelServer, type AgentModelServer } from '../fakes/fake-llm/agent-model-server.js';
import type { SystemRoot } from './system-harness.js';

/** The native codex-acp binary, or null on a platform without it (the agent tests then skip). */
export const CODEX_BIN = codexAcpBinary();

/** What `withCodex` / `withQwen` set up: the fake model the agent talks to and its `[agents.<name>]` table. */
export interface AgentSetup {
  fake: AgentModelServer;
  profile: Config['agents']['profiles'][string];
}

/** `withCodex`'s fake Responses API and `[agents.codex]` table. */
export type CodexSetup = AgentSetup;
/** `withQwen`'s fake chat-completions API and `[agents.qwen]` table. */
export type QwenSetup = AgentSetup;

/**
 * Real Codex for the system: a fake Responses API on 127.0.0.1, `$CODEX_HOME` = `<home>/.codex` (where
 * the registry looks) with a config.toml pointing at it, the fake key in the daemon's environment
 * (`sys.env.FAKE_API_KEY`), and the `[agents.codex]` table a user would write: the binary, `env`
 * naming `CODEX_HOME`, and the key passed by name (`env_pass`).
 */
export async function withCodex(sys: SystemRoot): Promise<CodexSetup> {
  if (!CODEX_BIN) throw new Error('system harness: codex-acp is not installed');
  const fake = await startAgentModelServer('responses');
  const codexHome = path.join(sys.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(codexHome, 'config.toml'), codexConfigToml(fake.baseUrl));
  sys.env.FAKE_API_KEY = FAKE_API_KEY;
  return {
    fake,
    profile: { kind: 'acp', command: [CODEX_BIN], env: { CODEX_HOME: codexHome }, env_pass: ['FAKE_API_KEY'] },
  };
}

/** Qwen Code's `qwen` command (`node_modules/.bin/qwen`), or null when it is not installed (the tests then skip). */
export const QWEN_BIN = qwenBin();

/**
 * Real Qwen Code for the system: a fake chat-completions API on 127.0.0.1, `<home>/.qwen/settings.json`
 * with usage statistics off (otherwise it looks up a telemetry host), the fake key in the daemon's
 * environment (`sys.env.OPENAI_API_KEY`), and the `[agents.qwen]` table a user would write: the
 * `qwen` command with the built-in profile's flags, `env` with the (secret-free) base URL and model,
 * and the key passed by name (`env_pass`). Its sessions land in `<home>/.qwen/projects`, where the
 * registry looks.
 */
export async function withQwen(sys: SystemRoot): Promise<QwenSetup> {
  if (!QWEN_BIN) throw new Error('system harness: Qwen Code is not installed');
  const fake = await startAgentModelServer('chat');
  const qwenDir = path.join(sys.home, '.qwen');
  fs.mkdirSync(qwenDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(qwenDir, 'settings.json'), JSON.stringify({ privacy: { usageStatisticsEnabled: false } }));
  sys.env.OPENAI_API_KEY = FAKE_API_KEY;
  return {
    fake,
    profile: {
      kind: 'acp',
      command: [QWEN_BIN, '--acp', '--approval-mode', 'default'],
      env: { OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: QWEN_FAKE_MODEL },
      env_pass: ['OPENAI_API_KEY'],
    },
  };
}
