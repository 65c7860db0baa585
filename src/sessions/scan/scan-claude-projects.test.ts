import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng, writeSession } from '../../../test/fixtures/claude-tree.js';
import { emptyScanCache, readScanCache, writeScanCache } from './scan-cache.js';
import { scanClaudeProjects } from './scan-claude-projects.js';
import { scanJsonl } from './scan-jsonl.js';
import { blankSession } from './scanned-session.js';
import { isSessionId } from './session-id.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const MAX = 100 * 1024 * 1024;
const VALID = 'aaaabbbb-0000-4000-8000-00000000c0de';
const HOSTILE = [
  '--dangerously-skip-permissions',
  '$(touch pwned)',
  'not-a-uuid',
  'AAAABBBB-0000-4000-8000-00000000C0DE-x',
];
let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-scan-ids-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function tree(ids: readonly string[]): { claudeDir: string; files: Record<string, string> } {
  const claudeDir = fs.mkdtempSync(path.join(root, 'c-'));
  const files: Record<string, string> = {};
  for (const id of ids)
    files[id] = writeSession(
      claudeDir,
      { id, cwd: '/w/hostile', start: NOW, turns: [{ prompt: `hello ${id}`, answer: 'ok' }] },
      createRng(1),
    ).file;
  return { claudeDir, files };
}

describe('session ids', () => {
  it('are UUID-shaped, in any case of hex', () => {
    expect(isSessionId(VALID)).toBe(true);
    expect(isSessionId(VALID.toUpperCase())).toBe(true);
    for (const id of [...HOSTILE, '', `${VALID} `, VALID.slice(1), VALID.replace(/-/g, ''), VALID.replace('a', 'g')])
      expect(isSessionId(id), id).toBe(false);
  });
});

describe('a session file whose name is not a session id', () => {
  it('is skipped with a warning and never read when the scan asks for session ids', async () => {
    const { files } = tree(HOSTILE);
    for (const file of Object.values(files))
      expect(await scanJsonl(file, { maxFileSize: MAX, sessionIdsOnly: true })).toEqual({
        session: null,
        skipped: 'not_a_session_id',
        warnings: [{ code: 'not_a_session_id', file }],
      });
  });

  it('is never a session of a tree scan, a second scan from the cache included', async () => {
    const { claudeDir, files } = tree([VALID, ...HOSTILE]);
    const projectsDir = path.join(claudeDir, 'projects');
    const cacheFile = path.join(claudeDir, 'scan-cache.json');
    const first = await scanClaudeProjects({ projectsDir, maxFileSize: MAX, cacheFile });
    await first.cacheWritten;
    expect(first.sessions.map((s) => s.sessionId)).toEqual([VALID]);
    expect(first.warnings).toEqual(
      expect.arrayContaining(HOSTILE.map((id) => ({ code: 'not_a_session_id', file: files[id] }))),
    );
    const second = await scanClaudeProjects({ projectsDir, maxFileSize: MAX, cacheFile });
    expect(second.sessions.map((s) => s.sessionId)).toEqual([VALID]);
    expect(second.stats).toMatchObject({ read: 0, cached: HOSTILE.length + 1 }); // remembered as skipped
    expect(second.changed).toBe(false);
  });

  it('is judged again, not served, when an older scanner cached it as a session', async () => {
    const { claudeDir, files } = tree([VALID, '--dangerously-skip-permissions']);
    const projectsDir = path.join(claudeDir, 'projects');
    const cacheFile = path.join(claudeDir, 'scan-cache.json');
    const file = files['--dangerously-skip-permissions'] as string;
    const st = fs.statSync(file);
    const old = emptyScanCache(MAX);
    old.entries[file] = {
      size: st.size,
      mtimeMs: st.mtimeMs,
      result: { session: blankSession(file, st.size, st.mtimeMs), skipped: null, warnings: [] },
    };
    await writeScanCache(cacheFile, old);
    expect(readScanCache(cacheFile, MAX).entries[file]?.result.session?.sessionId).toBe(
      '--dangerously-skip-permissions',
    );
    const scan = await scanClaudeProjects({ projectsDir, maxFileSize: MAX, cacheFile });
    await scan.cacheWritten;
    expect(scan.sessions.map((s) => s.sessionId)).toEqual([VALID]);
    expect(scan.warnings).toContainEqual({ code: 'not_a_session_id', file });
    expect(readScanCache(cacheFile, MAX).entries[file]?.result).toMatchObject({ skipped: 'not_a_session_id' });
  });

  it('that is too large is not an id the registry keeps', async () => {
    const { claudeDir } = tree([VALID, 'not-a-uuid']);
    const scan = await scanClaudeProjects({ projectsDir: path.join(claudeDir, 'projects'), maxFileSize: 10 });
    expect(scan.unscannedIds).toEqual([VALID]);
  });
});
