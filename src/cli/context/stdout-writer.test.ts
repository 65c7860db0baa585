import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stdoutWriter } from './stdout-writer.js';

const TSX = path.join(__dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs');
const TEXTS_JS = "['✅ Registry created: ~/.cc-linker/registry.json\\n', '为什么 🎉\\n', 'x'.repeat(200000) + '\\n']";
const TEXTS = ['✅ Registry created: ~/.cc-linker/registry.json\n', '为什么 🎉\n', `${'x'.repeat(200_000)}\n`];

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-stdout-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs the writer in a child whose fd 1 is `stdout`: prints the texts, then whether `process.stdout` was made (on fd 2). */
function runChild(stdout: 'pipe' | number): { stdout: string; made: string } {
  const code = `const d = Object.getOwnPropertyDescriptor(process, 'stdout'); let made = false;
    import(${JSON.stringify(path.join(__dirname, 'stdout-writer.ts'))}).then((m) => {
      Object.defineProperty(process, 'stdout', { configurable: true, get() { made = true; return d.get.call(process); } });
      const out = m.stdoutWriter(); for (const t of ${TEXTS_JS}) out(t);
      process.on('exit', () => require('node:fs').writeSync(2, String(made)));
    })`;
  const r = spawnSync(process.execPath, ['--import', TSX, '-e', code], {
    stdio: ['ignore', stdout, 'pipe'],
    encoding: 'utf8',
    timeout: 20_000,
    maxBuffer: 10 << 20,
  });
  if (r.error) throw r.error;
  return { stdout: r.stdout ?? '', made: r.stderr };
}

describe('stdoutWriter', () => {
  it('writes straight to a file, never making process.stdout', () => {
    const file = path.join(tmp, 'out.txt');
    const fd = fs.openSync(file, 'w');
    const r = runChild(fd);
    fs.closeSync(fd);
    expect(r.made).toBe('false');
    expect(fs.readFileSync(file, 'utf8')).toBe(TEXTS.join(''));
  });

  it('leaves a pipe to process.stdout, with the same bytes', () => {
    const r = runChild('pipe');
    expect(r.made).toBe('true');
    expect(r.stdout).toBe(TEXTS.join(''));
  });

  it('hands the rest to the stream when the kernel says EAGAIN, and keeps to the stream after that', () => {
    const fd = fs.openSync(path.join(tmp, 'direct.txt'), 'w');
    const direct: Buffer[] = [];
    const streamed: Buffer[] = [];
    let calls = 0;
    const out = stdoutWriter({
      fd,
      writeSync: (_fd, bytes, offset) => {
        calls += 1;
        if (calls === 2) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable'), { code: 'EAGAIN' });
        const n = Math.min(4, bytes.length - offset); // a short write every time
        direct.push(Buffer.from(bytes.subarray(offset, offset + n)));
        return n;
      },
      stream: () => ({ write: (chunk: string | Uint8Array) => streamed.push(Buffer.from(chunk)) }),
    });
    out('为什么 README');
    out(' and after\n');
    fs.closeSync(fd);
    expect(Buffer.concat([...direct, ...streamed]).toString('utf8')).toBe('为什么 README and after\n');
    expect(direct).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('passes any other write error on', () => {
    const fd = fs.openSync(path.join(tmp, 'x.txt'), 'w');
    const out = stdoutWriter({
      fd,
      writeSync: () => {
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
      stream: () => ({ write: () => true }),
    });
    expect(() => out('x')).toThrow(/ENOSPC/);
    fs.closeSync(fd);
  });
});
