/**
 * Security review: which program cc_exec runs. `ccexec.cli` names the ChainlessChain CLI; `cc` on PATH
 * is the C compiler on Linux and macOS, and any other bare name is whatever PATH finds first. Read by
 * the real command line (`cc-linker status`, `cc-linker ask`, tsx over src/):
 *
 * - a bare name other than `chainlesschain` (`cc`, `gcc`, `python3 x.py`) is refused when the config
 *   is loaded: exit 78, one line per language that says why;
 * - a program that is allowed by name but is not the CLI (an absolute path to a script that answers
 *   `--version` like gcc does) is not offered to the model: the version check accepts only the CLI's
 *   own `--version` output (a bare version), never "some three-part number in the text".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startGatewayHarness,
  writeHarnessConfig,
  type GatewayHarness,
} from '../fakes/fake-chainlesschain/gateway-harness.js';
import { openaiTextTurn } from '../fakes/fake-llm/fake-openai-server.js';
import { runCli } from './system-run.js';

let root: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sec-cli-')));
});
afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** Writes `toml` as the config of a fresh home and runs `cc-linker <args>` there. */
async function withConfig(name: string, toml: string, args: string[]) {
  const home = path.join(root, name);
  const ccHome = path.join(home, '.cc-linker');
  fs.mkdirSync(ccHome, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(ccHome, 'config.toml'), toml, { mode: 0o600 });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    CC_LINKER_HOME: ccHome,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  };
  return runCli(args, env, 25_000);
}

describe('ccexec.cli is checked when the config is loaded', () => {
  const refused: Array<{ name: string; cli: string; why: { en: RegExp; zh: RegExp } }> = [
    {
      name: 'cc',
      cli: '["cc"]',
      why: { en: /"cc" is the C compiler on Linux and macOS/, zh: /"cc" 是 Linux 和 macOS 上的 C 编译器/ },
    },
    {
      name: 'gcc',
      cli: '["gcc"]',
      why: { en: /"gcc" would be looked up on PATH/, zh: /"gcc" 会在 PATH 中查找/ },
    },
    {
      name: 'python3',
      cli: '["python3", "x.py"]',
      why: { en: /"python3" would be looked up on PATH/, zh: /"python3" 会在 PATH 中查找/ },
    },
  ];

  for (const c of refused) {
    it(`cli = ${c.cli} stops every command with exit 78 and says why, in English and in Chinese`, async () => {
      for (const lang of ['en', 'zh'] as const) {
        const r = await withConfig(
          `${c.name}-${lang}`,
          `[general]\nlanguage = "${lang}"\n\n[ccexec]\ncli = ${c.cli}\n`,
          ['status'],
        );
        expect(r.code, r.stderr).toBe(78);
        const lines = r.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain('config.toml');
        expect(lines[0]).toContain('ccexec.cli');
        expect(lines[0]).toMatch(c.why[lang]);
        // The fix is named too: the default, or node with the CLI's entry script.
        expect(lines[0]).toContain('["chainlesschain"]');
        expect(lines[0]).toContain('["node", "/path/to/chainlesschain/bin/chainlesschain.js"]');
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    });
  }

  it('the default, an absolute path and node with an entry script are accepted', async () => {
    for (const [name, cli] of [
      ['default', '["chainlesschain"]'],
      ['absolute', '["/opt/chainlesschain/bin/chainlesschain"]'],
      ['node-entry', '["node", "/opt/chainlesschain/bin/chainlesschain.js"]'],
      ['node-path-entry', `[${JSON.stringify(process.execPath)}, "/opt/cc/bin/chainlesschain.mjs"]`],
    ] as const) {
      const r = await withConfig(`ok-${name}`, `[ccexec]\ncli = ${cli}\n`, ['status']);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toContain('ccexec.cli');
    }
  });
});

describe('the version check sees only the CLI’s own --version output', () => {
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** `cc-linker ask` (the real command line) with the harness's config and `cli`. */
  async function ask(cli?: string[]) {
    h = await startGatewayHarness();
    if (cli) h.config.ccexec.cli = cli;
    writeHarnessConfig(h);
    h.openai.enqueue(openaiTextTurn('好的。'));
    const r = await runCli(['ask', '列一下我的笔记'], h.env, 30_000);
    const request = h.openai.requests[0]?.body as { tools?: Array<{ function: { name: string } }> } | undefined;
    return { r, tools: (request?.tools ?? []).map((t) => t.function.name) };
  }

  it('an absolute path to a program that answers like gcc is not the CLI: the tool is off, and the user is told why', async () => {
    const gcc = path.join(root, 'gcc-like');
    fs.writeFileSync(
      gcc,
      [
        '#!/bin/sh',
        'echo "cc (Debian 12.2.0-14) 12.2.0"',
        'echo "Copyright (C) 2022 Free Software Foundation, Inc."',
        'exit 0',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const { r, tools } = await ask([gcc]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('好的。');
    expect(r.stderr).toContain(
      `ChainlessChain CLI（${gcc}）无法正常运行：unrecognised --version output 'cc (Debian 12.2.0-14) 12.2.0'`,
    );
    expect(r.stderr).toContain('not the ChainlessChain CLI');
    expect(tools).toEqual([]);
  });

  it('the fake ChainlessChain CLI (prints exactly its version) is available: the model gets the tool', async () => {
    const { r, tools } = await ask();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('ChainlessChain CLI（');
    expect(tools).toEqual(['cc_exec']);
  });
});
