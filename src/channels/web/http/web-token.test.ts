import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../core/default-config.js';
import { redact } from '../../../core/redact.js';
import { loadWebToken } from './web-token.js';

describe('loadWebToken', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-token-'));
    file = path.join(dir, '.cc-linker', 'web-token');
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('uses web.token from the config and writes no file', async () => {
    const config = defaultConfig();
    config.web.token = 'configured-token-0123456789';
    expect(await loadWebToken(config, { webTokenFile: file }, 'en')).toEqual({
      token: 'configured-token-0123456789',
      source: 'config',
    });
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('generates once (0600, dir 0700), then reuses; the token is redacted from logs', async () => {
    const first = await loadWebToken(defaultConfig(), { webTokenFile: file }, 'en');
    expect(first.source).toBe('generated');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    const again = await loadWebToken(defaultConfig(), { webTokenFile: file }, 'en');
    expect(again).toEqual({ token: first.token, source: 'file' });
    expect(redact(`url http://127.0.0.1:9820/?token=${first.token}`)).not.toContain(first.token);
  });

  it('tightens a readable token file, and replaces an empty one', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'stored-token-abcdefghijklmnop\n', { mode: 0o644 });
    await fs.chmod(file, 0o644);
    expect(await loadWebToken(defaultConfig(), { webTokenFile: file }, 'en')).toEqual({
      token: 'stored-token-abcdefghijklmnop',
      source: 'file',
    });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    await fs.writeFile(file, '');
    const fresh = await loadWebToken(defaultConfig(), { webTokenFile: file }, 'en');
    expect(fresh.source).toBe('generated');
    expect(fresh.token).toHaveLength(43);
  });

  it('reports an unreadable token file clearly', async () => {
    await fs.mkdir(file, { recursive: true }); // a directory where the file should be
    await expect(loadWebToken(defaultConfig(), { webTokenFile: file }, 'en')).rejects.toMatchObject({
      code: 'WEB_TOKEN_UNREADABLE',
      userMessage: expect.stringContaining('EISDIR'),
    });
  });
});
