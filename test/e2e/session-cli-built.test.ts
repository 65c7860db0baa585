/**
 * A few session commands through the built binary (`node dist/cli/main.js`, as a user runs it):
 * exit codes, stdout/stderr separation, one-line errors without a stack trace. `npm test` builds
 * first; the test is skipped (and says so) while the program does not register the commands yet.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCaseTree } from '../fixtures/claude-tree.js';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'main.js');
const help = fs.existsSync(MAIN) ? spawnSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8', timeout: 20_000 }).stdout : '';
const registered = /\binit\b/.test(help) && /\blist\b/.test(help);

let tmp: string;
let env: NodeJS.ProcessEnv;
const run = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { env, encoding: 'utf8', timeout: 30_000 });

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-built-'));
  const home = path.join(tmp, 'home');
  env = { PATH: process.env.PATH, HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker'), CLAUDE_CONFIG_DIR: path.join(home, '.claude') };
  writeCaseTree(path.join(home, '.claude'), new Date());
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!registered)('built CLI: session commands', () => {
  it('init, list --json, show: results on stdout, warnings on stderr', () => {
    const init = run('init');
    expect(init.status).toBe(0);
    expect(init.stdout).toContain('Registered 14 sessions total');
    expect(init.stderr).toContain('x.jsonl');
    const list = run('list', '--json');
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(14);
    const show = run('show', '00000001');
    expect(show.status).toBe(0);
    expect(show.stdout).toContain('Improve README and create acceptance guide');
  });

  it('an ambiguous prefix and a newer registry: one line on stderr, non-zero exit, no stack', () => {
    const amb = run('show', '0000');
    expect(amb.status).toBe(1);
    expect(amb.stdout).toBe('');
    expect(amb.stderr.trim().split('\n')).toHaveLength(1);
    fs.writeFileSync(path.join(env.CC_LINKER_HOME as string, 'registry.json'), '{"version":99,"sessions":{}}');
    const newer = run('sync');
    expect(newer.status).toBe(65);
    expect(newer.stderr.trim().split('\n')).toHaveLength(1);
    expect(newer.stderr).not.toMatch(/\n\s+at /);
  });
});
