import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import type { Config } from '../../src/core/config-schema.js';
import { resolvePaths } from '../../src/core/paths.js';
import { runSetupCommand } from './run-setup-command.js';

export interface SetupHomeOptions {
  /** The temporary HOME's name prefix. */
  prefix: string;
  /** Folders made in HOME before each test (default `Git`). */
  dirs?: string[];
  /** Variables besides HOME, CC_LINKER_HOME and PATH. */
  extraEnv?: (home: string) => NodeJS.ProcessEnv;
  /** What no run may ever print (tokens, secrets), checked after each test. */
  secrets: () => string[];
}

/** The current test's HOME, its environment, and `cc-linker setup` run in it. */
export interface SetupHome {
  readonly tmp: string;
  readonly env: NodeJS.ProcessEnv;
  configFile(): string;
  /** `cc-linker setup <args…>` in-process without a terminal; its output is kept for the secret check. */
  run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The file as cc-linker will read it, with no environment overrides. */
  reload(): Promise<Config>;
}

/**
 * Registers a fresh temporary HOME per test for the `setup` command tests (removed afterwards),
 * and checks after each test that nothing any run printed holds a secret.
 */
export function useSetupHome(o: SetupHomeOptions): SetupHome {
  let tmp = '';
  let env: NodeJS.ProcessEnv = {};
  let printed: string[] = [];
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), o.prefix)));
    for (const d of o.dirs ?? ['Git']) fs.mkdirSync(path.join(tmp, d), { recursive: true });
    env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker'), ...o.extraEnv?.(tmp), PATH: process.env.PATH };
    printed = [];
  });
  afterEach(() => {
    const all = printed.join('\n');
    for (const secret of o.secrets()) expect(all).not.toContain(secret);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  return {
    get tmp() {
      return tmp;
    },
    get env() {
      return env;
    },
    configFile: () => path.join(tmp, '.cc-linker', 'config.toml'),
    async run(...args) {
      const r = await runSetupCommand(args, env);
      printed.push(r.stdout, r.stderr);
      return r;
    },
    async reload() {
      return (await loadConfig({ paths: resolvePaths(env), env: { HOME: tmp, CC_LINKER_HOME: env.CC_LINKER_HOME } }))
        .config;
    },
  };
}
