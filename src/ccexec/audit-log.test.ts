import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSecrets, registerSecret } from '../core/redact.js';
import { createAuditLog, readAudit, type AuditContext } from './audit-log.js';
import type { ToolCallRecord } from './tool-loop.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-audit-'));
});
afterEach(() => {
  clearSecrets();
  fs.rmSync(dir, { recursive: true, force: true });
});

const context: AuditContext = {
  provider: 'openai',
  model: 'gpt-4o-mini',
  chat: 'chat-1',
  time: new Date('2026-11-30T09:21:49.000Z'),
};

const input = (over: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
  callId: 'call_1',
  name: 'cc_exec',
  argv: ['note', 'list', '--limit', '20'],
  decision: 'allowed',
  exitCode: 0,
  durationMs: 231.6,
  stdout: 'Notes (1):\n  网关设计\n',
  ...over,
});

describe('audit log', () => {
  it('appends one JSON line per call with hash and size, creating 0700 dir and 0600 file', async () => {
    const file = path.join(dir, 'home', 'ccexec', 'audit.jsonl');
    const log = createAuditLog(file);
    await log.append(input(), context);
    await log.append(
      input({
        callId: 'call_2',
        argv: ['note', 'delete', '--all'],
        decision: 'denied',
        exitCode: 126,
        durationMs: 0,
        stdout: '',
        reason: "unknown subcommand 'delete'",
      }),
      context,
    );
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] as string)).toEqual({
      time: '2026-11-30T09:21:49.000Z',
      provider: 'openai',
      model: 'gpt-4o-mini',
      chat: 'chat-1',
      call: 'call_1',
      command: 'note',
      args: ['list', '--limit', '20'],
      decision: 'allowed',
      exit: 0,
      durationMs: 232,
      bytes: Buffer.byteLength('Notes (1):\n  网关设计\n'),
      stdoutSha256: createHash('sha256').update('Notes (1):\n  网关设计\n').digest('hex'),
    });
    expect(await log.read()).toMatchObject([
      { call: 'call_1' },
      { call: 'call_2', decision: 'denied', exit: 126, reason: "unknown subcommand 'delete'" },
    ]);
  });

  it('never stores a secret the model put into the arguments, nor the output', async () => {
    registerSecret('super-secret-value-123');
    const file = path.join(dir, 'audit.jsonl');
    await createAuditLog(file).append(
      input({ argv: ['search', 'super-secret-value-123 sk-abcdefghijklmnopqrstu'], stdout: 'private note body' }),
      context,
    );
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('super-secret-value-123');
    expect(text).not.toContain('sk-abcdefghijklmnopqrstu');
    expect(text).not.toContain('private note body');
  });

  it('records an unreadable call under the tool name', async () => {
    const file = path.join(dir, 'audit.jsonl');
    await createAuditLog(file).append(input({ argv: null, decision: 'invalid', exitCode: 64, stdout: '' }), context);
    expect((await readAudit(file))[0]).toMatchObject({ command: 'cc_exec', args: [], decision: 'invalid' });
  });

  it('tightens a pre-existing file to 0600 and refuses a symlink', async () => {
    const file = path.join(dir, 'audit.jsonl');
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    await createAuditLog(file).append(input(), context);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const target = path.join(dir, 'elsewhere');
    fs.writeFileSync(target, '');
    const link = path.join(dir, 'link.jsonl');
    fs.symlinkSync(target, link);
    await expect(createAuditLog(link).append(input(), context)).rejects.toMatchObject({ code: 'ELOOP' });
    expect(fs.readFileSync(target, 'utf8')).toBe('');
  });

  it('reads the newest N from the end of a long file, skipping torn lines', async () => {
    const file = path.join(dir, 'audit.jsonl');
    const log = createAuditLog(file);
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(JSON.stringify({ call: `c${i}`, args: ['x'.repeat(40)] }));
    fs.writeFileSync(file, `${lines.join('\n')}\n{"torn":\n`, { mode: 0o600 });
    const last = await log.read({ limit: 3 });
    expect(last.map((r) => r.call)).toEqual(['c2997', 'c2998', 'c2999']);
    expect(await readAudit(file, { limit: 0 })).toEqual([]);
    expect(await readAudit(path.join(dir, 'missing.jsonl'))).toEqual([]);
  });
});
