import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRng, fakeUuid, writeSession } from '../../../test/fixtures/claude-tree.js';
import { loadCliContext } from '../context/cli-context.js';
import { memoryOutput } from '../context/output.js';
import { runSync } from './run-sync.js';

describe('runSync progress bar', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-run-sync-'));
    env = {
      HOME: home,
      CC_LINKER_HOME: path.join(home, '.cc-linker'),
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      CC_LINKER_LANGUAGE: 'en',
    };
  });
  afterEach(() => {
    vi.restoreAllMocks();
    fs.rmSync(home, { recursive: true, force: true });
  });

  function writeTree(sessions: number): void {
    const rng = createRng(7);
    for (let i = 0; i < sessions; i += 1) {
      writeSession(
        path.join(home, '.claude'),
        {
          id: fakeUuid(rng),
          cwd: `/tmp/p${i % 3}`,
          start: new Date(Date.UTC(2026, 4, 5, 10, i)),
          turns: [{ prompt: `task ${i}`, answer: 'done' }],
        },
        rng,
      );
    }
  }

  async function run(isTTY: boolean): Promise<string[]> {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation(
      (chunk: string | Uint8Array) => (writes.push(String(chunk)), true),
    );
    const ctx = await loadCliContext({ env, out: { ...memoryOutput(), isTTY } });
    const result = await runSync(ctx, { action: 'init', incremental: false });
    vi.restoreAllMocks();
    expect(result.stats.scanned).toBeGreaterThan(0);
    return writes;
  }

  it('draws a bar on a terminal for a big scan, ends it full, and clears it', async () => {
    writeTree(60);
    const writes = await run(true);
    const bars = writes.filter((w) => w.startsWith('\r[') && w.includes(' files · '));
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.at(-1)).toContain('60/60 files');
    expect(writes.at(-1)).toBe('\r\x1b[2K');
  });

  it('draws nothing off a terminal, or for a small scan', async () => {
    writeTree(60);
    expect((await run(false)).filter((w) => w.includes(' files · '))).toEqual([]);
    fs.rmSync(path.join(home, '.claude'), { recursive: true });
    writeTree(5);
    expect((await run(true)).filter((w) => w.includes(' files · '))).toEqual([]);
  });
});
