/**
 * Security review: what an ACP agent — the REAL codex-acp and Qwen Code installed as dev
 * dependencies, and any configured command — gets of cc-linker's environment.
 *
 * Each agent is started as cc-linker starts it: its profile from the config, its command from
 * `resolveAgentCommand`, its environment from `agentEnvFor`, spawned through the runner. The
 * environment it really has is read from `/proc/<pid>/environ` while it waits for ACP input on
 * stdin; a configured agent that is `/usr/bin/env` prints what a command it runs would see.
 * Planted in the source environment: cc-linker's own secrets, Claude's credentials, a cc_exec
 * provider's key, shared API keys and unrelated tokens — random values, so only a real leak matches.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEnvFor } from '../../src/agents/agent-env.js';
import { agentProfile, type AgentProfile } from '../../src/agents/agent-profiles.js';
import { resolveAgentCommand } from '../../src/agents/resolve-agent-command.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { runProcess, startProcess } from '../../src/process/run-process.js';
import { isGroupGone } from '../fakes/fake-children.js';

const hex = () => randomBytes(12).toString('hex');
const REPO_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin');

/** Never for any agent. */
const NEVER = {
  CC_LINKER_FEISHU_APP_SECRET: `feishusecret-${hex()}`,
  CC_LINKER_WEB_TOKEN: `webtoken-${hex()}`,
  ANTHROPIC_API_KEY: `anthropickey-${hex()}`,
  ANTHROPIC_AUTH_TOKEN: `anthropictoken-${hex()}`,
  // The key of the configured cc_exec provider below.
  WORK_LLM_KEY: `workkey-${hex()}`,
  AWS_SECRET_ACCESS_KEY: `awssecret-${hex()}`,
  NPM_TOKEN: `npmtoken-${hex()}`,
  DB_PASSWORD: `dbpassword-${hex()}`,
};
/** Shared keys: only when named in env_pass. */
const SHARED = { OPENAI_API_KEY: `openaikey-${hex()}`, GITHUB_TOKEN: `ghtoken-${hex()}` };
const PLANTED: Record<string, string> = { ...NEVER, ...SHARED };

let home: string;
let source: NodeJS.ProcessEnv;
let config: Config;

beforeAll(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-agent-env-')));
  source = {
    PATH: `${REPO_BIN}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`,
    HOME: home,
    LANG: 'C.UTF-8',
    CODEX_HOME: path.join(home, '.codex'),
    ...PLANTED,
  };
  // codex-acp exits at once when CODEX_HOME names a missing folder.
  fs.mkdirSync(source.CODEX_HOME as string);
  config = defaultConfig();
  config.ccexec.providers = {
    work: { kind: 'openai-compatible', base_url: '', api_key_env: 'WORK_LLM_KEY', model: 'm' },
  };
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

/** The planted names whose value appears in `text`. */
const leaked = (text: string) => Object.keys(PLANTED).filter((name) => text.includes(PLANTED[name] as string));

/**
 * Starts `profile`'s agent as cc-linker would (it waits on stdin for ACP), reads its environment
 * from /proc, ends the group. Returns the environment and the program that really runs.
 */
async function environOf(profile: AgentProfile): Promise<{ environ: string; exe: string }> {
  const argv = resolveAgentCommand(profile, source, home);
  const run = startProcess(argv, {
    cwd: home,
    env: agentEnvFor(profile, source, config),
    keepStdinOpen: true,
    hardTimeoutMs: 30_000,
  });
  const pid = run.pid as number;
  expect(pid).toBeGreaterThan(0);
  // The environment is fixed at exec, but a script agent execs twice (`#!/usr/bin/env node`), and
  // /proc reads an empty environment while an exec swaps the image: read until the agent's own
  // environment (its HOME) is there, and the program is no longer the `env` launcher.
  let environ = '';
  let exe = '';
  for (let i = 0; i < 250; i += 1) {
    try {
      exe = fs.readlinkSync(`/proc/${pid}/exe`);
      environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').join('\n');
      if (environ.includes(`HOME=${home}\n`) && path.basename(exe) !== 'env') break;
    } catch {
      // /proc/<pid>/exe has no target for a moment while the image is swapped
    }
    await sleep(20);
  }
  expect(exe, 'the agent ended before its environment could be read').not.toBe('');
  run.kill();
  await run.done;
  expect(isGroupGone(pid)).toBe(true);
  return { environ, exe };
}

const namesIn = (text: string) => new Set(text.split('\n').map((l) => l.slice(0, l.indexOf('='))));
const installed = (name: string) => fs.existsSync(path.join(REPO_BIN, name));

describe.skipIf(process.platform !== 'linux')('ACP agent child environment', () => {
  it.skipIf(!installed('codex-acp'))(
    'real codex-acp: its native binary runs directly, with the base and CODEX_*; no planted secret',
    { timeout: 30_000 },
    async () => {
      const { environ, exe } = await environOf(agentProfile(config, 'codex') as AgentProfile);
      expect(exe).toMatch(/@zed-industries\/codex-acp-linux-[a-z0-9]+\/bin\/codex-acp$/);
      expect(environ).toContain(`HOME=${home}`);
      expect(environ).toContain(`CODEX_HOME=${path.join(home, '.codex')}`);
      expect(leaked(environ)).toEqual([]);
      expect([...namesIn(environ)].filter((n) => n.startsWith('CC_LINKER_') || n.startsWith('ANTHROPIC_'))).toEqual([]);
    },
  );

  it.skipIf(!installed('qwen'))(
    'real Qwen Code with env_pass = ["OPENAI_API_KEY"]: exactly that key, nothing else planted',
    { timeout: 30_000 },
    async () => {
      config.agents.profiles.qwen = { kind: 'acp', env: {}, env_pass: ['OPENAI_API_KEY'] };
      try {
        const { environ } = await environOf(agentProfile(config, 'qwen') as AgentProfile);
        expect(leaked(environ)).toEqual(['OPENAI_API_KEY']);
        expect(environ).toContain(`OPENAI_API_KEY=${SHARED.OPENAI_API_KEY}`);
      } finally {
        delete config.agents.profiles.qwen;
      }
    },
  );

  it('a configured agent (/usr/bin/env) sees the base, its env and env_pass: never cc-linker, Claude or cc_exec keys', async () => {
    const profile: AgentProfile = {
      name: 'probe',
      kind: 'acp',
      label: 'probe',
      command: ['env'],
      env: { PROBE_MODE: 'acp' },
      // Listing forbidden names does not pass them either.
      envPass: ['GITHUB_TOKEN', 'WORK_LLM_KEY', 'ANTHROPIC_API_KEY', 'CC_LINKER_WEB_TOKEN'],
      envAllow: [],
      install: '',
      builtin: false,
    };
    const r = await runProcess(resolveAgentCommand(profile, source, home), {
      env: agentEnvFor(profile, source, config),
      hardTimeoutMs: 10_000,
    });
    expect(r.exitCode).toBe(0);
    expect(leaked(r.stdout)).toEqual(['GITHUB_TOKEN']);
    expect([...namesIn(r.stdout.trim())].sort()).toEqual(['GITHUB_TOKEN', 'HOME', 'LANG', 'PATH', 'PROBE_MODE']);
  });
});
