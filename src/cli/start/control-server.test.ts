import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { resolvePaths, type Paths } from '../../core/paths.js';
import { SessionsError } from '../../sessions/sessions-error.js';
import { askDaemon, DaemonError, DaemonWorkError } from './ask-daemon.js';
import { controlSocketPath, type ControlRequest } from './control-protocol.js';
import { startControlServer, type ControlServer } from './control-server.js';

const ABOUT = { action: 'cc-linker sync', pid: 4242 };

describe('the daemon request socket', () => {
  let tmp: string;
  let paths: Paths;
  let server: ControlServer | undefined;
  let seen: ControlRequest[] = [];
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-ctl-'));
    paths = resolvePaths({ HOME: tmp, CC_LINKER_HOME: path.join(tmp, 'cc') });
    seen = [];
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const serve = async (handle: (r: ControlRequest) => Promise<unknown>) =>
    (server = await startControlServer(
      controlSocketPath(paths),
      async (r) => {
        seen.push(r);
        return handle(r);
      },
      silentLogger,
    ));

  it('runs the request in the daemon and returns its result; only the owner can reach it', async () => {
    await serve(async (r) => ({ op: r.op, total: 3 }));
    const st = fs.statSync(controlSocketPath(paths));
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    expect(fs.statSync(paths.runtimeDir).mode & 0o777).toBe(0o700);
    expect(await askDaemon(paths, { op: 'sync' }, ABOUT)).toEqual({ op: 'sync', total: 3 });
    expect(await askDaemon(paths, { op: 'repair', id: 'abcd' }, ABOUT)).toEqual({ op: 'repair', total: 3 });
    expect(seen).toEqual([{ op: 'sync' }, { op: 'repair', id: 'abcd' }]);
  });

  it("the work's typed error comes back in both languages, with its exit code", async () => {
    await serve(async () => {
      throw new SessionsError('SESSION_NOT_FOUND', { prefix: 'ffff' });
    });
    const err = await askDaemon(paths, { op: 'repair', id: 'ffff' }, ABOUT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DaemonWorkError);
    const e = err as DaemonWorkError;
    expect(e.code).toBe('SESSION_NOT_FOUND');
    expect(e.exitCode).toBe(new SessionsError('SESSION_NOT_FOUND', { prefix: 'ffff' }).exitCode);
    expect(e.localize('en')).toBe(new SessionsError('SESSION_NOT_FOUND', { prefix: 'ffff' }).localize('en'));
    expect(e.localize('zh')).toBe(new SessionsError('SESSION_NOT_FOUND', { prefix: 'ffff' }).localize('zh'));
  });

  it('no socket: DAEMON_NO_ANSWER naming the pid and what to do', async () => {
    const err = (await askDaemon(paths, { op: 'sync' }, ABOUT).catch((e: unknown) => e)) as DaemonError;
    expect(err).toBeInstanceOf(DaemonError);
    expect(err.code).toBe('DAEMON_NO_ANSWER');
    expect(err.exitCode).toBe(75);
    expect(err.localize('en')).toMatch(/pid 4242.*cc-linker status.*cc-linker stop/);
    expect(err.localize('zh')).toContain('cc-linker stop');
  });

  it('a daemon that takes the connection but never answers: DAEMON_NO_ANSWER after the accept timeout', async () => {
    fs.mkdirSync(paths.runtimeDir, { recursive: true });
    const mute = net.createServer(() => undefined);
    await new Promise<void>((r) => mute.listen(controlSocketPath(paths), r));
    try {
      const err = (await askDaemon(paths, { op: 'sync' }, ABOUT, { acceptMs: 300 }).catch(
        (e: unknown) => e,
      )) as DaemonError;
      expect(err.code).toBe('DAEMON_NO_ANSWER');
    } finally {
      mute.close();
    }
  });

  it('a bad request is refused and the server keeps serving; a socket left by a crash is replaced', async () => {
    fs.mkdirSync(paths.runtimeDir, { recursive: true });
    fs.writeFileSync(controlSocketPath(paths), 'left over');
    await serve(async () => 'fine');
    const answer = await new Promise<string>((resolve) => {
      const c = net.createConnection(controlSocketPath(paths), () => c.write('{"op":"rm -rf"}\n'));
      let text = '';
      c.setEncoding('utf8').on('data', (d: string) => (text += d));
      c.on('close', () => resolve(text));
    });
    expect(JSON.parse(answer)).toMatchObject({ ok: false, error: { code: 'CONTROL_BAD_REQUEST' } });
    expect(seen).toEqual([]);
    expect(await askDaemon(paths, { op: 'clean' }, ABOUT)).toBe('fine');
  });
});
