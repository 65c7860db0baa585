import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/default-config.js';
import { silentLogger } from '../../core/logger.js';
import { resolvePaths } from '../../core/paths.js';
import { FileSenderRegistry } from '../../engine/file-sender-registry.js';
import { startLiveSessions, type LiveSessions } from './live-sessions.js';

describe('startLiveSessions', () => {
  let tmp: string;
  let live: LiveSessions | undefined;
  afterEach(async () => {
    await live?.close();
    live = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a request socket that cannot be opened (path too long for a socket) leaves the daemon running', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-ls-'));
    const home = path.join(tmp, 'x'.repeat(60), 'y'.repeat(60), '.cc-linker');
    const paths = resolvePaths({ HOME: tmp, CC_LINKER_HOME: home, CLAUDE_CONFIG_DIR: path.join(tmp, 'claude') });
    expect(path.join(paths.runtimeDir, 'daemon.sock').length).toBeGreaterThan(108);
    live = await startLiveSessions({
      config: defaultConfig(),
      paths,
      scanPaths: paths,
      logger: silentLogger,
      onRegistryChanged: () => undefined,
      files: new FileSenderRegistry('en'),
      status: () => Promise.reject(new Error('not asked in this test')),
    });
    expect(live.control).toBeNull();
    expect((await live.syncNow()).stats.total).toBe(0);
  });
});
