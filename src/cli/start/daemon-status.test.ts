import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { resolvePaths, type Paths } from '../../core/paths.js';
import { acquireOwnerLock, type OwnerLock } from '../../store/owner-lock.js';
import { controlSocketPath, type DaemonStatusAnswer } from './control-protocol.js';
import { startControlServer, type ControlServer } from './control-server.js';
import { readDaemonStatus } from './daemon-status.js';

let tmp: string;
let lock: OwnerLock | undefined;
let server: ControlServer | undefined;
afterEach(async () => {
  await server?.close();
  await lock?.release();
  server = undefined;
  lock = undefined;
  fs.rmSync(tmp, { recursive: true, force: true });
});

function paths(): Paths {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-dstatus-')));
  return resolvePaths({
    HOME: tmp,
    CC_LINKER_HOME: path.join(tmp, '.cc-linker'),
    CLAUDE_CONFIG_DIR: path.join(tmp, 'c'),
  });
}

const answer: DaemonStatusAnswer = {
  pid: process.pid,
  channels: [
    { id: 'telegram', connected: true, detail: '@bot' },
    { id: 'feishu', connected: false, detail: 'reconnecting (attempt 2)' },
  ],
  pending: 1,
  processing: 2,
  failed: 0,
  running: 2,
};

describe('readDaemonStatus', () => {
  it('no owner lock: stopped', async () => {
    expect(await readDaemonStatus(paths())).toEqual({ state: 'stopped' });
  });

  it('a live owner whose socket does not answer: silent, with its pid (never a hang or a throw)', async () => {
    const p = paths();
    lock = await acquireOwnerLock(p.ownerLockFile);
    expect(await readDaemonStatus(p)).toEqual({ state: 'silent', pid: process.pid });
  });

  it('a running daemon: its channels and queue, as its socket answers them', async () => {
    const p = paths();
    lock = await acquireOwnerLock(p.ownerLockFile);
    const asked: string[] = [];
    server = await startControlServer(
      controlSocketPath(p),
      async (request) => {
        asked.push(request.op);
        return answer;
      },
      silentLogger,
    );
    expect(await readDaemonStatus(p)).toEqual({ state: 'running', ...answer });
    expect(asked).toEqual(['status']);
    await lock.release();
    lock = undefined;
    expect(await readDaemonStatus(p)).toEqual({ state: 'stopped' });
  });
});
