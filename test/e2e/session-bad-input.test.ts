/**
 * The "Bad input" list for the session commands: each case gives a one-line explanation,
 * a non-zero exit where the command cannot go on, no stack trace, and never a partial registry.
 */
import { REGISTRY_SCHEMA } from '../../src/sessions/registry/registry-schema.js';
import { claudeProgramFor } from '../../src/claude/find-claude-binary.js';
import { shellQuote } from '../../src/core/shell-quote.js';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processStartTime } from '../../src/store/process-start-time.js';
import { writeCaseTree } from '../fixtures/claude-case-tree.js';
import { createRng, writeSession } from '../fixtures/claude-tree.js';
import { runSessionCli, type CliRun } from '../helpers/run-session-cli.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
let root: string;
let tmp: string;
let env: NodeJS.ProcessEnv;
let ccHome: string;
let registryFile: string;

const cli = (args: string[]): Promise<CliRun> => runSessionCli(args, { env, now: NOW });
const oneLineNoStack = (r: CliRun) => {
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('✖'));
  expect(lines).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
};

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bad-')));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(root, 't-'));
  const home = path.join(tmp, 'home');
  ccHome = path.join(home, '.cc-linker');
  registryFile = path.join(ccHome, 'registry.json');
  env = { HOME: home, CC_LINKER_HOME: ccHome, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), PATH: process.env.PATH };
  writeCaseTree(path.join(home, '.claude'), NOW);
});

describe('bad session files', () => {
  it('binary garbage, a directory named x.jsonl, a broken link and a sparse 2 GB file: init warns and goes on', async () => {
    const big = path.join(env.CLAUDE_CONFIG_DIR as string, 'projects', '-tmp-big', 'big-session.jsonl');
    fs.mkdirSync(path.dirname(big), { recursive: true });
    const fd = fs.openSync(big, 'w');
    fs.ftruncateSync(fd, 2 * 1024 ** 3);
    fs.closeSync(fd);
    const r = await cli(['init']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('big-session.jsonl（2.0 GB，超过 scanner.max_file_size）');
    expect(r.stderr).toContain('不是 JSONL');
    expect(r.stderr).toContain('x.jsonl：不是普通文件');
    expect(r.stderr).toContain('dangling.jsonl：符号链接指向的文件不存在');
    const reg = JSON.parse(fs.readFileSync(registryFile, 'utf8'));
    expect(reg.sessions['big-session']).toBeUndefined();
    expect(Object.values(reg.sessions).filter((s) => (s as { status: string }).status === 'corrupted')).toHaveLength(1);
  });
});

describe('session files whose name is not a session id', () => {
  const HOSTILE = ['--dangerously-skip-permissions', '$(touch pwned)', 'not-a-uuid'];
  const VALID = 'aaaabbbb-0000-4000-8000-00000000c0de';
  const write = (id: string, cwd = '/tmp/cc-fixture/hostile') =>
    writeSession(
      env.CLAUDE_CONFIG_DIR as string,
      { id, cwd, start: new Date(NOW.getTime() - 60_000), turns: [{ prompt: `hello ${id}`, answer: 'ok' }] },
      createRng(9),
    );

  it('are skipped with a warning naming the file, and never listed, at init and at every later sync', async () => {
    const files = HOSTILE.map((id) => write(id).file);
    const init = await cli(['init']);
    expect(init.code).toBe(0);
    for (const file of files)
      expect(init.stderr).toContain(`跳过 ${file}：名字不是 Claude Code 的会话 ID（UUID），不会列出，也不能恢复`);
    for (const args of [['list', '--json', '--limit', '100'], ['sync'], ['list', '--json', '--limit', '100']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(0);
      for (const id of HOSTILE) expect(r.stdout, args.join(' ')).not.toContain(id);
    }
    const reg = JSON.parse(fs.readFileSync(registryFile, 'utf8'));
    expect(Object.keys(reg.sessions).filter((id) => HOSTILE.includes(id))).toEqual([]);
    expect(fs.readFileSync(path.join(ccHome, 'scan-cache.json'), 'utf8')).not.toMatch(/hello --dangerously/);
    // In English too.
    fs.writeFileSync(path.join(ccHome, 'config.toml'), '[general]\nlanguage = "en"\n', { mode: 0o600 });
    const en = await cli(['init']);
    expect(en.stderr).toContain(`Skipped ${files[0]}: its name is not a Claude Code session id (a UUID)`);
  });

  it('init, sync (read again or answered from the cache) and doctor say how many files were skipped', async () => {
    for (const id of HOSTILE) write(id);
    write(VALID);
    const skipped = `跳过 ${HOSTILE.length} 个 .jsonl 文件：名字不是 Claude Code 的会话 ID（UUID），不会列出，也不能恢复`;
    const init = await cli(['init']);
    expect(init.stdout).toContain(skipped);
    expect(JSON.parse((await cli(['init', '--json'])).stdout).skipped_not_session_ids).toBe(HOSTILE.length);
    const quiet = await cli(['sync']); // nothing changed: the file warnings are not repeated, the count is
    expect(quiet.stdout).toContain(skipped);
    expect(quiet.stderr).not.toContain('--dangerously-skip-permissions');
    write('still-not-a-uuid');
    const changed = await cli(['sync', '--json']);
    expect(JSON.parse(changed.stdout).skipped_not_session_ids).toBe(HOSTILE.length + 1);
    const doctor = await cli(['doctor']);
    expect(doctor.stdout).toContain(
      `⚠️  ~/.claude/projects 中有 ${HOSTILE.length + 1} 个 .jsonl 文件的名字不是会话 ID（UUID），已跳过：不会列出，也不能恢复`,
    );
    const checks = JSON.parse((await cli(['doctor', '--json'])).stdout).checks as Array<{
      level: string;
      text: string;
    }>;
    expect(checks.filter((c) => c.text.includes('不是会话 ID')).map((c) => c.level)).toEqual(['warn']);
    fs.writeFileSync(path.join(ccHome, 'config.toml'), '[general]\nlanguage = "en"\n', { mode: 0o600 });
    expect((await cli(['sync'])).stdout).toContain(
      `Skipped ${HOSTILE.length + 1} .jsonl files whose name is not a Claude Code session id (a UUID)`,
    );
  });

  it('an entry an older version registered is refused by resume and dropped at the next sync', async () => {
    const hostile = write('--dangerously-skip-permissions');
    write(VALID);
    expect((await cli(['init'])).code).toBe(0);
    const reg = JSON.parse(fs.readFileSync(registryFile, 'utf8'));
    const entry = { ...reg.sessions[VALID], jsonl_path: hostile.file };
    reg.sessions['--dangerously-skip-permissions'] = entry;
    reg.sessions['$(touch pwned)'] = { ...entry, jsonl_path: null, status: 'active' };
    fs.writeFileSync(registryFile, JSON.stringify(reg));
    fs.rmSync(path.join(ccHome, 'scan-cache.sync.json'), { force: true }); // as an older version left it: no state of this one

    for (const id of ['--dangerously-skip-permissions', '$(touch pwned)']) {
      const r = await cli(['resume', '--', id]);
      expect(r.code, id).toBe(65);
      oneLineNoStack(r);
      expect(r.stderr).toContain(`${id} 不是 Claude Code 的会话 ID（UUID），不能恢复`);
      expect(r.stdout).not.toContain('claude --resume');
    }
    const sync = await cli(['sync']);
    expect(sync.code).toBe(0);
    expect(sync.stderr).toContain(`跳过 ${hostile.file}：名字不是 Claude Code 的会话 ID`);
    const after = JSON.parse(fs.readFileSync(registryFile, 'utf8'));
    expect(Object.keys(after.sessions)).toContain(VALID);
    expect(Object.keys(after.sessions).filter((id) => !/^[0-9a-f-]{36}$/.test(id))).toEqual([]);
    expect((await cli(['resume', '--', '--dangerously-skip-permissions'])).code).toBe(1); // not found any more
  });

  it('the printed resume command quotes a directory with spaces and $(…)', async () => {
    const cwd = '/tmp/cc fixture/$(touch pwned)';
    write(VALID, cwd);
    expect((await cli(['init'])).code).toBe(0);
    const r = await cli(['resume', VALID.slice(0, 8)]);
    expect(r.code).toBe(0);
    // `claude` when it is on this machine's PATH, else the bundled binary's path (quoted when needed).
    const program = shellQuote(claudeProgramFor('', env, env.HOME as string));
    expect(r.stdout).toContain(`cd '${cwd}' && ${program} --resume ${VALID}`);
  });
});

describe('bad config', () => {
  it('a wrong type stops with one line and exit 78, an unknown key is a warning', async () => {
    fs.mkdirSync(ccHome, { recursive: true });
    fs.writeFileSync(path.join(ccHome, 'config.toml'), '[scanner]\nmax_file_size = "big"\n');
    const bad = await cli(['init']);
    expect(bad.code).toBe(78);
    oneLineNoStack(bad);
    expect(bad.stderr).toContain('max_file_size');
    expect(fs.existsSync(registryFile)).toBe(false);
    fs.writeFileSync(path.join(ccHome, 'config.toml'), '[scanner]\nmax_file_sise = 5\n');
    const typo = await cli(['init']);
    expect(typo.code).toBe(0);
    expect(typo.stderr).toContain('max_file_sise');
  });
});

describe('bad registry', () => {
  it('a registry written by a newer schema: read and write commands refuse, the file is untouched', async () => {
    fs.mkdirSync(ccHome, { recursive: true });
    const newer = JSON.stringify({
      version: REGISTRY_SCHEMA + 1,
      updated_at: NOW.toISOString(),
      sessions: {},
      shiny: true,
    });
    fs.writeFileSync(registryFile, newer);
    for (const args of [['list'], ['sync'], ['init'], ['clean'], ['show', 'abc']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(65);
      oneLineNoStack(r);
      expect(r.stderr).toContain(`schema ${REGISTRY_SCHEMA + 1}`);
    }
    expect(fs.readFileSync(registryFile, 'utf8')).toBe(newer);
  });

  it('a half-written registry is recovered from the latest valid backup, with a warning', async () => {
    expect((await cli(['init'])).code).toBe(0);
    expect((await cli(['sync'])).code).toBe(0);
    fs.rmSync(path.join(env.CLAUDE_CONFIG_DIR as string, 'projects', '-tmp-cc-fixture-basic'), { recursive: true });
    expect((await cli(['sync'])).code).toBe(0); // a real change: rotates a backup
    const good = fs.readFileSync(registryFile, 'utf8');
    fs.writeFileSync(registryFile, good.slice(0, Math.floor(good.length / 2)));
    const list = await cli(['list', '--json']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain('已从备份');
    expect(JSON.parse(list.stdout).length).toBeGreaterThan(5);
    const sync = await cli(['sync']);
    expect(sync.code).toBe(0);
    expect(() => JSON.parse(fs.readFileSync(registryFile, 'utf8'))).not.toThrow();
  });

  it('a half-written registry without a backup: one line, exit 65, nothing rewritten', async () => {
    fs.mkdirSync(ccHome, { recursive: true });
    fs.writeFileSync(registryFile, '{"version":4,"updated_at":"2026-');
    for (const args of [['list'], ['sync'], ['status']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(65);
      oneLineNoStack(r);
    }
    expect(fs.readFileSync(registryFile, 'utf8')).toBe('{"version":4,"updated_at":"2026-');
  });

  it('a registry with one malformed entry drops only that entry, with a warning', async () => {
    expect((await cli(['init'])).code).toBe(0);
    const reg = JSON.parse(fs.readFileSync(registryFile, 'utf8'));
    const [first] = Object.keys(reg.sessions);
    reg.sessions[first as string] = { cwd: 42 };
    fs.writeFileSync(registryFile, JSON.stringify(reg));
    const r = await cli(['list', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('1 条会话记录格式错误');
    expect(JSON.parse(r.stdout).length).toBe(Object.keys(reg.sessions).length - 1);
  });
});

describe('a running cc-linker start (live owner lock)', () => {
  let child: ChildProcess | null = null;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = null;
  });

  it('init refuses; sync, clean and repair ask the daemon, and one that does not answer is a clear error; list and status still work', async () => {
    expect((await cli(['init'])).code).toBe(0);
    child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const pid = child.pid as number;
    fs.mkdirSync(path.join(ccHome, 'runtime'), { recursive: true });
    fs.writeFileSync(
      path.join(ccHome, 'runtime', 'owner.lock'),
      JSON.stringify({
        pid,
        startTime: processStartTime(pid),
        startedAt: NOW.toISOString(),
        host: os.hostname(),
        token: 't',
      }),
    );
    const before = fs.readFileSync(registryFile, 'utf8');
    // The fake owner has no request socket: the three that go to the daemon say it did not answer.
    for (const args of [['init'], ['sync'], ['clean'], ['repair', '00000001']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(75);
      oneLineNoStack(r);
      expect(r.stderr).toContain(`pid ${pid}`);
      if (args[0] === 'init') expect(r.stderr).toContain('cc-linker stop');
      else expect(r.stderr).toMatch(/cc-linker status.*cc-linker stop/);
    }
    expect(fs.readFileSync(registryFile, 'utf8')).toBe(before);
    expect((await cli(['list'])).code).toBe(0);
    expect((await cli(['status'])).code).toBe(0);
    expect((await cli(['clean', '--dry-run'])).code).toBe(0);
  });
});
