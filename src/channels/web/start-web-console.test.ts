import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/default-config.js';
import type { Paths } from '../../core/paths.js';
import {
  consoleOptions,
  startTestConsole,
  stopTestConsole,
  tempHome,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import { startWebConsole, type WebConsole } from './start-web-console.js';

// Starting the console: its token (generated once, stored privately, kept across restarts) and the
// bind addresses it refuses or cannot get.
describe('web console server: token file', () => {
  let t: TestConsole;
  let web: WebConsole;
  let token: string;
  let paths: Paths;

  beforeEach(async () => {
    t = await startTestConsole();
    ({ web, token, paths } = t);
  });
  afterEach(async () => stopTestConsole({ ...t, web }));

  it('generates a 32-byte token once, stores it 0600 and puts it in the start URL', async () => {
    expect(web.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${web.port}/\\?token=`));
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const st = await fs.stat(paths.webTokenFile);
    expect(st.mode & 0o777).toBe(0o600);
    expect((await fs.readFile(paths.webTokenFile, 'utf8')).trim()).toBe(token);
    const outbox = await fs.stat(path.join(paths.home, 'web', 'outbox.jsonl'));
    expect(outbox.mode & 0o777).toBe(0o600);
  });

  it('reuses the stored token after a restart', async () => {
    await web.close();
    web = await startWebConsole(consoleOptions(paths, t.config));
    expect(new URL(web.url).searchParams.get('token')).toBe(token);
  });
});

describe('web console server: bind address', () => {
  it('refuses a non-loopback host unless web.host and web.token are both set', async () => {
    const { dir, paths } = await tempHome();
    try {
      const base = consoleOptions(paths, defaultConfig());
      await expect(startWebConsole({ ...base, host: '0.0.0.0' })).rejects.toMatchObject({
        code: 'WEB_BIND_REFUSED',
      });
      const hostOnly = defaultConfig();
      hostOnly.web.host = '0.0.0.0';
      await expect(startWebConsole({ ...base, config: hostOnly })).rejects.toThrow(/web\.host and web\.token/);
      const tokenOnly = defaultConfig();
      tokenOnly.web.token = 'a-long-explicit-token-0123456789';
      await expect(startWebConsole({ ...base, config: tokenOnly, host: '0.0.0.0' })).rejects.toMatchObject({
        code: 'WEB_BIND_REFUSED',
      });
      // Refused before anything was written.
      await expect(fs.stat(paths.webTokenFile)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a port in use clearly', async () => {
    const { dir, paths } = await tempHome();
    const blocker = http.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    try {
      const port = (blocker.address() as { port: number }).port;
      await expect(startWebConsole({ ...consoleOptions(paths, defaultConfig()), port })).rejects.toMatchObject({
        code: 'WEB_PORT_IN_USE',
      });
    } finally {
      blocker.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
