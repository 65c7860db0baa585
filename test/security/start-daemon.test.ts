/**
 * Security review: `cc-linker start --daemon` redirects the background process's stdout into the
 * log file (`~/.cc-linker/cc-linker.log`). The foreground start prints the console URL with its
 * token on stdout — in the daemon that line must not carry the token into the log. The token is
 * shown once, by the parent, on the user's terminal. No `web.token` is configured here, so the
 * token is generated and kept in `~/.cc-linker/web-token` (0600), the one file allowed to hold it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSecrets, plantSecrets, secretEnv, walkEntries, walkFiles } from './secrets.js';
import { runCli, type CliResult } from './system-run.js';

const secrets = plantSecrets();
let root: string;
let ccHome: string;
let started: CliResult;
let stopped: CliResult;
let token: string;

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-sec-daemon-')));
  const home = path.join(root, 'home');
  ccHome = path.join(home, '.cc-linker');
  fs.mkdirSync(path.join(home, 'Git'), { recursive: true });
  fs.mkdirSync(ccHome, { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(ccHome, 'config.toml'),
    `[general]\nlog_level = "debug"\n\n[feishu_bot]\napp_secret = "${secrets.feishuSecretInFile}"\n`,
    { mode: 0o600 },
  );
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    CC_LINKER_HOME: ccHome,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    ...secretEnv(secrets),
  };
  started = await runCli(['start', '--daemon', '--no-feishu', '--port', '0'], env, 90_000);
  stopped = await runCli(['stop'], env, 90_000);
  token = fs.readFileSync(path.join(ccHome, 'web-token'), 'utf8').trim();
}, 200_000);

afterAll(() => {
  // Should `stop` have failed, end the daemon this test started (by its pid file), then clean up.
  const pidFile = ccHome ? path.join(ccHome, 'runtime', 'cc-linker.pid') : '';
  if (pidFile && fs.existsSync(pidFile)) {
    const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('start --daemon', () => {
  it('started and stopped the background process', () => {
    expect(started.code).toBe(0);
    expect(stopped.code).toBe(0);
  });

  it('shows the console URL with the token once, on the terminal of the user who started it', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(started.stdout.split(token)).toHaveLength(2);
    expect(started.stdout).toContain(`?token=${token}`);
    expect(started.stderr).not.toContain(token);
    expect(findSecrets(started.stdout + started.stderr + stopped.stdout + stopped.stderr, secrets)).toEqual([]);
  });

  it('writes no secret into the log file the daemon writes its output to', () => {
    const log = fs.readFileSync(path.join(ccHome, 'cc-linker.log'), 'utf8');
    expect(log).toContain('http://127.0.0.1:'); // the console line is there, without its token
    expect(log).not.toContain(token);
    expect(findSecrets(log, secrets)).toEqual([]);
    for (const f of walkFiles(ccHome).filter((f) => f !== 'web-token' && f !== 'config.toml'))
      expect(fs.readFileSync(path.join(ccHome, f), 'latin1'), f).not.toContain(token);
  });

  it('leaves nothing readable by others and no ready file behind', () => {
    const entries = walkEntries(ccHome);
    expect(entries.filter((e) => e.rel.includes('daemon-ready'))).toEqual([]);
    expect(
      entries
        .filter((e) => (e.kind === 'dir' ? e.mode !== 0o700 : e.mode !== 0o600))
        .map((e) => `${e.rel} ${e.mode.toString(8)}`),
    ).toEqual([]);
  });
});
