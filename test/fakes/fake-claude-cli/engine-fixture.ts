import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../../src/core/config-schema.js';
import { defaultConfig } from '../../../src/core/default-config.js';
import { resolvePaths, type Paths } from '../../../src/core/paths.js';

/** The fake `claude` executable (a node script; see the behaviours in its header). */
export const FAKE_CLAUDE = fileURLToPath(new URL('./fake-claude.mjs', import.meta.url));

/** One call of the fake, as it recorded it. */
export interface FakeClaudeCall {
  argv: string[];
  cwd: string;
  stdin: string;
  envNames: string[];
  pid: number;
}

/** A temp HOME + cwd + config wired to the fake `claude`, for engine unit tests. */
export interface EngineFixture {
  root: string;
  home: string;
  cwd: string;
  paths: Paths;
  env: NodeJS.ProcessEnv;
  config: Config;
  /** Every call of the fake so far. */
  calls(): FakeClaudeCall[];
  cleanup(): void;
}

/**
 * Creates the fixture: `general.claude_bin` = the fake, short timeouts, `claude.env_allow` =
 * `FAKE_CLAUDE_RECORD`, HOME / CC_LINKER_HOME in the temp dir so nothing touches the real
 * ~/.claude or ~/.cc-linker.
 */
export function createEngineFixture(): EngineFixture {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-engine-')));
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'project');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(cwd);
  const record = path.join(root, 'calls.jsonl');
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    FAKE_CLAUDE_RECORD: record,
  };
  const config = defaultConfig();
  config.general.claude_bin = FAKE_CLAUDE;
  config.runtime.stale_timeout_ms = 20_000;
  config.runtime.hard_timeout_ms = 30_000;
  // The fake's record switch must get through the child's allowlist, like any variable a user's tools need.
  config.claude.env_allow = ['FAKE_CLAUDE_RECORD'];
  return {
    root,
    home,
    cwd,
    paths: resolvePaths(env),
    env,
    config,
    calls: () => {
      try {
        return fs
          .readFileSync(record, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as FakeClaudeCall);
      } catch {
        return [];
      }
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
