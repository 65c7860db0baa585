import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const TSX = path.join(__dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs');
const OUTPUT = path.join(__dirname, 'output.ts');

/** Runs `stderrIsTTY()` in a child whose fd 2 is `stderr`; prints the answer and whether `process.stderr` was made. */
function askChild(stderr: 'pipe' | 'ignore' | number): string {
  // process.stderr's getter is wrapped to see whether stderrIsTTY asks for the stream.
  const code = `const d = Object.getOwnPropertyDescriptor(process, 'stderr'); let made = false;
    Object.defineProperty(process, 'stderr', { configurable: true, get() { made = true; return d.get.call(process); } });
    import(${JSON.stringify(OUTPUT)}).then((m) => { made = false; const tty = m.stderrIsTTY(); require('node:fs').writeSync(1, tty + ' ' + made); })`;
  const r = spawnSync(process.execPath, ['--import', TSX, '-e', code], {
    stdio: ['ignore', 'pipe', stderr],
    encoding: 'utf8',
    timeout: 20_000,
  });
  return r.stdout;
}

describe('stderrIsTTY', () => {
  it('answers false for a pipe or a file without making process.stderr (≈ 2–3 ms: it loads net)', () => {
    expect(askChild('pipe')).toBe('false false');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-out-')), 'err.txt');
    const fd = fs.openSync(file, 'w');
    try {
      expect(askChild(fd)).toBe('false false');
    } finally {
      fs.closeSync(fd);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('asks the stream itself for a character device (/dev/null is one, and not a terminal)', () => {
    expect(askChild('ignore')).toBe('false true');
  });
});
