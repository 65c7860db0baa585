/**
 * Every terminal command speaks `general.language` alone (docs/design.md#language): the built
 * binary, run with `language = "zh"` and `"en"` in a temp HOME, prints `status`, `show`, `list`
 * and `doctor` with no sentence of the other language (test/helpers/one-language.ts). Session
 * titles are one-word data ("ping") so only cc-linker's own texts are judged. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../src/core/i18n.js';
import { createRng, writeSession } from '../fixtures/claude-tree.js';
import { foreignRuns } from '../helpers/one-language.js';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'launcher', 'cc-linker.js');
const ID = 'abcdef01-0000-4000-8000-000000000001';
let tmp: string;

function homeFor(lang: Language): NodeJS.ProcessEnv {
  const home = path.join(tmp, lang);
  const ccHome = path.join(home, '.cc-linker');
  fs.mkdirSync(ccHome, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(ccHome, 'config.toml'), `[general]\nlanguage = "${lang}"\n`, { mode: 0o600 });
  const claudeDir = path.join(home, '.claude');
  const turns = [{ prompt: 'ping', answer: 'pong' }];
  writeSession(
    claudeDir,
    { id: ID, cwd: '/tmp/cc-lang/proj', start: new Date(Date.now() - 3_600_000), turns },
    createRng(7),
  );
  return { PATH: process.env.PATH, HOME: home, CC_LINKER_HOME: ccHome, CLAUDE_CONFIG_DIR: claudeDir };
}

function run(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const r = spawnSync(process.execPath, [MAIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return `${r.stdout}\n${r.stderr}`;
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-lang-')));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the one-language checker', () => {
  // `cc-linker status` in zh as it was printed before its labels were translated.
  const mixedStatus = [
    'cc-linker Status',
    'Registry:      ~/.cc-linker/registry.json',
    'Last modified: 刚刚',
    'Total sessions: 15',
    '  From the web console:  0',
    'Hook:',
    '  Claude Code:     not installed',
  ].join('\n');

  it('finds the English sentences in the old zh status', () => {
    expect(foreignRuns(mixedStatus, 'zh')).toEqual(['From the web console']);
    expect(foreignRuns(mixedStatus, 'en')).toEqual(['刚刚']);
  });

  it('leaves quotes, paths, commands, ids and product names alone', () => {
    const zh =
      '会话 abcdef01 的 Claude Code hook 已安装：~/.claude/settings.json，运行 cc-linker hook install；Claude 说「Permission denied by the user」';
    expect(foreignRuns(zh, 'zh')).toEqual([]);
    expect(foreignRuns('The agent said 「权限被拒绝」 in ~/项目/a.txt', 'en')).toEqual([]);
    expect(foreignRuns('状态: not installed yet', 'zh')).toEqual(['not installed yet']);
  });
});

describe.skipIf(!fs.existsSync(MAIN))('built CLI: one language per config', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`status, show, list and doctor speak ${lang} only`, () => {
      const env = homeFor(lang);
      run(env, 'init');
      const outputs = {
        status: run(env, 'status'),
        show: run(env, 'show', ID.slice(0, 8)),
        list: run(env, 'list'),
        doctor: run(env, 'doctor'),
      };
      expect(outputs.show).toMatch(lang === 'zh' ? /状态:\s+活跃/ : /Status:\s+active/);
      for (const [command, text] of Object.entries(outputs))
        expect({ command, foreign: foreignRuns(text, lang) }, text).toEqual({ command, foreign: [] });
    }, 120_000);
  }
});
