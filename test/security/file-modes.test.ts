/**
 * Security review: the modes of what cc-linker writes and of what the user wrote, through the built
 * binary (`dist/cli/launcher/cc-linker.js`, as a user runs it; `npm run build` first) under umask
 * 022. Every command that writes under `~/.cc-linker` leaves its directories 0700 and its files
 * 0600 — on a home it creates and on one the user made by hand with `mkdir` (0755); the
 * SessionStart hook too. A hand-written `config.toml` others can read is the user's file: `start`
 * warns (with `chmod 600 <file>`) and `doctor` fails that check, and neither changes it.
 */
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startGatewayHarness,
  writeHarnessConfig,
  type GatewayHarness,
} from '../fakes/fake-chainlesschain/gateway-harness.js';
import { openaiTextTurn, openaiToolCallTurn } from '../fakes/fake-llm/fake-openai-server.js';
import { walkEntries } from './secrets.js';

const REPO = path.resolve(__dirname, '..', '..');
const MAIN = path.join(REPO, 'dist', 'cli', 'launcher', 'cc-linker.js');
const HOOK = path.join(REPO, 'dist', 'sessions', 'session-start-hook.cjs');
const built = fs.existsSync(MAIN) && fs.existsSync(HOOK);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `program args…` under umask 022 (what a login shell usually has), asynchronously: fakes answer in this process. */
function run022(program: string[], env: NodeJS.ProcessEnv, input = '', timeoutMs = 90_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', 'umask 022 && exec "$@"', 'sh', ...program], {
      cwd: REPO,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(input);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const cli = (args: string[], env: NodeJS.ProcessEnv) => run022([process.execPath, MAIN, ...args], env);

/** Every entry under `ccHome` (and `ccHome` itself) that is not a 0700 directory or a 0600 file, but `except`. */
function loose(ccHome: string, except: string[] = []): string[] {
  const bad: string[] = [];
  const top = fs.statSync(ccHome).mode & 0o777;
  if (top !== 0o700) bad.push(`. ${top.toString(8)}`);
  for (const e of walkEntries(ccHome)) {
    if (except.includes(e.rel)) continue;
    const want = e.kind === 'dir' ? 0o700 : 0o600;
    if (e.kind === 'other' || e.mode !== want) bad.push(`${e.rel} ${e.kind} ${e.mode.toString(8)}`);
  }
  return bad;
}

let root: string;
let n = 0;

/** A temp HOME; `handMade`: `~/.cc-linker` made by hand (`mkdir`, 0755) holding a `config.toml` of `configMode`. */
function makeHome(opts: { handMade: boolean; configMode?: number; config?: string }) {
  const home = path.join(root, `home-${(n += 1)}`);
  const ccHome = path.join(home, '.cc-linker');
  fs.mkdirSync(path.join(home, '.claude', 'projects'), { recursive: true });
  if (opts.handMade) {
    fs.mkdirSync(ccHome);
    fs.chmodSync(ccHome, 0o755);
    const config = path.join(ccHome, 'config.toml');
    fs.writeFileSync(config, opts.config ?? '[general]\nlanguage = "en"\n');
    fs.chmodSync(config, opts.configMode ?? 0o600);
  }
  const env: NodeJS.ProcessEnv = {
    PATH: pathWithoutDevAgents(),
    HOME: home,
    LANG: 'C.UTF-8',
    CC_LINKER_HOME: ccHome,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  };
  return { home, ccHome, env, config: path.join(ccHome, 'config.toml') };
}

/** Ends a daemon `start --daemon` left behind when `stop` failed (by its pid file). */
function killLeftDaemon(ccHome: string): void {
  const pidFile = path.join(ccHome, 'runtime', 'cc-linker.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8'), 10);
  try {
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sec-modes-')));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** `writes`: the command writes files under `~/.cc-linker` (`hook install` writes Claude's settings only). */
const COMMANDS: Array<{ name: string; steps: string[][]; writes: boolean }> = [
  { name: 'init', steps: [['init']], writes: true },
  { name: 'hook install', steps: [['hook', 'install']], writes: false },
  { name: 'web rotate-token', steps: [['web', 'rotate-token']], writes: true },
  {
    name: 'start --daemon, then stop',
    steps: [['start', '--daemon', '--no-feishu', '--port', '0'], ['stop']],
    writes: true,
  },
];

describe.skipIf(!built)('built CLI: what cc-linker writes under ~/.cc-linker is private (umask 022)', () => {
  for (const { name, steps, writes } of COMMANDS)
    for (const handMade of [false, true])
      it(`${name} — ${handMade ? 'a ~/.cc-linker made by hand (0755)' : 'no ~/.cc-linker yet'}`, async () => {
        const h = makeHome({ handMade });
        try {
          for (const args of steps) {
            const r = await cli(args, h.env);
            expect(r.code, `${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
          }
        } finally {
          killLeftDaemon(h.ccHome);
        }
        if (!writes && !handMade) {
          expect(fs.existsSync(h.ccHome)).toBe(false);
          return;
        }
        if (writes) expect(fs.readdirSync(h.ccHome).length).toBeGreaterThan(handMade ? 1 : 0); // it wrote something
        expect(loose(h.ccHome)).toEqual([]);
      });

  it('ask (with a cc_exec tool call, so the audit log is written) — a ~/.cc-linker made by hand (0755)', async () => {
    const h: GatewayHarness = await startGatewayHarness();
    try {
      fs.mkdirSync(h.paths.home);
      fs.chmodSync(h.paths.home, 0o755);
      writeHarnessConfig(h);
      h.openai.enqueue(
        openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: ['{"command":"note","subargs":["list"]}'] }),
        openaiTextTurn('3 notes.'),
      );
      const r = await cli(['ask', 'how many notes?'], h.env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('3 notes.');
      expect(fs.existsSync(h.paths.auditFile)).toBe(true);
      expect(fs.existsSync(h.paths.ccexecVersionFile)).toBe(true);
      expect(loose(h.paths.home)).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('the SessionStart hook script — a ~/.cc-linker made by hand (0755)', async () => {
    const h = makeHome({ handMade: true });
    const event = JSON.stringify({
      session_id: 'aaaabbbb-0000-4000-8000-00000000c0de',
      transcript_path: path.join(h.home, '.claude', 'projects', '-w', 'aaaabbbb-0000-4000-8000-00000000c0de.jsonl'),
      cwd: h.home,
      source: 'startup',
    });
    const r = await run022([process.execPath, HOOK], h.env, event);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const events = path.join(h.ccHome, 'runtime', 'session-events');
    expect(fs.readdirSync(events)).toHaveLength(1);
    expect(loose(h.ccHome)).toEqual([]);
  });
});

describe.skipIf(!built)('built CLI: a hand-written config.toml others can read', () => {
  it('start warns with the fix (zh and en) and leaves the file as it is; doctor fails that check until chmod 600', async () => {
    const zh = makeHome({ handMade: true, configMode: 0o644, config: '[general]\nlanguage = "zh"\n' });
    let started: Run;
    let stopped: Run;
    try {
      started = await cli(['start', '--daemon', '--no-feishu', '--port', '0'], zh.env);
      stopped = await cli(['stop'], zh.env);
    } finally {
      killLeftDaemon(zh.ccHome);
    }
    expect(started.code, started.stderr).toBe(0);
    expect(stopped.code).toBe(0);
    const zhWarning = `⚠️  配置文件 ~/.cc-linker/config.toml 的权限是 0644，其他用户可以读取或修改它（其中可能有飞书 app_secret、控制台 token 等密钥）。修复：chmod 600 ${zh.config}`;
    expect(started.stderr).toContain(zhWarning);
    expect(started.stderr.split(zhWarning)).toHaveLength(2); // once
    expect(fs.readFileSync(path.join(zh.ccHome, 'cc-linker.log'), 'utf8')).not.toContain('chmod 600');
    expect(fs.statSync(zh.config).mode & 0o777).toBe(0o644); // the user's file: reported, not changed
    expect(loose(zh.ccHome, ['config.toml'])).toEqual([]); // what cc-linker wrote is private all the same

    const doctor = await cli(['doctor'], zh.env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`❌ ${zhWarning.slice(4)}`);
    const json = await cli(['doctor', '--json'], zh.env);
    expect(json.code).toBe(1);
    const checks = (JSON.parse(json.stdout) as { checks: Array<{ name: string; level: string; text: string }> }).checks;
    expect(checks.find((c) => c.name === 'config_mode')).toMatchObject({ level: 'fail' });

    // Group-readable is as bad, and says so in English too.
    const en = makeHome({ handMade: true, configMode: 0o640 });
    const enDoctor = await cli(['doctor'], en.env);
    expect(enDoctor.code).toBe(1);
    expect(enDoctor.stdout).toContain(
      `❌ ~/.cc-linker/config.toml has mode 0640: other users can read or change it (it may hold secrets such as the Feishu app secret or the console token). Fix: chmod 600 ${en.config}`,
    );

    // The fix works: no failed check about the file any more.
    fs.chmodSync(zh.config, 0o600);
    const fixed = await cli(['doctor', '--json'], zh.env);
    const after = (JSON.parse(fixed.stdout) as { checks: Array<{ name: string }> }).checks;
    expect(after.map((c) => c.name)).not.toContain('config_mode');
    expect(fixed.stdout).not.toContain('chmod 600');
  });

  it('a path with a space is quoted in the fix', async () => {
    const h = makeHome({ handMade: false });
    const ccHome = path.join(h.home, 'my cc');
    fs.mkdirSync(ccHome, { mode: 0o700 });
    const config = path.join(ccHome, 'config.toml');
    fs.writeFileSync(config, '[general]\nlanguage = "en"\n', { mode: 0o666 });
    fs.chmodSync(config, 0o666);
    const r = await cli(['doctor'], { ...h.env, CC_LINKER_HOME: ccHome });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`has mode 0666`);
    expect(r.stdout).toContain(`Fix: chmod 600 '${config}'`);
  });
});
