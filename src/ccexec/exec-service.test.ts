import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { isGroupGone, killGroups } from '../../test/fakes/fake-children.js';
import {
  createFakeCliHome,
  FAKE_CLI_BIN,
  isProcessRunning,
  SAMPLE_DATA,
  type FakeCliHome,
} from '../../test/fakes/fake-chainlesschain/fake-cli.js';
import { createExecService, type ExecServiceOptions } from './exec-service.js';
import { parseToolCall } from './parse-tool-call.js';
import { dispatchToolCall } from './tool-dispatcher.js';

const FAKE_SWITCHES = [
  'FAKE_CC_SLOW_MS',
  'FAKE_CC_HUGE',
  'FAKE_CC_SPAWN_GRANDCHILD',
  'FAKE_CC_IGNORE_TERM',
  'FAKE_CC_PID_FILE',
  'FAKE_CC_DUMP_ENV',
  'FAKE_CC_VERSION',
  'FAKE_CC_CALL_LOG',
];

const homes: FakeCliHome[] = [];
const groups = new Set<number>();

afterEach(() => {
  killGroups(groups);
  groups.clear();
  for (const h of homes.splice(0)) h.cleanup();
});

function setup(extraEnv: NodeJS.ProcessEnv = {}, options: Partial<ExecServiceOptions> = {}) {
  const fake = createFakeCliHome(SAMPLE_DATA);
  homes.push(fake);
  const svc = createExecService({
    cli: fake.cli,
    cwd: fake.home,
    timeoutMs: 30_000,
    env: { ...fake.env, ...extraEnv },
    envAllow: FAKE_SWITCHES,
    ...options,
  });
  return { fake, svc };
}

/** Waits for the fake's pid file; returns [pid (= pgid), grandchild pid or undefined]. */
async function waitPids(file: string): Promise<[number, number | undefined]> {
  for (let i = 0; i < 400; i++) {
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, 'utf8');
      if (text.endsWith('\n')) {
        const [pid, gc] = text.trim().split(' ');
        groups.add(Number(pid));
        return [Number(pid), gc === '-' ? undefined : Number(gc)];
      }
    }
    await sleep(10);
  }
  throw new Error(`pid file ${file} never appeared`);
}

describe('exec service against the fake CLI', () => {
  it('runs a query and returns CJK output with the CLI log lines stripped', async () => {
    const { svc } = setup();
    const r = await svc.exec(['note', 'list', '--limit', '10']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      'Notes (3):\n\n  d4f00559  Gateway design [design, gateway]  2026-11-30 09:21:49\n  7a1c2e90  RAG 检索增强笔记 [rag, ai]  2026-11-29 20:00:00\n  9b925725  购物清单 Shopping  2026-11-28 08:00:00\n',
    );
    expect(r.stdout).not.toMatch(/AppConfig|DatabaseManager|\.config\/chainlesschain/);
    expect(r.stdoutBytes).toBeGreaterThan(Buffer.byteLength(r.stdout)); // the log lines were captured, then stripped
  });

  it('returns --json output that parses as JSON', async () => {
    const { svc } = setup();
    const r = await svc.exec(['search', 'RAG', '--mode', 'bm25', '--json']);
    expect(r.exitCode).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ title: string }>;
    expect(rows.map((x) => x.title)).toEqual(['RAG 检索增强笔记']);
  });

  it('passes a non-zero exit and stderr through unchanged, arguments literally (no shell)', async () => {
    const { svc } = setup();
    const r = await svc.exec(['note', 'show', '$(id);`id`']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('✖ Note not found: $(id);`id`\n');
    expect(r.stdout).toBe('');
  });

  it('works through the #!/usr/bin/env node wrapper and in the configured cwd', async () => {
    const fake = createFakeCliHome(SAMPLE_DATA);
    homes.push(fake);
    const cwd = path.join(fake.home, 'work');
    fs.mkdirSync(cwd);
    const dump = path.join(fake.home, 'env.json');
    const svc = createExecService({
      cli: [FAKE_CLI_BIN],
      cwd,
      timeoutMs: 30_000,
      env: { ...fake.env, FAKE_CC_DUMP_ENV: dump },
      envAllow: ['FAKE_CC_DUMP_ENV'],
    });
    const r = await svc.exec(['status']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('ChainlessChain Status');
    expect((JSON.parse(fs.readFileSync(dump, 'utf8')) as { cwd: string }).cwd).toBe(fs.realpathSync(cwd));
  });

  it('keeps every secret out of the child environment, even when allowlisted', async () => {
    const secrets = {
      OPENAI_API_KEY: 'sk-openai-secret-1',
      ARK_API_KEY: 'ark-secret-2',
      CC_UI_TOKEN: 'ui-token-3',
      CC_UI_HOST: '127.0.0.1:9999',
      FOO_SECRET: 'foo-secret-4',
      X_TOKEN: 'x-token-5',
      ANTHROPIC_API_KEY: 'sk-ant-6',
      ANTHROPIC_BASE_URL: 'http://x',
      DEEPSEEK_API_KEY: 'd7',
      DASHSCOPE_API_KEY: 'd8',
      GEMINI_API_KEY: 'g9',
      VOLCENGINE_ACCESS: 'v10',
      MOONSHOT_API_KEY: 'm11',
      ERNIE_API_KEY: 'e12',
      ZHIPU_API_KEY: 'z13',
      SPARK_API_KEY: 's14',
      NODE_OPTIONS: '--require /tmp/evil.js',
    };
    const fake = createFakeCliHome();
    homes.push(fake);
    const dump = path.join(fake.home, 'env.json');
    const svc = createExecService({
      cli: fake.cli,
      cwd: fake.home,
      timeoutMs: 30_000,
      env: { ...fake.env, ...secrets, LC_ALL: 'C.UTF-8', FAKE_CC_DUMP_ENV: dump },
      envAllow: ['FAKE_CC_DUMP_ENV', 'OPENAI_API_KEY', 'CC_UI_TOKEN', 'FOO_SECRET', 'X_TOKEN'],
    });
    expect((await svc.exec(['status', '--json'])).exitCode).toBe(0);
    const childEnv = (JSON.parse(fs.readFileSync(dump, 'utf8')) as { env: Record<string, string> }).env;
    for (const [name, value] of Object.entries(secrets)) {
      expect(childEnv[name], name).toBeUndefined();
      expect(JSON.stringify(childEnv)).not.toContain(value);
    }
    expect(childEnv).toMatchObject({ HOME: fake.home, LC_ALL: 'C.UTF-8', NO_COLOR: '1' });
  });

  it('cuts huge output at 4 KB for the model and keeps all of it for the UI', async () => {
    const { svc } = setup({ FAKE_CC_HUGE: '200000' });
    const r = await svc.exec(['note', 'list']);
    const bytes = Buffer.byteLength(r.stdout);
    const lines = r.stdout.split('\n').length - 1;
    expect(bytes).toBeGreaterThanOrEqual(200_000);
    expect(r.stdoutTruncated).toBe(false);
    const tool = await dispatchToolCall(
      parseToolCall({ id: 'call_1', name: 'cc_exec', arguments: { command: 'note', subargs: ['list'] } }),
      { exec: async () => r },
    );
    expect(tool.stdout).toBe(r.stdout);
    expect(tool.content).toContain(`… [TRUNCATED, total=${bytes} bytes, ${lines} lines]`);
    expect(Buffer.byteLength(tool.content)).toBeLessThan(4096 + 300);
    expect(tool.content).toContain('笔记标题');
  });

  it('cancel kills the whole process group, grandchild included', async () => {
    const fake = createFakeCliHome(SAMPLE_DATA);
    homes.push(fake);
    const pidFile = path.join(fake.home, 'pids');
    const svc = createExecService({
      cli: fake.cli,
      cwd: fake.home,
      timeoutMs: 30_000,
      env: { ...fake.env, FAKE_CC_SLOW_MS: '20000', FAKE_CC_SPAWN_GRANDCHILD: '1', FAKE_CC_PID_FILE: pidFile },
      envAllow: FAKE_SWITCHES,
    });
    const ac = new AbortController();
    const running = svc.exec(['note', 'list'], ac.signal);
    const [pgid, grandchild] = await waitPids(pidFile);
    expect(grandchild).toBeDefined();
    expect(isGroupGone(pgid)).toBe(false);
    ac.abort();
    const r = await running;
    expect(r).toMatchObject({ exitCode: null, cancelled: true });
    expect(isGroupGone(pgid)).toBe(true);
    expect(isProcessRunning(grandchild as number)).toBe(false);
  });

  it('a child that ignores SIGTERM is SIGKILLed after the grace period', async () => {
    const fake = createFakeCliHome(SAMPLE_DATA);
    homes.push(fake);
    const pidFile = path.join(fake.home, 'pids');
    const svc = createExecService({
      cli: fake.cli,
      cwd: fake.home,
      timeoutMs: 30_000,
      env: {
        ...fake.env,
        FAKE_CC_SLOW_MS: '20000',
        FAKE_CC_IGNORE_TERM: '1',
        FAKE_CC_SPAWN_GRANDCHILD: '1',
        FAKE_CC_PID_FILE: pidFile,
      },
      envAllow: FAKE_SWITCHES,
    });
    const ac = new AbortController();
    const running = svc.exec(['note', 'list'], ac.signal);
    const [pgid, grandchild] = await waitPids(pidFile);
    ac.abort();
    const r = await running;
    expect(r.cancelled).toBe(true);
    expect(r.signal).toBe('SIGKILL'); // SIGTERM was ignored; only SIGKILL ended it
    expect(isGroupGone(pgid)).toBe(true);
    expect(isProcessRunning(grandchild as number)).toBe(false);
  });

  it('kills a grandchild left behind by a CLI that exited normally', async () => {
    const fake = createFakeCliHome(SAMPLE_DATA);
    homes.push(fake);
    const pidFile = path.join(fake.home, 'pids');
    const svc = createExecService({
      cli: fake.cli,
      cwd: fake.home,
      timeoutMs: 30_000,
      env: { ...fake.env, FAKE_CC_SPAWN_GRANDCHILD: '1', FAKE_CC_PID_FILE: pidFile },
      envAllow: FAKE_SWITCHES,
    });
    const r = await svc.exec(['session', 'list']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('周报讨论');
    const [pgid, grandchild] = await waitPids(pidFile);
    expect(isGroupGone(pgid)).toBe(true);
    expect(isProcessRunning(grandchild as number)).toBe(false);
  });

  it('stops a run at the hard timeout', async () => {
    const fake = createFakeCliHome(SAMPLE_DATA);
    homes.push(fake);
    const pidFile = path.join(fake.home, 'pids');
    const svc = createExecService({
      cli: fake.cli,
      cwd: fake.home,
      // Long enough for the fake CLI to start and write its pid on a loaded machine; it sleeps 20 s.
      timeoutMs: 2000,
      env: { ...fake.env, FAKE_CC_SLOW_MS: '20000', FAKE_CC_PID_FILE: pidFile },
      envAllow: FAKE_SWITCHES,
    });
    const r = await svc.exec(['note', 'list']);
    expect(r).toMatchObject({ exitCode: null, timedOut: true, cancelled: false });
    const [pgid] = await waitPids(pidFile);
    expect(isGroupGone(pgid)).toBe(true);
  });

  it('reports a missing program as a spawn error, never via a shell', async () => {
    const fake = createFakeCliHome();
    homes.push(fake);
    const svc = createExecService({
      cli: ['definitely-not-chainlesschain-4711'],
      cwd: fake.home,
      timeoutMs: 5000,
      env: fake.env,
    });
    const r = await svc.exec(['status']);
    expect(r).toMatchObject({ exitCode: null, spawnErrorCode: 'ENOENT' });
  });

  it('rejects an empty CLI prefix', () => {
    expect(() => createExecService({ cli: [], cwd: '/', timeoutMs: 1, env: {} })).toThrow(TypeError);
  });
});

describe('exec service: start-up version check', () => {
  it('finds the fake CLI available at 0.165.7', async () => {
    const { svc } = setup();
    expect(await svc.checkVersion()).toEqual({ status: 'available', version: '0.165.7' });
  });

  it('reports a CLI that is too old', async () => {
    const { svc } = setup({ FAKE_CC_VERSION: 'v0.162.2' });
    expect(await svc.checkVersion()).toEqual({ status: 'cli-too-old', version: '0.162.2', min: '0.165.0' });
  });

  it('reports a missing program, a missing entry script and a missing cwd', async () => {
    const fake = createFakeCliHome();
    homes.push(fake);
    const base = { cwd: fake.home, timeoutMs: 5000, env: fake.env };
    expect(await createExecService({ ...base, cli: ['definitely-not-chainlesschain-4711'] }).checkVersion()).toEqual({
      status: 'cli-not-found',
    });
    expect(
      await createExecService({
        ...base,
        cli: [process.execPath, path.join(fake.home, 'missing/bin/chainlesschain.js')],
      }).checkVersion(),
    ).toEqual({ status: 'cli-not-found' });
    const noCwd = await createExecService({ ...base, cli: fake.cli, cwd: path.join(fake.home, 'nope') }).checkVersion();
    expect(noCwd).toMatchObject({ status: 'cli-broken' });
  });

  it('reports a program that is not the CLI as broken', async () => {
    const fake = createFakeCliHome();
    homes.push(fake);
    const svc = createExecService({
      cli: [process.execPath, '-e', 'console.log("hello"); process.exit(0)', '--'],
      cwd: fake.home,
      timeoutMs: 5000,
      env: fake.env,
    });
    expect(await svc.checkVersion()).toMatchObject({ status: 'cli-broken' });
    expect(svc.label).toContain('console.log');
  });

  it('reports an absolute path to a program that answers like the C compiler as broken, saying why', async () => {
    const fake = createFakeCliHome();
    homes.push(fake);
    const gcc = path.join(fake.home, 'cc');
    fs.writeFileSync(gcc, '#!/bin/sh\necho "cc (Debian 12.2.0-14) 12.2.0"\necho "Copyright (C) 2022"\n', {
      mode: 0o755,
    });
    const svc = createExecService({ cli: [gcc], cwd: fake.home, timeoutMs: 5000, env: fake.env });
    expect(await svc.checkVersion()).toEqual({
      status: 'cli-broken',
      detail:
        "unrecognised --version output 'cc (Debian 12.2.0-14) 12.2.0', not the ChainlessChain CLI (it prints only its version, e.g. 0.165.7)",
    });
  });

  it('finds the fake CLI run through its bin wrapper available too', async () => {
    const { svc } = setup({}, { cli: [FAKE_CLI_BIN] });
    expect(await svc.checkVersion()).toEqual({ status: 'available', version: '0.165.7' });
  });
});
