import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../store/store-error.js';
import {
  modifyRegistry,
  readRegistry,
  updateSession,
  upsertSession,
  writeRegistry,
  type RegistryPaths,
} from './registry.js';
import { emptyRegistry } from './registry-schema.js';
import { SessionsError } from '../sessions-error.js';

let tmp: string;
let paths: RegistryPaths;
const NOW = new Date('2026-06-01T00:00:00.000Z');

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-reg-'));
  paths = {
    registryFile: path.join(tmp, 'registry.json'),
    registryBackupDir: path.join(tmp, 'backups'),
    locksDir: path.join(tmp, 'locks'),
  };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('registry store', () => {
  it('reads a missing registry as empty and writes 0600 with a rolling backup', async () => {
    expect(await readRegistry(paths)).toMatchObject({ exists: false, registry: { version: 6, sessions: {} } });
    await writeRegistry(paths, emptyRegistry(NOW));
    await upsertSession(paths, 's1', { cwd: '/w/a' }, NOW);
    expect(fs.statSync(paths.registryFile).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(paths.registryBackupDir)).toEqual(['registry.json.1']);
  });

  it('upsertSession creates a provisioning entry with defaults, then merges fields', async () => {
    const created = await upsertSession(paths, 's1', { origin: 'feishu', cwd: '/w/proj', feishu_user_id: 'ou_1' }, NOW);
    expect(created).toEqual({
      agent: 'claude',
      origin: 'feishu',
      cwd: '/w/proj',
      project_name: 'proj',
      jsonl_path: null,
      project_dir: '-w-proj',
      pending_jsonl_resolve: true,
      last_error: null,
      created_at: NOW.toISOString(),
      last_active: NOW.toISOString(),
      title: null,
      message_count: 0,
      last_message_preview: '',
      status: 'provisioning',
      feishu_user_id: 'ou_1',
    });
    const updated = await upsertSession(paths, 's1', { title: 'T' }, NOW);
    expect(updated).toMatchObject({ title: 'T', feishu_user_id: 'ou_1', status: 'provisioning' });
  });

  it('updateSession patches (object or function) and rejects an unknown id', async () => {
    await upsertSession(paths, 's1', { cwd: '/w/a' }, NOW);
    const active = await updateSession(paths, 's1', {
      jsonl_path: '/c/p/s1.jsonl',
      status: 'active',
      pending_jsonl_resolve: false,
    });
    expect(active).toMatchObject({ status: 'active', jsonl_path: '/c/p/s1.jsonl' });
    const degraded = await updateSession(paths, 's1', (e) => ({ ...e, status: 'degraded', last_error: 'boom' }));
    expect(degraded).toMatchObject({ status: 'degraded', last_error: 'boom' });
    await expect(updateSession(paths, 'nope', {})).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect((await readRegistry(paths)).registry.sessions.s1?.status).toBe('degraded');
  });

  it('concurrent upserts from two writers lose nothing (lock)', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => upsertSession(paths, `s${i}`, { cwd: `/w/${i}` }, NOW)));
    expect(Object.keys((await readRegistry(paths)).registry.sessions)).toHaveLength(12);
  });

  it('refuses a newer schema and does not write over it', async () => {
    fs.writeFileSync(paths.registryFile, JSON.stringify({ version: 9, sessions: {} }));
    await expect(readRegistry(paths)).rejects.toBeInstanceOf(StoreError);
    await expect(upsertSession(paths, 's1', { cwd: '/w' })).rejects.toMatchObject({ code: 'STORE_NEWER_SCHEMA' });
    expect(JSON.parse(fs.readFileSync(paths.registryFile, 'utf8')).version).toBe(9);
  });

  it('recovers a half-written registry from the newest valid backup, and persists on the next write', async () => {
    await upsertSession(paths, 'a', { cwd: '/w/a' }, NOW);
    await upsertSession(paths, 'b', { cwd: '/w/b' }, NOW);
    fs.writeFileSync(paths.registryFile, '{"version":4,"sess');
    const r = await readRegistry(paths);
    expect(r.recoveredFrom).toContain('registry.json.1');
    expect(Object.keys(r.registry.sessions)).toEqual(['a']);
    expect(r.warnings[0]?.code).toBe('registry_recovered');
    await modifyRegistry(paths, async ({ registry }) => ({ registry, result: undefined }));
    expect(JSON.parse(fs.readFileSync(paths.registryFile, 'utf8')).sessions.a).toBeDefined();
  });

  it('without a usable backup a corrupt registry is a one-line REGISTRY_UNRECOVERABLE', async () => {
    fs.writeFileSync(paths.registryFile, '[1,2');
    const err = await readRegistry(paths).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionsError);
    expect((err as SessionsError).code).toBe('REGISTRY_UNRECOVERABLE');
    expect((err as SessionsError).userMessage).not.toContain('\n');
    expect((err as SessionsError).localize('en')).toContain('no usable backup');
  });

  it('does not rewrite the file when nothing changed', async () => {
    await upsertSession(paths, 'a', { cwd: '/w/a' }, NOW);
    const before = fs.statSync(paths.registryFile).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await modifyRegistry(paths, async ({ registry }) => ({
      registry: { ...registry, updated_at: new Date().toISOString() },
      result: undefined,
    }));
    expect(fs.statSync(paths.registryFile).mtimeMs).toBe(before);
  });
});
