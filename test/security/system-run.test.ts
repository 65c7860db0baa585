/**
 * Security review, checks 1 and 2, on one realistic run of `cc-linker start` (system-run.ts):
 * no planted secret in any file under ~/.cc-linker (except the config file), any log line, any
 * stdout/stderr, any web page or API answer, any message a Feishu user saw, any audit record or
 * any request body sent to a model; no secret in the environment of the fake ChainlessChain CLI,
 * only the Anthropic key in Claude Code's; and every directory under ~/.cc-linker 0700, every
 * file 0600.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClaudeEnv } from '../../src/claude/claude-env.js';
import { findSecrets, secretEnv, walkEntries, walkFiles } from './secrets.js';
import { runSystem, type SystemRun } from './system-run.js';

let run: SystemRun;

beforeAll(async () => {
  run = await runSystem();
}, 300_000);

afterAll(async () => {
  await run?.cleanup();
});

/** Files that hold secrets by design: the config file (and setup's backup of it). */
const CONFIG_FILES = new Set(['config.toml', 'config.toml.bak']);

describe('the run itself', () => {
  it('went through every flow', () => {
    expect(run.notes).toEqual(
      expect.arrayContaining([
        'started',
        'feishu conversation',
        'stranger refused',
        'feishu faults',
        'feishu /cc',
        'provider 401s',
        'web chat with tools',
        'console bridge',
        'web pages',
      ]),
    );
    expect(run.startExit).toBe(0);
  });
});

describe('check 1: no secret anywhere', () => {
  it('no file under ~/.cc-linker holds a secret, except config.toml', () => {
    const files = walkFiles(run.ccHome);
    // The grep is meaningful only if the run really wrote logs, spool records, the audit log, the outbox.
    expect(files).toEqual(
      expect.arrayContaining(['cc-linker.log', 'registry.json', 'ccexec/audit.jsonl', 'web/outbox.jsonl']),
    );
    expect(files.some((f) => f.startsWith('spool/done/'))).toBe(true);
    expect(fs.statSync(path.join(run.ccHome, 'cc-linker.log')).size).toBeGreaterThan(2000);
    const leaks = files
      .filter((f) => !CONFIG_FILES.has(f))
      .flatMap((f) =>
        findSecrets(fs.readFileSync(path.join(run.ccHome, f), 'latin1'), run.secrets).map((s) => `${f}: ${s}`),
      );
    expect(leaks).toEqual([]);
  });

  it('the log file shows the failures it handled, without their secrets', () => {
    const log = fs.readFileSync(path.join(run.ccHome, 'cc-linker.log'), 'utf8');
    expect(log).toMatch(/\*\*\*/); // something was redacted: the hostile Feishu / provider answers
    expect(findSecrets(log, run.secrets)).toEqual([]);
  });

  it('no captured stdout/stderr, web page, API answer, Feishu message or ack holds a secret', () => {
    expect(run.captures.length).toBeGreaterThan(40);
    const leaks = run.captures.flatMap((c) => findSecrets(c.text, run.secrets).map((s) => `${c.label}: ${s}`));
    expect(leaks).toEqual([]);
  });

  it('cc-linker start prints the console URL (with the token) once on stdout and no secret anywhere else', () => {
    const lines = run.startStdout.split('\n');
    const withToken = lines.filter((l) => findSecrets(l, run.secrets).length > 0);
    expect(withToken).toHaveLength(1);
    expect(withToken[0]).toMatch(new RegExp(`http://127\\.0\\.0\\.1:\\d+/\\?token=${run.secrets.webToken}$`));
    expect(findSecrets(withToken[0] as string, run.secrets)).toEqual(['webToken']);
    expect(findSecrets(run.startStderr, run.secrets)).toEqual([]);
  });

  it('the terminal commands ran and print no secret (doctor, status, list, show, search, stop, setup)', () => {
    for (const r of run.cli)
      expect({ args: r.args, code: r.code === null ? 'killed' : 'exited' }).toEqual({ args: r.args, code: 'exited' });
    expect(run.cli.find((r) => r.args.join(' ') === 'list --json')?.code).toBe(0);
    expect(run.cli.find((r) => r.args.join(' ') === 'doctor --json')?.stdout).toContain('"checks"');
    for (const r of run.cli) expect(findSecrets(r.stdout + r.stderr, run.secrets), r.args.join(' ')).toEqual([]);
  });

  it('no request body sent to a model service holds a secret, and each carries only its own key', () => {
    const requests = [...run.openai.requests, ...run.anthropic.requests];
    expect(requests.length).toBeGreaterThan(5);
    for (const r of requests) {
      expect(findSecrets(JSON.stringify(r.body), run.secrets)).toEqual([]);
      const auth = `${r.headers.authorization ?? ''} ${r.headers['x-api-key'] ?? ''}`;
      expect(findSecrets(auth, run.secrets).length).toBeLessThanOrEqual(1);
    }
  });

  it('the fake ChainlessChain CLI got none of the secret variables or values', () => {
    expect(run.cliEnv).not.toBeNull();
    const env = run.cliEnv as Record<string, string>;
    for (const name of Object.keys(secretEnv(run.secrets))) expect(Object.keys(env)).not.toContain(name);
    expect(Object.keys(env).filter((n) => n.startsWith('CC_LINKER_'))).toEqual([]);
    expect(findSecrets(JSON.stringify(env), run.secrets)).toEqual([]);
  });

  it('Claude Code children got the Anthropic key only: no Feishu secret, provider key, web token, cloud credential or other token', () => {
    // The engine's runs (stream-json) and doctor's `claude --version` both go through buildClaudeEnv.
    expect(run.claudeEnvs.filter((d) => d.argv.includes('--print')).length).toBeGreaterThanOrEqual(3);
    expect(run.claudeEnvs.filter((d) => d.argv.includes('--version')).length).toBeGreaterThanOrEqual(1);
    for (const { env, argv } of run.claudeEnvs) {
      const names = Object.keys(env);
      for (const name of [
        'CC_LINKER_FEISHU_APP_SECRET',
        'OPENAI_API_KEY',
        'ARK_API_KEY',
        'ACME_LLM_KEY',
        'MY_SERVICE_TOKEN',
        'MY_APP_SECRET',
        'AWS_SECRET_ACCESS_KEY',
        'AWS_SESSION_TOKEN',
        'GOOGLE_APPLICATION_CREDENTIALS',
        'GITHUB_TOKEN',
        'NPM_TOKEN',
        'DB_PASSWORD',
      ])
        expect(names, argv.join(' ')).not.toContain(name);
      expect(names.filter((n) => n.startsWith('CC_LINKER_'))).toEqual([]);
      expect(
        findSecrets(JSON.stringify(env), run.secrets).filter((s) => s !== 'anthropicKey'),
        argv.join(' '),
      ).toEqual([]);
      expect(env.ANTHROPIC_API_KEY).toBe(run.secrets.anthropicKey);
    }
  });

  it('buildClaudeEnv over the same environment agrees (and never passes the web token)', () => {
    const parent = {
      PATH: '/usr/bin',
      HOME: run.home,
      ...secretEnv(run.secrets),
      CC_LINKER_WEB_TOKEN: run.secrets.webToken,
    };
    const env = buildClaudeEnv(parent, { denyNames: ['OPENAI_API_KEY', 'ARK_API_KEY', 'ACME_LLM_KEY'] });
    expect(Object.keys(env).sort()).toEqual(['ANTHROPIC_API_KEY', 'HOME', 'PATH']);
    const loose = buildClaudeEnv(parent);
    expect(findSecrets(JSON.stringify(loose), run.secrets).filter((s) => s !== 'anthropicKey')).toEqual([]);
  });
});

describe('check 2: file modes under ~/.cc-linker after the run', () => {
  it('every directory is 0700 and every file 0600 (no exceptions)', () => {
    const entries = walkEntries(run.ccHome);
    expect(entries.length).toBeGreaterThan(15);
    expect((fs.statSync(run.ccHome).mode & 0o777).toString(8)).toBe('700');
    const wrong = entries
      .filter((e) => (e.kind === 'dir' ? e.mode !== 0o700 : e.kind === 'file' ? e.mode !== 0o600 : true))
      .map((e) => `${e.rel} ${e.kind} ${e.mode.toString(8)}`);
    expect(wrong).toEqual([]);
  });
});
