import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionEvents } from './hook/session-events.js';
import { recordSessionStart } from './session-start-hook.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-hookrun-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const SCRIPT = path.join(__dirname, 'session-start-hook.ts');
const TSX = path.join(__dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs');

describe('session-start hook script', () => {
  it('writes one discovery event (0600) from the hook input', async () => {
    const env = { CC_LINKER_HOME: path.join(tmp, 'cc') };
    const file = recordSessionStart(
      JSON.stringify({
        session_id: 'abc-123',
        cwd: '/w/p',
        transcript_path: '/c/p/abc-123.jsonl',
        source: 'startup',
        hook_event_name: 'SessionStart',
      }),
      env,
      new Date('2026-06-01T00:00:00Z'),
    );
    expect(file).not.toBeNull();
    expect(fs.statSync(file as string).mode & 0o777).toBe(0o600);
    const read = await readSessionEvents(path.join(tmp, 'cc', 'runtime', 'session-events'));
    expect(read.events).toEqual([
      {
        session_id: 'abc-123',
        cwd: '/w/p',
        transcript_path: '/c/p/abc-123.jsonl',
        source: 'startup',
        time: '2026-06-01T00:00:00.000Z',
      },
    ]);
  });

  it('ignores input without a session id', () => {
    expect(recordSessionStart('not json', { CC_LINKER_HOME: tmp })).toBeNull();
    expect(recordSessionStart('{"cwd":"/x"}', { CC_LINKER_HOME: tmp })).toBeNull();
  });

  it('as a process: prints nothing and exits 0, even on garbage input or an unwritable home', () => {
    const run = (input: string, home: string) =>
      spawnSync(process.execPath, ['--import', TSX, SCRIPT], {
        input,
        env: { PATH: process.env.PATH, CC_LINKER_HOME: home },
        encoding: 'utf8',
        timeout: 20_000,
      });
    const ok = run(JSON.stringify({ session_id: 's1', cwd: '/w' }), path.join(tmp, 'cc'));
    expect([ok.status, ok.stdout]).toEqual([0, '']);
    expect(fs.readdirSync(path.join(tmp, 'cc', 'runtime', 'session-events'))).toHaveLength(1);
    const garbage = run('\u0000\u0001 garbage', path.join(tmp, 'cc2'));
    expect([garbage.status, garbage.stdout]).toEqual([0, '']);
    fs.writeFileSync(path.join(tmp, 'file'), '');
    const blocked = run(JSON.stringify({ session_id: 's2' }), path.join(tmp, 'file', 'cc'));
    expect([blocked.status, blocked.stdout]).toEqual([0, '']);
  });
});
