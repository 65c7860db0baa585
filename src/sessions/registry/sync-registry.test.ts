import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths, type Paths } from '../../core/paths.js';
import { writeCaseTree } from '../../../test/fixtures/claude-case-tree.js';
import { writeSession, createRng } from '../../../test/fixtures/claude-tree.js';
import { registryStamp } from './read-registry.js';
import { readRegistry, writeRegistry } from './registry.js';
import type { SessionEntry } from './registry-schema.js';
import { writeSessionEventSync } from '../hook/session-events.js';
import type { MappedSession } from './mapped-session.js';
import { syncRegistry } from './sync-registry.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
/** What the bridge's user mapping says (the sync receives it from its caller; the bridge reads the file). */
let mapped: MappedSession[] = [];
const readMapping = async () => ({ sessions: mapped, warnings: [] });
const MAX = 100 * 1024 * 1024;
let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-sync-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  mapped = [];
});

function freshPaths(): Paths {
  const dir = fs.mkdtempSync(path.join(root, 'p-'));
  return resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, 'cc'), CLAUDE_CONFIG_DIR: path.join(dir, 'claude') });
}

const enrichmentArb = fc.record({
  feishu: fc.boolean(),
  user: fc.option(fc.constantFrom('ou_a', 'ou_b'), { nil: undefined }),
  fsid: fc.option(fc.constant('fs_1'), { nil: undefined }),
  provider: fc.option(fc.constantFrom('claude-opus-4', 'kimi'), { nil: undefined }),
  extra: fc.boolean(),
});

describe('scan → registry → rescan (property, real files)', () => {
  it('is stable and preserves enrichments, incremental or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(enrichmentArb, { minLength: 14, maxLength: 14 }),
        fc.boolean(),
        async (enrichments, incremental) => {
          const paths = freshPaths();
          writeCaseTree(paths.claudeDir, NOW);
          await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW, incremental: false });
          const first = (await readRegistry(paths)).registry;
          const ids = Object.keys(first.sessions);
          const enriched = structuredClone(first);
          ids.forEach((id, i) => {
            const e = enrichments[i % enrichments.length];
            const s = enriched.sessions[id] as SessionEntry & Record<string, unknown>;
            if (!e) return;
            if (e.feishu) s.origin = 'feishu';
            if (e.user) s.feishu_user_id = e.user;
            if (e.fsid) s.feishu_session_id = e.fsid;
            if (e.provider) s.lastKnownProvider = e.provider;
            if (e.extra) s.x_future = { n: i };
          });
          await writeRegistry(paths, enriched);
          await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW, incremental });
          const second = (await readRegistry(paths)).registry;
          expect(second.sessions).toEqual(enriched.sessions);
          await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW, incremental: !incremental });
          expect((await readRegistry(paths)).registry.sessions).toEqual(enriched.sessions);
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe('syncRegistry', () => {
  it('merges hook events, scans a transcript outside projects/, and deletes merged events', async () => {
    const paths = freshPaths();
    writeCaseTree(paths.claudeDir, NOW);
    const elsewhere = path.join(path.dirname(paths.claudeDir), 'other-claude');
    const w = writeSession(
      elsewhere,
      {
        id: 'abcdef01-0000-4000-8000-000000000001',
        cwd: '/w/elsewhere',
        start: new Date(NOW.getTime() - 60_000),
        turns: [{ prompt: 'hi there', answer: 'hello' }],
      },
      createRng(1),
    );
    writeSessionEventSync(paths.sessionEventsDir, {
      session_id: w.id,
      cwd: w.cwd,
      transcript_path: w.file,
      source: 'startup',
      time: NOW.toISOString(),
    });
    writeSessionEventSync(paths.sessionEventsDir, {
      session_id: 'abcdef02-0000-4000-8000-000000000002',
      cwd: '/w/new',
      transcript_path: null,
      source: 'startup',
      time: NOW.toISOString(),
    });
    const r = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(r.events).toBe(2);
    const reg = (await readRegistry(paths)).registry;
    expect(reg.sessions[w.id]).toMatchObject({
      status: 'active',
      jsonl_path: w.file,
      title: 'hi there',
      message_count: 2,
    });
    expect(reg.sessions['abcdef02-0000-4000-8000-000000000002']).toMatchObject({
      status: 'provisioning',
      cwd: '/w/new',
    });
    expect(fs.readdirSync(paths.sessionEventsDir)).toEqual([]);
    // the outside file stays registered on later syncs (its path is rescanned, not declared missing)
    await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect((await readRegistry(paths)).registry.sessions[w.id]?.status).toBe('active');
  });

  it('re-reads only changed files', async () => {
    const paths = freshPaths();
    const tree = writeCaseTree(paths.claudeDir, NOW);
    const first = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(first.scan.cached).toBe(0);
    fs.appendFileSync(
      tree.sessions.basic.file,
      `${JSON.stringify({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: 'one more' }, uuid: 'u', timestamp: NOW.toISOString(), cwd: '/tmp/cc-fixture/basic' })}\n`,
    );
    const second = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(second.scan.read).toBe(3); // basic + the two uncacheable odd entries (x.jsonl dir, dangling link)
    const reg = (await readRegistry(paths)).registry;
    expect(reg.sessions[tree.sessions.basic.id]).toMatchObject({ message_count: 6, last_user_preview: 'one more' });
  });

  it('caches a too large file with its real size and time on a full scan (the next sync reads nothing)', async () => {
    const paths = freshPaths();
    const big = writeSession(
      paths.claudeDir,
      {
        id: 'abcdef01-0000-4000-8000-0000000000b1',
        cwd: '/w/big',
        start: NOW,
        turns: [{ prompt: 'p'.repeat(4000), answer: 'a' }],
      },
      createRng(4),
    );
    writeSession(
      paths.claudeDir,
      {
        id: 'abcdef01-0000-4000-8000-0000000000b2',
        cwd: '/w/big',
        start: NOW,
        turns: [{ prompt: 'small', answer: 'a' }],
      },
      createRng(5),
    );
    const first = await syncRegistry({ paths, readMapping, maxFileSize: 2000, now: NOW, incremental: false });
    expect(first.warnings).toContainEqual({ code: 'too_large', file: big.file, detail: fs.statSync(big.file).size });
    const quiet = await syncRegistry({ paths, readMapping, maxFileSize: 2000, now: NOW });
    expect(quiet.scan).toEqual({ files: 2, read: 0, cached: 2, bytesRead: 0, notSessionIds: 0 });
    expect(quiet.warnings).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')(
    'reports a FIFO (or a link to one) named like a session file without ever blocking on it',
    async () => {
      const paths = freshPaths();
      writeSession(
        paths.claudeDir,
        {
          id: 'abcdef01-0000-4000-8000-0000000000c1',
          cwd: '/w/fifo',
          start: NOW,
          turns: [{ prompt: 'hi', answer: 'a' }],
        },
        createRng(6),
      );
      const fifo = path.join(paths.claudeProjectsDir, '-w-fifo', 'abcdef01-0000-4000-8000-0000000000c2.jsonl');
      execFileSync('mkfifo', [fifo]);
      const link = path.join(paths.claudeProjectsDir, '-w-fifo', 'abcdef01-0000-4000-8000-0000000000c3.jsonl');
      fs.symlinkSync(fifo, link);
      for (const incremental of [false, true, true]) {
        const r = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW, incremental });
        expect(r.stats.scanned).toBe(1);
        if (r.scan.read > 0)
          expect(r.warnings).toEqual(
            expect.arrayContaining([
              { code: 'not_a_file', file: fifo },
              { code: 'not_a_file', file: link },
            ]),
          );
      }
    },
  );

  it('answers an unchanged sync from the sync state, but notices age, mapping and registry changes', async () => {
    const paths = freshPaths();
    const tree = writeCaseTree(paths.claudeDir, NOW);
    await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    const stamp = fs.statSync(paths.registryFile).mtimeMs;
    const quiet = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(quiet.stats.total).toBe(14);
    expect(fs.statSync(paths.registryFile).mtimeMs).toBe(stamp);
    // 31 days later the active sessions turn archived although no file changed
    const later = new Date(NOW.getTime() + 31 * 86_400_000);
    await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: later });
    expect((await readRegistry(paths)).registry.sessions[tree.sessions.basic.id]?.status).toBe('archived');
    // a mapping change (a new stamp of the mapping file) is merged although no session file changed
    const cjk = tree.sessions.cjk;
    fs.writeFileSync(
      paths.userMappingFile,
      JSON.stringify({
        version: 1,
        entries: { ou_x: { type: 'session', sessionUuid: cjk.id, cwd: cjk.cwd, origin: 'feishu' } },
      }),
    );
    mapped = [{ sessionId: cjk.id, openId: 'ou_x', origin: 'feishu', cwd: cjk.cwd, provider: null, createdAt: null }];
    const withMapping = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: later });
    expect(withMapping.stats.feishu).toBe(1);
    expect((await readRegistry(paths)).registry.sessions[tree.sessions.cjk.id]?.origin).toBe('feishu');
    // another writer changed the registry: the next sync merges again instead of trusting the state
    const reg = JSON.parse(fs.readFileSync(paths.registryFile, 'utf8'));
    delete reg.sessions[tree.sessions.basic.id];
    fs.writeFileSync(paths.registryFile, JSON.stringify(reg));
    await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: later });
    expect((await readRegistry(paths)).registry.sessions[tree.sessions.basic.id]).toBeDefined();
  });

  it("answers an unchanged sync from the scan cache's header alone, and still sees a changed file", async () => {
    const paths = freshPaths();
    const start = new Date(NOW.getTime() - 60_000);
    const a = writeSession(
      paths.claudeDir,
      {
        id: 'abcdef01-0000-4000-8000-00000000000a',
        cwd: '/w/quick',
        start,
        turns: [{ prompt: 'first', answer: 'one' }],
      },
      createRng(2),
    );
    writeSession(
      paths.claudeDir,
      {
        id: 'abcdef01-0000-4000-8000-00000000000b',
        cwd: '/w/quick',
        start,
        turns: [{ prompt: 'second', answer: 'two' }],
      },
      createRng(3),
    );
    await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    // Spoil the summaries line: an unchanged sync must not need it.
    const [header] = fs.readFileSync(paths.scanCacheFile, 'utf8').split('\n');
    fs.writeFileSync(paths.scanCacheFile, `${header}\n{"spoilt`);
    const quiet = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(quiet.scan).toEqual({ files: 2, read: 0, cached: 2, bytesRead: 0, notSessionIds: 0 });
    // A changed file is seen; with the summaries unusable, both files are read again.
    fs.appendFileSync(
      a.file,
      `${JSON.stringify({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: 'and a third' }, uuid: 'u3', timestamp: NOW.toISOString(), cwd: '/w/quick' })}\n`,
    );
    const changed = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(changed.scan.read).toBe(2);
    expect((await readRegistry(paths)).registry.sessions['abcdef01-0000-4000-8000-00000000000a']).toMatchObject({
      last_user_preview: 'and a third',
    });
    // A removed file is seen too.
    fs.rmSync(a.file);
    const removed = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(removed.scan.files).toBe(1);
    expect(removed.scan.read).toBe(0);
  });

  it('warns about a session id found in two directories on every sync, the unchanged ones too', async () => {
    const paths = freshPaths();
    const start = new Date(NOW.getTime() - 60_000);
    const id = 'abcdef01-0000-4000-8000-00000000000d';
    writeSession(paths.claudeDir, { id, cwd: '/w/one', start, turns: [{ prompt: 'here', answer: 'a' }] }, createRng(4));
    writeSession(
      paths.claudeDir,
      { id, cwd: '/w/two', start, turns: [{ prompt: 'there', answer: 'b' }] },
      createRng(5),
    );
    for (let i = 0; i < 2; i += 1) {
      const r = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
      expect(r.warnings.filter((w) => w.code === 'duplicate_session')).toHaveLength(1);
      expect(r.stats.total).toBe(1);
    }
  });

  it('drops an entry whose id is not a session id at the first sync, whatever an older sync state says', async () => {
    const paths = freshPaths();
    const id = 'abcdef01-0000-4000-8000-0000000000e1';
    writeSession(
      paths.claudeDir,
      { id, cwd: '/w/e', start: NOW, turns: [{ prompt: 'hi', answer: 'a' }] },
      createRng(8),
    );
    await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    const reg = (await readRegistry(paths)).registry;
    const entry = reg.sessions[id] as SessionEntry;
    reg.sessions['--dangerously-skip-permissions'] = { ...entry, jsonl_path: null };
    reg.sessions['$(touch pwned)'] = { ...entry, jsonl_path: null };
    await writeRegistry(paths, reg);
    // The sync state an older version wrote: no format, stamps of the registry as it is now.
    const stateFile = paths.scanCacheFile.replace(/\.json$/, '.sync.json');
    const { format: _format, ...older } = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(stateFile, JSON.stringify({ ...older, registryStamp: await registryStamp(paths.registryFile) }));
    const r = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(Object.keys((await readRegistry(paths)).registry.sessions)).toEqual([id]);
    expect(r.warnings).toEqual(
      expect.arrayContaining([
        { code: 'not_a_session_id', file: '--dangerously-skip-permissions' },
        { code: 'not_a_session_id', file: '$(touch pwned)' },
      ]),
    );
    // Hook events and mapped sessions with such an id add nothing either.
    writeSessionEventSync(paths.sessionEventsDir, {
      session_id: '--resume',
      cwd: '/w/e',
      transcript_path: null,
      source: 'startup',
      time: NOW.toISOString(),
    });
    mapped = [{ sessionId: '-p', openId: 'ou_x', origin: 'feishu', cwd: '/w/e', provider: null, createdAt: null }];
    const again = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    expect(again.events).toBe(1);
    expect(Object.keys((await readRegistry(paths)).registry.sessions)).toEqual([id]);
  });

  it('treats a torn or empty sync state (it is written without fsync) as none: one full sync', async () => {
    const paths = freshPaths();
    const tree = writeCaseTree(paths.claudeDir, NOW);
    await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
    const before = (await readRegistry(paths)).registry.sessions;
    const stateFile = paths.scanCacheFile.replace(/\.json$/, '.sync.json');
    for (const torn of ['', '{"registryStamp":"', 'null', '{"stats":{}}']) {
      fs.writeFileSync(stateFile, torn);
      const r = await syncRegistry({ paths, readMapping, maxFileSize: MAX, now: NOW });
      expect(r.stats.total).toBe(14);
      expect((await readRegistry(paths)).registry.sessions).toEqual(before);
      expect(JSON.parse(fs.readFileSync(stateFile, 'utf8'))).toMatchObject({ extraFiles: [] });
    }
    expect(before[tree.sessions.basic.id]).toBeDefined();
  });
});
