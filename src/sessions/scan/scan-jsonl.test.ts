import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES, writeCaseTree, type CaseTree } from '../../../test/fixtures/claude-case-tree.js';
import { encodeProjectDir } from './project-dir.js';
import { scanJsonl } from './scan-jsonl.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const MAX = 100 * 1024 * 1024;
let tmp: string;
let tree: CaseTree;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-scan-'));
  tree = writeCaseTree(path.join(tmp, 'claude'), NOW);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('scanJsonl on the case tree', () => {
  it.each(CASES.filter((c) => c !== 'collide-dash' && c !== 'collide-slash'))(
    '%s: message count and title',
    async (name) => {
      const s = tree.sessions[name];
      const { session, warnings } = await scanJsonl(s.file, { maxFileSize: MAX });
      expect(session).not.toBeNull();
      expect(session?.messageCount).toBe(s.expect.messageCount);
      expect(session?.title ?? session?.firstPrompt ?? null).toBe(s.expect.title);
      expect(session?.health).toBe('ok');
      if (name !== 'invalid-line') expect(warnings).toEqual([]);
    },
  );

  it('reads the real cwd from the lines, also when two cwds share one encoded directory', async () => {
    const dash = await scanJsonl(tree.sessions['collide-dash'].file, { maxFileSize: MAX });
    const slash = await scanJsonl(tree.sessions['collide-slash'].file, { maxFileSize: MAX });
    expect(path.dirname(tree.sessions['collide-dash'].file)).toBe(path.dirname(tree.sessions['collide-slash'].file));
    expect(dash.session?.cwd).toBe('/tmp/cc-fixture/a-b');
    expect(slash.session?.cwd).toBe('/tmp/cc-fixture/a/b');
    expect((await scanJsonl(tree.sessions.cjk.file, { maxFileSize: MAX })).session?.cwd).toBe('/tmp/cc-fixture/项目');
  });

  it('fills previews, times and model; skips thinking, tool results and sidechains', async () => {
    const { session } = await scanJsonl(tree.sessions.basic.file, { maxFileSize: MAX });
    expect(session).toMatchObject({
      firstPrompt: 'Improve README and create acceptance guide',
      lastUserPreview: 'Now add a quick start section',
      lastAssistantPreview: 'Added a quick start with two commands.',
      lastMessagePreview: 'Added a quick start with two commands.',
      model: 'claude-sonnet-4-5',
      projectDir: '-tmp-cc-fixture-basic',
    });
    expect(Date.parse(session?.createdAt ?? '')).toBeLessThan(Date.parse(session?.lastActive ?? ''));
    const side = await scanJsonl(tree.sessions.sidechain.file, { maxFileSize: MAX });
    expect(side.session?.model).toBe('claude-sonnet-4-5');
    expect(side.session?.lastAssistantPreview).toBe('Answer for sidechain');
  });

  it('uses the first real prompt after slash commands, meta lines and reminders', async () => {
    const { session } = await scanJsonl(tree.sessions['slash-command'].file, { maxFileSize: MAX });
    expect(session?.firstPrompt).toBe('The real first prompt after /init');
  });

  it('reports invalid lines but not a partial last line', async () => {
    const bad = await scanJsonl(tree.sessions['invalid-line'].file, { maxFileSize: MAX });
    expect(bad.warnings).toEqual([{ code: 'invalid_lines', file: tree.sessions['invalid-line'].file, detail: 1 }]);
    const partial = await scanJsonl(tree.sessions['partial-last-line'].file, { maxFileSize: MAX });
    expect(partial.warnings).toEqual([]);
  });

  it('marks binary garbage corrupted and skips a directory named x.jsonl and a broken link', async () => {
    const garbage = await scanJsonl(tree.odd.binary, { maxFileSize: MAX });
    expect(garbage.session?.health).toBe('corrupted');
    expect(garbage.warnings[0]?.code).toBe('not_jsonl');
    const dir = await scanJsonl(tree.odd.dirNamedJsonl, { maxFileSize: MAX });
    expect(dir).toMatchObject({ session: null, skipped: 'not_a_file' });
    const link = await scanJsonl(tree.odd.brokenLink, { maxFileSize: MAX });
    expect(link).toMatchObject({ session: null, skipped: 'missing', warnings: [{ code: 'broken_link' }] });
  });

  it('skips a file over max_file_size without reading it (a sparse 2 GB file)', async () => {
    const big = path.join(tmp, 'big.jsonl');
    const fd = fs.openSync(big, 'w');
    fs.ftruncateSync(fd, 2 * 1024 * 1024 * 1024);
    fs.closeSync(fd);
    const r = await scanJsonl(big, { maxFileSize: MAX });
    expect(r).toMatchObject({
      session: null,
      skipped: 'too_large',
      warnings: [{ code: 'too_large', detail: 2 * 1024 * 1024 * 1024 }],
    });
  });

  it('marks a file it cannot read corrupted instead of throwing', async () => {
    // /proc/self/mem opens but fails to read at offset 0 (EIO), for root and non-root alike.
    const link = path.join(tmp, 'proc-mem.jsonl');
    fs.symlinkSync('/proc/self/mem', link);
    const r = await scanJsonl(link, { maxFileSize: MAX });
    expect(r.session?.health).toBe('corrupted');
    expect(r.warnings[0]?.code).toBe('unreadable');
  });

  it.skipIf(process.getuid?.() === 0)('marks an EACCES file corrupted', async () => {
    const f = path.join(tmp, 'locked.jsonl');
    fs.writeFileSync(f, '{}\n');
    fs.chmodSync(f, 0o000);
    const r = await scanJsonl(f, { maxFileSize: MAX });
    expect(r.session).toMatchObject({ health: 'corrupted', problem: 'EACCES' });
  });

  it('handles lines longer than the line limit without buffering them', async () => {
    const f = path.join(tmp, 'long-lines.jsonl');
    const big = 'x'.repeat(3 * 1024 * 1024);
    const lines = [
      { type: 'queue-operation', operation: 'enqueue', timestamp: '2026-05-01T00:00:00.000Z', sessionId: 's' },
      {
        parentUuid: null,
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: `big paste ${big}` },
        uuid: 'u1',
        timestamp: '2026-05-01T00:00:01.000Z',
        cwd: '/w',
      },
      {
        parentUuid: 'u1',
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: [{ tool_use_id: 't', type: 'tool_result', content: big }] },
        uuid: 'u2',
        timestamp: '2026-05-01T00:00:02.000Z',
        toolUseResult: { stdout: big },
        cwd: '/w',
      },
      {
        parentUuid: 'u2',
        isSidechain: false,
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [{ type: 'text', text: 'short answer' }],
        },
        type: 'assistant',
        uuid: 'u3',
        timestamp: '2026-05-01T00:00:03.000Z',
        cwd: '/w',
      },
    ];
    fs.writeFileSync(f, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const limited = await scanJsonl(f, { maxFileSize: MAX, maxLineBytes: 1024 * 1024 });
    // Under a 1 MiB line limit neither the huge paste nor the huge tool result is read (a line whose
    // middle was never read cannot be read as JSON): both are skipped and reported; the answer counts.
    expect(limited.session?.messageCount).toBe(1);
    expect(limited.warnings).toEqual([{ code: 'long_lines', file: f, detail: 2 }]);
    expect(limited.session?.lastActive).toBe('2026-05-01T00:00:03.000Z');
    const whole = await scanJsonl(f, { maxFileSize: MAX });
    expect(whole.session?.messageCount).toBe(2);
    expect(whole.session?.firstPrompt?.startsWith('big paste xxx')).toBe(true);
    expect(whole.session?.lastAssistantPreview).toBe('short answer');
  });

  it('counts one assistant message per message.id even when blocks interleave with tool results', async () => {
    const f = path.join(tmp, 'interleave.jsonl');
    const a = (id: string, block: object) => ({
      parentUuid: 'p',
      isSidechain: false,
      message: { id, type: 'message', role: 'assistant', model: 'm1', content: [block] },
      type: 'assistant',
      uuid: `${id}-${Math.random()}`,
      timestamp: '2026-05-01T00:00:03.000Z',
    });
    const tr = {
      parentUuid: 'p',
      isSidechain: false,
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: 't1', type: 'tool_result', content: 'ok' }] },
      uuid: 'r',
      timestamp: '2026-05-01T00:00:04.000Z',
    };
    const lines = [
      a('msg_A', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }),
      tr,
      a('msg_A', { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: {} }),
      tr,
      a('msg_B', { type: 'text', text: 'final' }),
    ];
    fs.writeFileSync(f, lines.map((l) => JSON.stringify(l)).join('\n'));
    const r = await scanJsonl(f, { maxFileSize: MAX });
    expect(r.session?.messageCount).toBe(2);
    expect(r.session?.lastAssistantPreview).toBe('final');
  });

  it('encodes a project directory like Claude Code', () => {
    expect(encodeProjectDir('/tmp/a/we.ird_dir name')).toBe('-tmp-a-we-ird-dir-name');
    // it keeps its last answer: repeated and alternating cwds still get their own
    const cwds = ['/tmp/a', '/tmp/a', '/srv/b.c', '', '/tmp/a', 'C:\\Users\\me', '/srv/b.c'];
    expect(cwds.map(encodeProjectDir)).toEqual([
      '-tmp-a',
      '-tmp-a',
      '-srv-b-c',
      '',
      '-tmp-a',
      'C--Users-me',
      '-srv-b-c',
    ]);
  });
});
