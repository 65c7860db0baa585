import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listIndexFile, readListIndex, writeListIndex } from './list-index.js';
import { registryStamp } from './read-registry.js';
import { writeRegistry } from './registry.js';
import type { Registry, SessionEntry } from './registry-schema.js';

let tmp: string;
let paths: { registryFile: string; registryBackupDir: string; locksDir: string };
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-list-index-'));
  paths = {
    registryFile: path.join(tmp, 'registry.json'),
    registryBackupDir: path.join(tmp, 'backups'),
    locksDir: path.join(tmp, 'locks'),
  };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const entry = (over: Partial<SessionEntry>): SessionEntry => ({
  agent: 'claude',
  origin: 'cli',
  cwd: '/w/p',
  project_name: 'p',
  jsonl_path: '/x.jsonl',
  project_dir: '-w-p',
  created_at: '2026-05-01T00:00:00.000Z',
  last_active: '2026-05-02T00:00:00.000Z',
  title: 'T',
  message_count: 3,
  last_message_preview: 'long preview text',
  ...over,
});
const registry = (): Registry => ({
  version: 6,
  updated_at: '2026-05-02T00:00:00.000Z',
  sessions: {
    a: entry({}),
    b: entry({ origin: 'feishu', status: 'degraded', title: null, project_name: null, message_count: 0 }),
  },
});

describe('list index', () => {
  it('is written with the registry and gives back exactly what list shows, newest first', async () => {
    await writeRegistry(paths, registry());
    expect(fs.statSync(listIndexFile(paths.registryFile)).mode & 0o777).toBe(0o600);
    const c = {
      id: 'c',
      entry: {
        agent: 'claude' as const,
        origin: 'cli' as const,
        title: 'newer',
        message_count: 1,
        last_active: '2026-05-03T00:00:00.000Z',
        project_name: 'p',
        cwd: '/w/p',
      },
    };
    const a = {
      id: 'a',
      entry: {
        agent: 'claude' as const,
        origin: 'cli' as const,
        title: 'T',
        message_count: 3,
        last_active: '2026-05-02T00:00:00.000Z',
        project_name: 'p',
        cwd: '/w/p',
      },
    };
    const b = {
      id: 'b',
      entry: {
        agent: 'claude' as const,
        origin: 'feishu' as const,
        status: 'degraded' as const,
        title: null,
        message_count: 0,
        last_active: '2026-05-02T00:00:00.000Z',
        project_name: null,
        cwd: '/w/p',
      },
    };
    const withNewer = registry();
    withNewer.sessions.c = entry({ title: 'newer', message_count: 1, last_active: '2026-05-03T00:00:00.000Z' });
    await writeRegistry(paths, withNewer);
    expect(await readListIndex(paths.registryFile)).toEqual({ total: 3, sessions: [c, a, b] });
    // The first rows alone, with the total of all: what a plain `list --limit 2` reads.
    expect(await readListIndex(paths.registryFile, 2)).toEqual({ total: 3, sessions: [c, a] });
    expect(await readListIndex(paths.registryFile, 9)).toEqual({ total: 3, sessions: [c, a, b] });
  });

  it('is ignored once the registry was replaced by something that did not rewrite it', async () => {
    await writeRegistry(paths, registry());
    const text = fs.readFileSync(paths.registryFile, 'utf8');
    fs.writeFileSync(`${paths.registryFile}.tmp`, text.replace('"T"', '"edited by hand"'));
    fs.renameSync(`${paths.registryFile}.tmp`, paths.registryFile);
    expect(await readListIndex(paths.registryFile)).toBeNull();
  });

  it('is ignored when missing, torn, of another version, or holding a malformed row', async () => {
    expect(await readListIndex(paths.registryFile)).toBeNull();
    await writeRegistry(paths, registry());
    const file = listIndexFile(paths.registryFile);
    const good = fs.readFileSync(file, 'utf8');
    const lines = good.split('\n');
    for (const bad of [
      good.slice(0, good.length / 2),
      good.replace('"version":4', '"version":3'),
      good.replace('"claude"', '"Not An Agent"'),
      good.replace(',"claude"]', ']'),
      good.replace('"degraded"', '"sleeping"'),
      good.replace('"feishu"', '"telegram"'),
      '',
      `${lines[0]}\n${lines[1]}\n`,
      `${good}["extra"]\n`,
    ]) {
      fs.writeFileSync(file, bad);
      expect(await readListIndex(paths.registryFile), bad.slice(0, 40)).toBeNull();
    }
  });

  it('reads a web-origin row', async () => {
    const reg = registry();
    (reg.sessions.a as SessionEntry).origin = 'web';
    await writeRegistry(paths, reg);
    const read = await readListIndex(paths.registryFile);
    expect(read?.sessions.find((s) => s.id === 'a')?.entry.origin).toBe('web');
  });

  it('made from a read, is tagged with the identity the file had before it was read', async () => {
    await writeRegistry(paths, registry());
    fs.rmSync(listIndexFile(paths.registryFile));
    const stamp = await registryStamp(paths.registryFile);
    await writeListIndex(paths.registryFile, registry(), stamp);
    expect((await readListIndex(paths.registryFile))?.sessions).toHaveLength(2);
    await writeListIndex(paths.registryFile, registry(), 'an:older:stamp');
    expect(await readListIndex(paths.registryFile)).toBeNull();
  });
});
