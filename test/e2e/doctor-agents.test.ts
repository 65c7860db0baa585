/**
 * `cc-linker doctor` and the ACP agents: one row per built-in or configured agent, in both
 * languages — installed (its version, or "runs"), not installed (the install line; a failure only
 * for `agents.default`), a configured command that is missing or does not run. Stand-in agents are
 * small shell scripts; codex-acp is the real one when the dev dependency is installed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSessionCli } from '../helpers/run-session-cli.js';

const REPO_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/.bin');
let tmp: string;
let home: string;
let bin: string;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-doctor-agents-')));
  home = path.join(tmp, 'home');
  bin = path.join(tmp, 'bin');
  fs.mkdirSync(path.join(home, '.cc-linker'), { recursive: true, mode: 0o700 });
  fs.mkdirSync(bin);
  const script = (name: string, body: string) =>
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  // A Qwen Code that prints its version; an OpenCode that knows only --help; a broken agent.
  script('qwen', 'if [ "$1" = "--version" ]; then echo "0.15.10"; exit 0; fi; exit 9');
  script('opencode', 'if [ "$1" = "--help" ]; then echo "usage"; exit 0; fi; exit 1');
  script('broken-agent', 'echo "boom" >&2; exit 4');
  // The registry doctor checks for: only the agents' rows may decide whether a check failed here.
  const env = { HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker'), PATH: bin };
  expect((await runSessionCli(['init'], { env, now: new Date() })).code).toBe(0);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function doctor(toml: string, lang: 'zh' | 'en', PATH = bin) {
  fs.writeFileSync(path.join(home, '.cc-linker', 'config.toml'), `[general]\nlanguage = "${lang}"\n${toml}`, {
    mode: 0o600,
  });
  const env = { HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker'), PATH };
  const r = await runSessionCli(['doctor'], { env, now: new Date() });
  const agentRows = r.stdout
    .split('\n')
    .filter((l) => /^\S+ +(Codex|Gemini CLI|Qwen Code|OpenCode|broken|gone): /.test(l));
  return { ...r, agentRows };
}

const configured = () =>
  ['[agents.broken]', `command = ["${bin}/broken-agent", "--acp"]`, '[agents.gone]', 'command = ["gone-agent"]'].join(
    '\n',
  );

describe('doctor: the agents', () => {
  it('en: installed with a version, installed with --help only, not installed, configured but missing or broken', async () => {
    const r = await doctor(configured(), 'en');
    expect(r.agentRows).toEqual([
      '➖ Codex: not installed — npm i -g @zed-industries/codex-acp',
      '➖ Gemini CLI: not installed — npm i -g @google/gemini-cli',
      `✅ Qwen Code: ${bin}/qwen (0.15.10)`,
      `✅ OpenCode: ${bin}/opencode (runs)`,
      `⚠️  broken: ${bin}/broken-agent does not run (exit 4)`,
      '⚠️  gone: command "gone-agent" not found; check command in [agents.gone]',
    ]);
    // Nothing there is a failure: the default agent is claude.
    expect(r.stdout).not.toContain('❌');
  });

  it('zh: the same rows in Chinese', async () => {
    const r = await doctor(configured(), 'zh');
    expect(r.agentRows).toEqual([
      '➖ Codex: 未安装 — npm i -g @zed-industries/codex-acp',
      '➖ Gemini CLI: 未安装 — npm i -g @google/gemini-cli',
      `✅ Qwen Code: ${bin}/qwen（0.15.10）`,
      `✅ OpenCode: ${bin}/opencode（可以运行）`,
      `⚠️  broken: ${bin}/broken-agent 无法运行（exit 4）`,
      '⚠️  gone: 找不到命令 "gone-agent"，请检查 [agents.gone] 中的 command',
    ]);
  });

  it('the default agent not installed is a failed check (exit 1), named as the default', async () => {
    for (const [lang, row] of [
      ['en', '❌ Gemini CLI: not installed — npm i -g @google/gemini-cli (the default agent)'],
      ['zh', '❌ Gemini CLI: 未安装 — npm i -g @google/gemini-cli（默认 agent）'],
    ] as const) {
      const r = await doctor('[agents]\ndefault = "gemini"\n', lang);
      expect(r.agentRows).toContain(row);
      expect(r.code).toBe(1);
    }
  });

  it('the default agent installed but broken fails too; installed and running passes', async () => {
    const broken = await doctor(`[agents]\ndefault = "broken"\n${configured()}`, 'en');
    expect(broken.agentRows).toContain(`❌ broken: ${bin}/broken-agent does not run (exit 4) (the default agent)`);
    expect(broken.code).toBe(1);
    const fine = await doctor('[agents]\ndefault = "qwen"\n', 'en');
    expect(fine.agentRows).toContain(`✅ Qwen Code: ${bin}/qwen (0.15.10) (the default agent)`);
  });

  it.skipIf(!fs.existsSync(path.join(REPO_BIN, 'codex-acp')))(
    'the real codex-acp: found through its npm wrapper, shown as its native binary, runs (it has no --version)',
    { timeout: 30_000 },
    async () => {
      const r = await doctor('', 'en', `${REPO_BIN}${path.delimiter}${path.dirname(process.execPath)}`);
      expect(r.agentRows[0]).toMatch(
        /^✅ Codex: \S+\/@zed-industries\/codex-acp-linux-[a-z0-9]+\/bin\/codex-acp \(runs\)$/,
      );
    },
  );
});
