import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolvePaths, type Paths } from '../../core/paths.js';
import { upsertSession } from '../../sessions/registry/registry.js';
import { RegistrySessionDirectory, registryViewOf } from './registry-session-directory.js';

let dir: string;
let paths: Paths;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-regdir-'));
  paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, '.cc-linker') });
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe('RegistrySessionDirectory', () => {
  it('lists, resolves prefixes, searches and sees later writes', async () => {
    const d = new RegistrySessionDirectory(paths);
    expect(await d.list()).toEqual([]);
    await upsertSession(paths, 'aaaa1111-0000-4000-8000-000000000001', {
      cwd: '/w/alpha',
      title: 'Improve README',
      origin: 'cli',
    });
    await upsertSession(paths, 'aaaa2222-0000-4000-8000-000000000002', {
      cwd: '/w/beta',
      title: 'Fix bug',
      origin: 'feishu',
      feishu_user_id: 'ou_x',
    });
    expect((await d.list()).map((s) => s.uuid).sort()).toEqual([
      'aaaa1111-0000-4000-8000-000000000001',
      'aaaa2222-0000-4000-8000-000000000002',
    ]);
    expect((await d.resolvePrefix('AAAA1')).map((s) => s.uuid)).toEqual(['aaaa1111-0000-4000-8000-000000000001']);
    expect((await d.search('readme')).map((s) => s.title)).toEqual(['Improve README']);
    const view = registryViewOf(d);
    expect(await view.get('nope')).toBeNull();
    expect(await view.recentChatSessions('ou_x', 0)).toEqual([
      expect.objectContaining({ sessionId: 'aaaa2222-0000-4000-8000-000000000002', cwd: '/w/beta' }),
    ]);
    expect(await view.recentChatSessions('ou_y', 0)).toEqual([]);
  });

  it('finds the web console’s recent sessions too (origin web), so a lost console mapping is restored', async () => {
    const d = new RegistrySessionDirectory(paths);
    await upsertSession(paths, 'bbbb1111-0000-4000-8000-000000000001', {
      cwd: '/w/web',
      origin: 'web',
      feishu_user_id: 'web:owner',
    });
    expect(await registryViewOf(d).recentChatSessions('web:owner', 0)).toEqual([
      expect.objectContaining({ sessionId: 'bbbb1111-0000-4000-8000-000000000001', cwd: '/w/web' }),
    ]);
  });

  it('passes every session’s agent through, so chat commands can tell another agent’s sessions apart', async () => {
    const d = new RegistrySessionDirectory(paths);
    await upsertSession(paths, 'aaaa1111-0000-4000-8000-000000000001', { cwd: '/w/alpha', title: 'Claude one' });
    await upsertSession(paths, 'ses_opencode1', { agent: 'opencode', cwd: '/w/oc', title: 'OpenCode one' });
    const agents = Object.fromEntries((await d.list()).map((s) => [s.uuid, s.agent]));
    expect(agents).toEqual({ 'aaaa1111-0000-4000-8000-000000000001': 'claude', ses_opencode1: 'opencode' });
    expect((await d.get('ses_opencode1'))?.agent).toBe('opencode');
    expect((await d.resolvePrefix('ses_')).map((s) => s.agent)).toEqual(['opencode']);
    expect((await d.search('opencode one')).map((s) => s.agent)).toEqual(['opencode']);
  });
});
