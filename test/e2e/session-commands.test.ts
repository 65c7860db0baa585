/**
 * Golden tests of every terminal session command, human and --json output, zh and en, run
 * in-process against a generated ~/.claude tree (test/fixtures/claude-case-tree.ts) with a fixed clock.
 * Goldens live in test/e2e/golden/sessions/; temp paths are replaced by <TMP>.
 */
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseId, writeCaseTree, type CaseTree } from '../fixtures/claude-case-tree.js';
import { createRng, writeSession } from '../fixtures/claude-tree.js';
import { normalize, runSessionCli, type CliRun } from '../helpers/run-session-cli.js';

process.env.TZ = 'UTC';
const NOW = new Date('2026-06-01T12:00:00.000Z');
const NEW_ID = 'feedbeef-0000-4000-8000-000000000099';
let tmp: string;
let env: NodeJS.ProcessEnv;
let tree: CaseTree;
let ccHome: string;

const golden = (name: string) => path.join(__dirname, 'golden', 'sessions', `${name}.txt`);
const REPO = path.resolve(__dirname, '..', '..');
/** The transcript of one run, with temp paths, the repo path, the registry's real mtime and the build-dependent hook-script notice normalised. */
const render = (args: string[], r: CliRun) =>
  normalize(`$ cc-linker ${args.join(' ')}\n[exit ${r.code}]\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}\n`, tmp)
    .split(REPO)
    .join('<REPO>')
    .replace(/"modified": "[^"]+"/g, '"modified": "<MTIME>"')
    .replace(/^⚠️ {2}hook 脚本不存在：.*\n/m, '')
    .replace(/\n+$/, '\n');

async function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runSessionCli(args, { env: { ...env, ...extraEnv }, now: NOW });
}

async function expectGolden(name: string, args: string[], code = 0, extraEnv: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const r = await cli(args, extraEnv);
  await expect(render(args, r)).toMatchFileSnapshot(golden(name));
  expect(r.code).toBe(code);
  return r;
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-cmd-')));
  const home = path.join(tmp, 'home');
  ccHome = path.join(home, '.cc-linker');
  const PATH = pathWithoutDevAgents();
  env = { HOME: home, CC_LINKER_HOME: ccHome, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), PATH };
  tree = writeCaseTree(path.join(home, '.claude'), NOW);
  fs.mkdirSync(path.join(ccHome, 'runtime', 'session-events'), { recursive: true, mode: 0o700 });
  const fakeClaude = path.join(tmp, 'fake-claude');
  // A stand-in `claude`: prints a version, or records where and how it was started and exits 3.
  fs.writeFileSync(
    fakeClaude,
    '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi\necho "$PWD $*" > "$FAKE_CLAUDE_OUT"\nexit 3\n',
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(ccHome, 'config.toml'), `[general]\nclaude_bin = "${fakeClaude}"\n`, { mode: 0o600 });
  const basic = tree.sessions.basic;
  fs.writeFileSync(
    path.join(ccHome, 'user-mapping.json'),
    JSON.stringify({
      version: 3,
      ownerOpenId: 'ou_owner',
      entries: {
        ou_owner: {
          type: 'session',
          sessionUuid: basic.id,
          cwd: basic.cwd,
          createdAt: NOW.toISOString(),
          casToken: 'x',
          lastActiveAt: NOW.toISOString(),
          origin: 'feishu',
          defaultProvider: 'claude-opus-4',
        },
      },
    }),
  );
  fs.writeFileSync(
    path.join(ccHome, 'runtime', 'session-events', 'e1.json'),
    JSON.stringify({
      session_id: NEW_ID,
      cwd: '/tmp/cc-fixture/new',
      transcript_path: path.join(home, '.claude', 'projects', '-tmp-cc-fixture-new', `${NEW_ID}.jsonl`),
      source: 'startup',
      time: new Date(NOW.getTime() - 60_000).toISOString(),
    }),
  );
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('session commands (golden, zh)', () => {
  it('list before init says to run init', async () => {
    await expectGolden('list-before-init', ['list'], 66);
  });

  it('init registers every session, restores Feishu origin, merges the hook event', async () => {
    await expectGolden('init', ['init']);
    const reg = JSON.parse(fs.readFileSync(path.join(ccHome, 'registry.json'), 'utf8'));
    expect(reg.version).toBe(6);
    expect(reg.sessions[tree.sessions.basic.id]).toMatchObject({ origin: 'feishu', feishu_user_id: 'ou_owner' });
    expect(reg.sessions[NEW_ID]).toMatchObject({ status: 'provisioning', jsonl_path: null });
    expect(fs.readdirSync(path.join(ccHome, 'runtime', 'session-events'))).toEqual([]);
    expect(fs.statSync(path.join(ccHome, 'registry.json')).mode & 0o777).toBe(0o600);
  });

  it('sync with nothing changed reads no file and keeps the registry', async () => {
    const before = fs.statSync(path.join(ccHome, 'registry.json')).mtimeMs;
    await expectGolden('sync', ['sync']);
    const json = await cli(['sync', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ read: 2, cached: 14, total: 15 });
    expect(fs.statSync(path.join(ccHome, 'registry.json')).mtimeMs).toBe(before);
  });

  it('list, with filters and as JSON', async () => {
    await expectGolden('list', ['list']);
    await expectGolden('list-json-limit', ['list', '--json', '--limit', '2']);
    await expectGolden('list-origin-feishu', ['list', '--origin', 'feishu']);
    await expectGolden('list-origin-web', ['list', '--origin', 'web']);
    await expectGolden('list-status-archived', ['list', '--status', 'archived']);
    await expectGolden('list-project', ['list', '--project', 'a-b']);
    await expectGolden('list-bad-status', ['list', '--status', 'nope'], 1);
  });

  it('list reads the small list index when it matches the registry, and prints the same as from the registry', async () => {
    const index = path.join(ccHome, 'registry.list-index.json');
    expect(fs.existsSync(index)).toBe(true); // written with the registry by init/sync
    // The same output from the index and from the registry: all rows, the first rows only (no
    // filter: only those are read), and with a filter (all rows read, then filtered).
    for (const args of [
      ['list', '--limit', '50'],
      ['list', '--limit', '3'],
      ['list', '--origin', 'cli', '--limit', '3'],
    ]) {
      const fromIndex = await cli(args);
      fs.rmSync(index);
      const fromRegistry = await cli(args);
      expect(fromRegistry, args.join(' ')).toEqual(fromIndex);
      // …and the full read left an index behind for the next run.
      expect(fs.existsSync(index)).toBe(true);
    }
    const [header, ...rows] = fs.readFileSync(index, 'utf8').trimEnd().split('\n');
    const stale = { ...(JSON.parse(header as string) as object), registry: 'not:the:registry' };
    const staleRows = rows.map((line) => {
      const r = JSON.parse(line) as unknown[];
      return JSON.stringify([r[0], r[1], r[2], 'STALE TITLE', ...r.slice(4)]);
    });
    fs.writeFileSync(index, `${[JSON.stringify(stale), ...staleRows].join('\n')}\n`);
    expect((await cli(['list', '--limit', '50'])).stdout).not.toContain('STALE TITLE');
  });

  it('show, an ambiguous prefix and an unknown id', async () => {
    await expectGolden('show', ['show', caseId('basic').slice(0, 8)]);
    await expectGolden('show-json', ['show', caseId('cjk'), '--json']);
    await expectGolden('show-ambiguous', ['show', '0000'], 1);
    await expectGolden('show-unknown', ['show', 'zzzz'], 1);
  });

  it('search in metadata and in content', async () => {
    await expectGolden('search', ['search', 'readme']);
    await expectGolden('search-json', ['search', 'README', '--json']);
    await expectGolden('search-content', ['search', 'quick start', '--content']);
    await expectGolden('search-none', ['search', 'no-such-text']);
    await expectGolden('search-limit', ['search', 'a', '--limit', '2']);
    await expectGolden('search-bad-limit', ['search', 'a', '--limit', '0'], 1);
  });

  it('export in the three formats, to stdout and to a file', async () => {
    const id = caseId('basic').slice(0, 8);
    await expectGolden('export-markdown', ['export', id]);
    await expectGolden('export-markdown-thinking', ['export', id, '--thinking']);
    await expectGolden('export-json', ['export', id, '--format', 'json']);
    await expectGolden('export-text', ['export', id, '--format', 'text']);
    const file = path.join(tmp, 'out', 'session.md');
    await expectGolden('export-output', ['export', id, '--output', file]);
    expect(fs.readFileSync(file, 'utf8')).toContain('# Improve README and create acceptance guide');
    await expectGolden('export-bad-format', ['export', id, '--format', 'pdf'], 1);
  });

  it('status and hook status', async () => {
    await expectGolden('status', ['status']);
    await expectGolden('status-json', ['status', '--json']);
    await expectGolden('hook-status', ['hook', 'status']);
  });

  it('resume follows the status rules', async () => {
    await expectGolden('resume', ['resume', caseId('cjk').slice(0, 8)]);
    await expectGolden('resume-archived', ['resume', caseId('old-archived').slice(0, 8)]);
    await expectGolden('resume-corrupted', ['resume', caseId('binary-garbage').slice(0, 8)], 1);
    await expectGolden('resume-provisioning', ['resume', NEW_ID.slice(0, 8)], 75);
  });

  it('resume --exec runs claude --resume in the session directory and passes its exit code on', async () => {
    const proj = path.join(tmp, 'proj dir');
    fs.mkdirSync(proj);
    const w = writeSession(
      env.CLAUDE_CONFIG_DIR as string,
      {
        id: 'c0ffee00-0000-4000-8000-000000000001',
        cwd: proj,
        start: new Date(NOW.getTime() - 60_000),
        turns: [{ prompt: 'exec me', answer: 'ok' }],
      },
      createRng(3),
    );
    expect((await cli(['sync'])).code).toBe(0);
    const outFile = path.join(tmp, 'claude-ran.txt');
    await expectGolden('resume-exec', ['resume', 'c0ffee00', '--exec'], 3, { FAKE_CLAUDE_OUT: outFile });
    expect(fs.readFileSync(outFile, 'utf8').trim()).toBe(`${proj} --resume=${w.id}`); // one argument
    await expectGolden('resume-exec-no-cwd', ['resume', caseId('cjk').slice(0, 8), '--exec'], 1);
  });

  it('repair finds a provisioning session once its file exists', async () => {
    await expectGolden('repair-missing', ['repair', NEW_ID.slice(0, 8)], 1);
    const dir = path.join(env.HOME as string, '.claude', 'projects', '-tmp-cc-fixture-new');
    fs.mkdirSync(dir, { recursive: true });
    const src = fs
      .readFileSync(tree.sessions['collide-dash'].file, 'utf8')
      .split(tree.sessions['collide-dash'].id)
      .join(NEW_ID)
      .split('/tmp/cc-fixture/a-b')
      .join('/tmp/cc-fixture/new');
    fs.writeFileSync(path.join(dir, `${NEW_ID}.jsonl`), src);
    await expectGolden('repair-found', ['repair', NEW_ID.slice(0, 8)]);
    await expectGolden('show-repaired', ['show', NEW_ID.slice(0, 8)]);
  });

  it('clean: dry run, then for real', async () => {
    fs.rmSync(tree.sessions['collide-slash'].file);
    await expectGolden('sync-after-delete', ['sync']);
    await expectGolden('clean-dry-run', ['clean', '--dry-run']);
    await expectGolden('clean-dry-run-json', ['clean', '--dry-run', '--json']);
    await expectGolden('clean', ['clean']);
    expect(fs.existsSync(tree.sessions['empty-file'].file)).toBe(false);
    expect(fs.existsSync(tree.sessions.basic.file)).toBe(true);
    await expectGolden('clean-nothing', ['clean']);
  });

  it('hook install, status, uninstall keep the other settings', async () => {
    const settings = path.join(env.CLAUDE_CONFIG_DIR as string, 'settings.json');
    const other = {
      model: 'opus',
      hooks: {
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo other' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }],
      },
    };
    fs.writeFileSync(settings, JSON.stringify(other, null, 2));
    await expectGolden('hook-install', ['hook', 'install']);
    const installed = JSON.parse(fs.readFileSync(settings, 'utf8'));
    expect(installed.model).toBe('opus');
    expect(installed.hooks.Stop).toEqual(other.hooks.Stop);
    expect(installed.hooks.SessionStart).toHaveLength(2);
    expect(installed.hooks.SessionStart[0]).toEqual(other.hooks.SessionStart[0]);
    await expectGolden('hook-install-again', ['hook', 'install']);
    await expectGolden('hook-status-installed', ['hook', 'status', '--json']);
    await expectGolden('hook-uninstall', ['hook', 'uninstall']);
    expect(JSON.parse(fs.readFileSync(settings, 'utf8'))).toEqual(other);
    await expectGolden('hook-uninstall-again', ['hook', 'uninstall']);
  });

  it('doctor', async () => {
    await expectGolden('doctor', ['doctor']);
    await expectGolden('doctor-json', ['doctor', '--json']);
  });

  it('doctor reports a config it cannot use and runs the other checks on the defaults', async () => {
    const configFile = path.join(ccHome, 'config.toml');
    fs.writeFileSync(configFile, '[general]\nlanguage = 5\n[scanner]\nmax_file_size = "big"\n', { mode: 0o600 });
    try {
      const r = await expectGolden('doctor-bad-config', ['doctor'], 1);
      expect(r.stdout).toContain('Node.js');
      expect(r.stdout).toContain('general.language = 5');
      expect(r.stdout).toContain('scanner.max_file_size = "big"');
      // Any other command still stops on the config, with exit 78.
      expect((await cli(['status'])).code).toBe(78);
    } finally {
      fs.rmSync(configFile);
    }
  });
});

describe('session commands (golden, en)', () => {
  it('list, show, status and an error in English', async () => {
    fs.writeFileSync(
      path.join(ccHome, 'config.toml'),
      `[general]\nlanguage = "en"\nclaude_bin = "${path.join(tmp, 'fake-claude')}"\n`,
    );
    try {
      await expectGolden('en-list', ['list', '--limit', '3']);
      await expectGolden('en-show', ['show', caseId('basic').slice(0, 8)]);
      await expectGolden('en-status', ['status']);
      await expectGolden('en-show-ambiguous', ['show', '0000'], 1);
      await expectGolden('en-clean-dry-run', ['clean', '--dry-run']);
    } finally {
      fs.writeFileSync(
        path.join(ccHome, 'config.toml'),
        `[general]\nclaude_bin = "${path.join(tmp, 'fake-claude')}"\n`,
      );
    }
  });
});
