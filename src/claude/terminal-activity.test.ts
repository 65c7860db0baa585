import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTerminalActivity, isClaudeProcess, resumesSession, type ProcessInfo } from './terminal-activity.js';

const ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-term-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const list = (procs: ProcessInfo[]) => async () => procs;

describe('checkTerminalActivity', () => {
  it('a claude resuming the id → busy, high', async () => {
    const r = await checkTerminalActivity({
      sessionId: ID,
      listProcesses: list([{ pid: 10, ppid: 1, argv: ['/usr/local/bin/claude', '--resume', ID] }]),
      isOwn: () => false,
    });
    expect(r).toMatchObject({ busy: true, confidence: 'high' });
  });

  it('our own children are not terminals', async () => {
    const r = await checkTerminalActivity({
      sessionId: ID,
      listProcesses: list([{ pid: 10, ppid: process.pid, argv: ['claude', '-r', ID] }]),
    });
    expect(r.busy).toBe(false);
  });

  it('recent JSONL writes: medium with a claude in the same cwd, low without; idle file → not busy', async () => {
    const file = path.join(dir, 's.jsonl');
    fs.writeFileSync(file, '{}\n');
    const now = fs.statSync(file).mtimeMs + 2000;
    const sameDir = list([{ pid: 11, ppid: 1, argv: ['claude'], cwd: dir }]);
    expect(
      await checkTerminalActivity({
        sessionId: ID,
        jsonlPath: file,
        cwd: dir,
        now: () => now,
        listProcesses: sameDir,
        isOwn: () => false,
      }),
    ).toMatchObject({ busy: true, confidence: 'medium' });
    expect(
      await checkTerminalActivity({
        sessionId: ID,
        jsonlPath: file,
        cwd: dir,
        now: () => now,
        listProcesses: list([]),
      }),
    ).toMatchObject({ busy: true, confidence: 'low' });
    expect(
      await checkTerminalActivity({
        sessionId: ID,
        jsonlPath: file,
        cwd: dir,
        now: () => now + 60_000,
        listProcesses: list([]),
      }),
    ).toMatchObject({ busy: false, confidence: 'high' });
  });

  it('a failing check means not busy', async () => {
    const r = await checkTerminalActivity({
      sessionId: ID,
      listProcesses: async () => Promise.reject(new Error('no /proc')),
    });
    expect(r).toEqual({ busy: false, confidence: 'low', reason: 'activity check failed: no /proc' });
  });

  it.skipIf(process.platform !== 'linux')('finds a real process by scanning /proc', async () => {
    const script = path.join(dir, 'claude');
    fs.writeFileSync(script, '#!/usr/bin/env node\nsetInterval(() => {}, 1000);\n', { mode: 0o755 });
    const child = spawn(process.execPath, [script, '--resume', ID], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 150));
      expect(await checkTerminalActivity({ sessionId: ID, isOwn: () => false })).toMatchObject({
        busy: true,
        confidence: 'high',
        reason: `claude pid ${child.pid} resumes this session`,
      });
      expect((await checkTerminalActivity({ sessionId: ID })).busy).toBe(false); // it is our child
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('isClaudeProcess / resumesSession', () => {
  it.each([
    [['claude'], true],
    [['/opt/x/claude', '-p'], true],
    [['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'], true],
    [['node', '/home/me/bin/claude'], true],
    [['node', 'server.js'], false],
    [['vim', 'claude'], false],
    [[], false],
  ])('%j → %s', (argv, expected) => expect(isClaudeProcess(argv)).toBe(expected));

  it('recognises the resume spellings', () => {
    expect(resumesSession(['claude', '--resume', ID], ID)).toBe(true);
    expect(resumesSession(['claude', '-r', ID], ID)).toBe(true);
    expect(resumesSession(['claude', `--resume=${ID}`], ID)).toBe(true);
    expect(resumesSession(['claude', '--session-id', ID], ID)).toBe(true);
    expect(resumesSession(['claude', `--session-id=${ID}`], ID)).toBe(true);
    expect(resumesSession(['claude', '-p', `--resume=${ID}`, '--output-format', 'json'], ID)).toBe(true);
    expect(resumesSession(['claude', `--resume=${ID}x`], ID)).toBe(false);
    expect(resumesSession(['claude', '--resume', 'other'], ID)).toBe(false);
    expect(resumesSession(['claude', ID], ID)).toBe(false);
  });
});
