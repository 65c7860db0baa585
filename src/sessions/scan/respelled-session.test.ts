import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCaseTree, type CaseTree } from '../../../test/fixtures/claude-case-tree.js';
import { createRng, sessionLines } from '../../../test/fixtures/claude-tree.js';
import { randomSpelling, respell, SPACED } from '../../../test/fixtures/json-respell.js';
import { LINE_READERS, sessionSpecArb } from '../../../test/fixtures/scan-line-cases.js';
import { readTranscript } from '../present/export-session.js';
import type { LineView } from './read-jsonl-lines.js';
import type { ReadLine } from './read-line.js';
import { scanJsonl } from './scan-jsonl.js';
import type { ScannedSession } from './scanned-session.js';
import { SessionSummary } from './session-summary.js';

const MAX = 100 * 1024 * 1024;
const FILE = '/home/u/.claude/projects/-tmp-a-b-c/00000000-0000-4000-8000-000000000000.jsonl';
const STAT = { size: 1, mtimeMs: Date.parse('2026-01-01T00:00:00.000Z'), birthtimeMs: 0 };

/** The summary of `lines` as the scanner makes it, each line a view into a bigger buffer. */
function summaryOf(lines: string[], read: ReadLine): ScannedSession {
  const summary = new SessionSummary(FILE, STAT, read);
  let offset = 0;
  for (const line of lines) {
    const buf = Buffer.from(`{"before":1}\n${line}\n`);
    const length = Buffer.byteLength(line);
    const view: LineView = { buf, start: 13, end: 13 + length, offset, length, truncated: false, last: false };
    summary.line(view);
    offset += length + 1;
  }
  return summary.finish([]).session;
}

/** A session's entry without what describes its file rather than its lines (path, size, mtime). */
const content = (s: ScannedSession | null) => s && { ...s, sessionId: '', jsonlPath: '', size: 0, mtimeMs: 0 };

describe.each(LINE_READERS)('a session read by %s', (_name, read) => {
  it('gives the same entry however its lines are spelled: whitespace, key order, escapes (property)', () => {
    fc.assert(
      fc.property(sessionSpecArb, fc.nat(), (spec, n) => {
        const lines = sessionLines(spec, createRng(n));
        const respelled = lines.map((line, i) => respell(JSON.parse(line), randomSpelling(n + i)));
        expect(summaryOf(respelled, read)).toEqual(summaryOf(lines, read));
      }),
      { numRuns: 60 },
    );
  });
});

describe('a session file written with spaces after the colons', () => {
  let tmp: string;
  let tree: CaseTree;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-spelling-'));
    tree = writeCaseTree(path.join(tmp, 'claude'), new Date('2026-06-01T12:00:00.000Z'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** The basic case's file again, each line in `spell`, its lines ending in `eol`. */
  function twin(name: string, spell: (value: unknown) => string, eol: string): string {
    const compact = fs.readFileSync(tree.sessions.basic.file, 'utf8').split('\n').filter(Boolean);
    const file = path.join(path.dirname(tree.sessions.basic.file), name);
    fs.writeFileSync(file, compact.map((line) => `${spell(JSON.parse(line))}${eol}`).join(''));
    return file;
  }

  // It was indexed as "Untitled, 0 messages" while `export` read its 5 messages: the scanner
  // looked for Claude Code's compact spelling (`"type":"user"`) in the bytes.
  it('is indexed like the compact file, with the 5 messages export reads', async () => {
    const compact = await scanJsonl(tree.sessions.basic.file, { maxFileSize: MAX });
    expect(compact.session?.messageCount).toBe(5);
    for (const [name, eol] of [
      ['spaced.jsonl', '\n'],
      ['spaced-crlf.jsonl', '\r\n'],
    ]) {
      const file = twin(name as string, (v) => respell(v, SPACED), eol as string);
      expect(fs.readFileSync(file, 'utf8')).toContain('"type": "user"');
      const spaced = await scanJsonl(file, { maxFileSize: MAX });
      expect(spaced.warnings).toEqual([]);
      expect(content(spaced.session)).toEqual(content(compact.session));
      expect(spaced.session).toMatchObject({
        messageCount: 5,
        firstPrompt: 'Improve README and create acceptance guide',
      });
      expect(await readTranscript(file, { thinking: false })).toHaveLength(5);
    }
  });
});
