/**
 * A few session commands through the built binary (`dist/cli/launcher/cc-linker.js`, the package's
 * `bin`, as a user runs it): exit codes, stdout/stderr separation, one-line errors without a stack
 * trace, and help, usage errors and `--version` as commander gives them. `npm test` builds first;
 * the test is skipped (and says so) while the program does not register the commands yet.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCaseTree } from '../fixtures/claude-case-tree.js';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'launcher', 'cc-linker.js');
const help = fs.existsSync(MAIN)
  ? spawnSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8', timeout: 20_000 }).stdout
  : '';
const registered = /\binit\b/.test(help) && /\blist\b/.test(help);

let tmp: string;
let env: NodeJS.ProcessEnv;
const run = (...args: string[]) =>
  spawnSync(process.execPath, [MAIN, ...args], { env, encoding: 'utf8', timeout: 30_000 });

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-built-'));
  const home = path.join(tmp, 'home');
  env = {
    PATH: process.env.PATH,
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  };
  writeCaseTree(path.join(home, '.claude'), new Date());
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!registered)('built CLI: session commands', () => {
  it('service status tells an installed definition from one another version wrote', () => {
    expect(run('service', 'status').status).toBe(1);
    expect(run('service', 'install').status).toBe(0);
    const current = run('service', 'status');
    expect(current.status, current.stdout).toBe(0);
    const unitFile = /(\/\S+?\.(?:service|plist))/.exec(current.stdout)?.[1] as string;
    if (process.platform !== 'linux') return;
    expect(fs.readFileSync(unitFile, 'utf8')).toContain(`${MAIN} start`);
    // A unit written before the launcher moved pointed at dist/cli/main.js, which no longer exists.
    fs.writeFileSync(
      unitFile,
      fs.readFileSync(unitFile, 'utf8').replace(MAIN, MAIN.replace(/launcher\/cc-linker\.js$/, 'main.js')),
    );
    const stale = run('service', 'status');
    expect(stale.status).toBe(1);
    expect(stale.stdout).toMatch(/service install/);
    expect(run('service', 'install').status).toBe(0);
    expect(run('service', 'status').status).toBe(0);
  });

  it('init, list --json, show: results on stdout, warnings on stderr', () => {
    const init = run('init');
    expect(init.status).toBe(0);
    expect(init.stdout).toContain('共登记 14 个会话');
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

  it('help, usage errors and --version come from commander; subcommands run', () => {
    const version = run('--version');
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = run('list', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--limit <n>');
    const bad = run('list', '--limit', '0');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("option '--limit <n>' argument '0' is invalid");
    const unknown = run('lst');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('(Did you mean list?)');
    const hook = run('hook', 'status', '--json');
    expect(hook.status).toBe(0);
    expect(JSON.parse(hook.stdout)).toHaveProperty('claude_code');
  });

  it('search finds what init registered', () => {
    fs.rmSync(env.CC_LINKER_HOME as string, { recursive: true, force: true });
    expect(run('init').status).toBe(0);
    const found = run('search', 'README', '--json');
    expect(found.status).toBe(0);
    expect((JSON.parse(found.stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it('init, sync and list start without loading node:crypto (≈ 3 ms of every start)', () => {
    // node:child_process is not checked: commander, which parses every command line, requires it
    // when it loads (and, through it, node:net) — it is the probe's proof that it sees a module.
    // The probe also notes whether process.stderr was made (≈ 2–3 ms for a pipe); it writes to fd 2 itself.
    const probe = path.join(tmp, 'loaded-modules.cjs');
    fs.writeFileSync(
      probe,
      "const d = Object.getOwnPropertyDescriptor(process, 'stderr'); let made = false;\n" +
        "Object.defineProperty(process, 'stderr', { configurable: true, get() { made = true; return d.get.call(process); } });\n" +
        "process.on('exit', () => require('node:fs').writeSync(2, '\\nLOADED ' + process.moduleLoadList.filter((m) => /^NativeModule (crypto|child_process)$/.test(m)).join(',') + ' STDERR ' + made + '\\n'));\n",
    );
    const loaded = (...args: string[]) => {
      const r = spawnSync(process.execPath, ['--require', probe, MAIN, ...args], {
        env,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status, r.stderr).toBe(args.includes('--limit') ? 1 : 0);
      return /LOADED (.*) STDERR (\w+)\n/.exec(r.stderr)?.slice(1);
    };
    fs.rmSync(env.CC_LINKER_HOME as string, { recursive: true, force: true });
    expect(loaded('init')?.[0]).toBe('NativeModule child_process');
    expect(loaded('sync')?.[0]).toBe('NativeModule child_process');
    // a quiet command never makes process.stderr (the progress question and the logger do not)
    expect(loaded('list')).toEqual(['NativeModule child_process', 'false']);
    expect(loaded('list', '--limit', '0')?.[1]).toBe('true'); // a usage error, on stderr
  });

  it('the bundled SessionStart hook, which hook install points Claude at, records the session like the module', () => {
    const sessionsDir = path.resolve(path.dirname(MAIN), '..', '..', 'sessions');
    const events = path.join(env.CC_LINKER_HOME as string, 'runtime', 'session-events');
    fs.rmSync(events, { recursive: true, force: true });
    for (const script of ['session-start-hook.cjs', 'session-start-hook.js']) {
      const input = JSON.stringify({
        session_id: `s-${script}`,
        cwd: '/w/p',
        transcript_path: '/c/p/s.jsonl',
        source: 'startup',
      });
      const r = spawnSync(process.execPath, [path.join(sessionsDir, script)], {
        input,
        env: { PATH: process.env.PATH, CC_LINKER_HOME: env.CC_LINKER_HOME },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect([r.status, r.stdout, r.stderr], script).toEqual([0, '', '']);
    }
    const written = fs
      .readdirSync(events)
      .map((f) => JSON.parse(fs.readFileSync(path.join(events, f), 'utf8')) as { session_id: string; cwd: string });
    expect(written.map((e) => [e.session_id, e.cwd]).sort()).toEqual([
      ['s-session-start-hook.cjs', '/w/p'],
      ['s-session-start-hook.js', '/w/p'],
    ]);
    const settings = path.join(env.CLAUDE_CONFIG_DIR as string, 'settings.json');
    expect(run('hook', 'install').status).toBe(0);
    expect(fs.readFileSync(settings, 'utf8')).toContain(path.join(sessionsDir, 'session-start-hook.cjs'));
    expect(run('hook', 'uninstall').status).toBe(0);
  });
});
