import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths, type Paths } from '../../core/paths.js';
import { createRng, writeSession } from '../../../test/fixtures/claude-tree.js';
import { TINY_PNG, transcriptTurns } from '../../../test/fixtures/transcript-session.js';
import { TranscriptCache } from './transcript-cache.js';

describe('TranscriptCache', () => {
  let home: string;
  let paths: Paths;
  let file: string;
  const ID = '66666666-6666-4666-8666-666666666666';

  beforeAll(async () => {
    home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-tcache-')));
    paths = resolvePaths({
      HOME: home,
      CC_LINKER_HOME: path.join(home, '.cc-linker'),
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    });
    file = writeSession(
      paths.claudeDir,
      { id: ID, cwd: path.join(home, 'p'), start: new Date('2026-05-01T10:00:00Z'), turns: transcriptTurns(3) },
      createRng(5),
    ).file;
  });
  afterAll(() => fs.rm(home, { recursive: true, force: true }));

  it('parses a file once while its size and mtime stay, again when it changes', async () => {
    const cache = new TranscriptCache(2);
    const entry = { agent: 'claude', jsonl_path: file };
    const first = await cache.read(ID, entry, paths, {});
    expect(await cache.read(ID, entry, paths, {})).toBe(first);
    expect(cache.parses).toBe(1);
    expect(first?.messages).toHaveLength(2 + 3 * 2 + 3);
    expect(first?.images.map((i) => i.data)).toEqual([TINY_PNG]);
    expect(first?.imageStart.at(-3)).toBe(0);
    await fs.appendFile(file, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'one more' } })}\n`);
    const second = await cache.read(ID, entry, paths, {});
    expect(cache.parses).toBe(2);
    expect(second?.messages.at(-1)?.text).toBe('one more');
  });

  it('reads nothing outside the agent storage directory', async () => {
    const outside = path.join(home, 'secret.jsonl');
    await fs.writeFile(outside, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'secret' } })}\n`);
    const cache = new TranscriptCache(2);
    expect(await cache.read(ID, { agent: 'claude', jsonl_path: outside }, paths, {})).toBeNull();
    expect(cache.parses).toBe(0);
  });
});
