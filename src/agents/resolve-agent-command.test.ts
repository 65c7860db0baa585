import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/default-config.js';
import { AgentError } from './agent-error.js';
import { agentProfile, type AgentProfile } from './agent-profiles.js';
import { codexNativeBinary } from './codex-native-binary.js';
import { resolveAgentCommand } from './resolve-agent-command.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-agent-bin-')));
  fs.mkdirSync(path.join(dir, 'bin'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const exe = (file: string, mode = 0o755) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\n', { mode });
  return file;
};
const builtin = (name: string) => agentProfile(defaultConfig(), name) as AgentProfile;
const custom = (command: string[]): AgentProfile => ({
  name: 'mine',
  kind: 'acp',
  label: 'mine',
  command,
  env: {},
  envPass: [],
  envAllow: [],
  install: '',
  builtin: false,
});
const failure = (fn: () => unknown): AgentError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AgentError);
    return err as AgentError;
  }
  throw new Error('expected an AgentError');
};

describe('resolveAgentCommand', () => {
  it('a bare name is looked up on the given PATH; the arguments follow', () => {
    const qwen = exe(path.join(dir, 'bin', 'qwen'));
    expect(resolveAgentCommand(builtin('qwen'), { PATH: `/nonexistent:${path.join(dir, 'bin')}` }, dir)).toEqual([
      qwen,
      '--acp',
      '--approval-mode',
      'default',
    ]);
  });

  it('~ is expanded and a relative path made absolute', () => {
    const mine = exe(path.join(dir, 'tools', 'mine'));
    expect(resolveAgentCommand(custom(['~/tools/mine', '--acp']), { PATH: '' }, dir)).toEqual([mine, '--acp']);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(resolveAgentCommand(custom(['./tools/mine']), { PATH: '' }, '/nohome')).toEqual([mine]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('a missing built-in names the command and its install line, in both languages', () => {
    const err = failure(() => resolveAgentCommand(builtin('gemini'), { PATH: path.join(dir, 'bin') }, dir));
    expect(err.code).toBe('AGENT_NOT_FOUND');
    expect(err.localize('en')).toBe(
      'Gemini CLI: command "gemini" not found (not on PATH). Install: npm i -g @google/gemini-cli, or set command in [agents.gemini]',
    );
    expect(err.localize('zh')).toBe(
      'Gemini CLI：找不到命令 "gemini"（PATH 中没有）。安装：npm i -g @google/gemini-cli，或在 [agents.gemini] 中设置 command',
    );
    expect(err.detail).toMatchObject({ agent: 'gemini', command: 'gemini', why: 'not-on-path' });
  });

  it('a configured path that is not executable (or missing) points at the agent table', () => {
    exe(path.join(dir, 'tools', 'plain'), 0o644);
    for (const command of ['~/tools/plain', '~/tools/missing', path.join(dir, 'tools')]) {
      const err = failure(() => resolveAgentCommand(custom([command]), { PATH: '' }, dir));
      expect(err.localize('en')).toBe(
        `mine: command "${command}" not found (not an executable file); check command in [agents.mine]`,
      );
    }
  });

  it('PATH unset: nothing is found', () => {
    expect(failure(() => resolveAgentCommand(builtin('codex'), {}, dir)).code).toBe('AGENT_NOT_FOUND');
  });
});

describe('the codex-acp npm wrapper is replaced by its native binary', () => {
  const native = (root: string) =>
    path.join(root, '@zed-industries', `codex-acp-${process.platform}-${process.arch}`, 'bin', 'codex-acp');

  it('a local install (native package hoisted next to the wrapper), found through node_modules/.bin', () => {
    const nm = path.join(dir, 'proj', 'node_modules');
    const wrapper = exe(path.join(nm, '@zed-industries', 'codex-acp', 'bin', 'codex-acp.js'));
    const bin = exe(native(nm));
    fs.mkdirSync(path.join(nm, '.bin'));
    fs.symlinkSync('../@zed-industries/codex-acp/bin/codex-acp.js', path.join(nm, '.bin', 'codex-acp'));
    expect(resolveAgentCommand(builtin('codex'), { PATH: path.join(nm, '.bin') }, dir)).toEqual([bin]);
    expect(codexNativeBinary(wrapper)).toBe(bin);
  });

  it('a global install (native package inside the wrapper package), found through a bin symlink', () => {
    const pkg = path.join(dir, 'lib', 'node_modules', '@zed-industries', 'codex-acp');
    exe(path.join(pkg, 'bin', 'codex-acp.js'));
    const bin = exe(native(path.join(pkg, 'node_modules')));
    fs.symlinkSync(path.join(pkg, 'bin', 'codex-acp.js'), path.join(dir, 'bin', 'codex-acp'));
    expect(resolveAgentCommand(builtin('codex'), { PATH: path.join(dir, 'bin') }, dir)).toEqual([bin]);
  });

  it('the wrapper without its native package stays the wrapper; any other program is left alone', () => {
    const wrapper = exe(path.join(dir, 'nm', '@zed-industries', 'codex-acp', 'bin', 'codex-acp.js'));
    expect(codexNativeBinary(wrapper)).toBeNull();
    expect(codexNativeBinary(exe(path.join(dir, 'bin', 'codex-acp')))).toBeNull();
    expect(codexNativeBinary(path.join(dir, 'missing'))).toBeNull();
    expect(codexNativeBinary(wrapper, 'linux', 'mips')).toBeNull();
  });

  it('the installed dev dependency resolves to its real native binary', () => {
    const repoBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin');
    if (!fs.existsSync(path.join(repoBin, 'codex-acp'))) return;
    const [program] = resolveAgentCommand(builtin('codex'), { PATH: repoBin }, dir);
    expect(fs.realpathSync(program as string)).toMatch(
      new RegExp(`@zed-industries/codex-acp-${process.platform}-${process.arch}/bin/codex-acp$`),
    );
  });
});
