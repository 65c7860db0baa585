import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  killGroups,
  removeFakeChildren,
  waitGroupGone,
  writeFakeChildren,
  type FakeChildren,
} from '../../test/fakes/fake-children.js';
import { createChildTracker } from './child-tracker.js';
import { ProcessError } from './process-error.js';
import { runProcess, startProcess, type RunOptions } from './run-process.js';

const node = process.execPath;
let fake: FakeChildren;
const started = new Set<number>();

beforeAll(() => {
  fake = writeFakeChildren();
});
afterAll(() => removeFakeChildren(fake));
afterEach(() => {
  killGroups(started);
  started.clear();
});

/** Starts a child and remembers its group for clean-up if the test fails. */
function start(argv: string[], options: RunOptions = {}) {
  const run = startProcess(argv, options);
  if (run.pid !== undefined) started.add(run.pid);
  return run;
}

/** Resolves when `count` stdout lines satisfied `test`. */
function linesWaiter(test: (line: string) => boolean, count = 1) {
  let seen = 0;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    onStdoutLine: (line: string) => {
      if (test(line) && ++seen === count) release();
    },
    reached,
  };
}

describe('exit codes and signals', () => {
  it('reports exit code 0 with reason exit', async () => {
    const r = await runProcess([node, fake.exit, '0']);
    expect(r).toMatchObject({ exitCode: 0, signal: null, reason: 'exit', stdout: '', stderr: '' });
    expect(r.spawnError).toBeUndefined();
    expect(r.durationMs).toBeGreaterThan(0);
  });

  it('reports a non-zero exit code', async () => {
    const r = await runProcess([node, fake.exit, '3']);
    expect(r).toMatchObject({ exitCode: 3, signal: null, reason: 'exit' });
  });

  it('reports a child killed by a signal it got from elsewhere', async () => {
    const r = await runProcess([node, fake.signal, 'SIGUSR2']);
    expect(r).toMatchObject({ exitCode: null, signal: 'SIGUSR2', reason: 'exit' });
  });

  it('throws ProcessError for an empty argv and bad options (programmer errors)', () => {
    expect(() => startProcess([])).toThrow(ProcessError);
    expect(() => startProcess([''])).toThrow(ProcessError);
    expect(() => startProcess([node], { idleTimeoutMs: -1 })).toThrow(ProcessError);
  });
});

describe('output', () => {
  const text = '中文 テキスト 😀🌍 é';

  it('decodes CJK and emoji written one byte at a time on stdout', async () => {
    const pieces: string[] = [];
    const r = await runProcess([node, fake.bytes, text, 'stdout'], { onStdout: (t) => pieces.push(t) });
    expect(r.stdout).toBe(text);
    expect(r.stdoutBytes).toBe(Buffer.byteLength(text));
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.some((p) => p.includes('\uFFFD'))).toBe(false);
  });

  it('decodes multi-byte text split across chunks on stderr', async () => {
    const pieces: string[] = [];
    const r = await runProcess([node, fake.bytes, text, 'stderr'], { onStderr: (t) => pieces.push(t) });
    expect(r.stderr).toBe(text);
    expect(pieces.join('')).toBe(text);
  });

  it('caps each stream, counts the rest and flags truncation', async () => {
    const r = await runProcess([node, fake.flood, '100000', '5000'], { maxOutputBytes: 4096 });
    expect(r.stdout).toBe('o'.repeat(4096));
    expect(r.stderr).toBe('e'.repeat(4096));
    expect(r).toMatchObject({ stdoutBytes: 100000, stderrBytes: 5000, stdoutTruncated: true, stderrTruncated: true });
  });

  it('does not flag a stream that fits exactly', async () => {
    const r = await runProcess([node, fake.flood, '4096', '10'], { maxOutputBytes: 4096 });
    expect(r).toMatchObject({ stdoutTruncated: false, stderrTruncated: false, stdoutBytes: 4096, stderrBytes: 10 });
    expect(r.stderr).toBe('e'.repeat(10));
  });

  it('cuts a truncated stream on a character boundary, never half a character', async () => {
    // '中' is 3 bytes; a cap of 4 keeps one whole character and drops the partial second one.
    const r = await runProcess([node, fake.bytes, '中文', 'stdout'], { maxOutputBytes: 4 });
    expect(r.stdout).toBe('中');
    expect(r.stdoutTruncated).toBe(true);
    expect(r.stdoutBytes).toBe(6);
  });

  it('still streams all output to callbacks beyond the cap', async () => {
    let streamed = 0;
    const r = await runProcess([node, fake.flood, '50000', '0'], {
      maxOutputBytes: 100,
      onStdout: (t) => (streamed += t.length),
    });
    expect(streamed).toBe(50000);
    expect(r.stdout.length).toBe(100);
  });

  it('delivers complete lines and flushes the partial last line at exit', async () => {
    const lines: string[] = [];
    const r = await runProcess([node, fake.lines], { onStdoutLine: (l) => lines.push(l) });
    expect(lines).toEqual(['one', 'two', '三', 'partial']);
    expect(r.stdout).toBe('one\ntwo\n三\npartial');
  });

  it('records a throwing callback and still drains the child', async () => {
    const boom = new Error('boom');
    const r = await runProcess([node, fake.lines], {
      onStdoutLine: () => {
        throw boom;
      },
    });
    expect(r.callbackError).toBe(boom);
    expect(r).toMatchObject({ reason: 'exit', exitCode: 0, stdout: 'one\ntwo\n三\npartial' });
  });
});

describe('stdin', () => {
  it('writes input then closes stdin', async () => {
    const r = await runProcess([node, fake.echoStdin], { input: 'hello 世界' });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'HELLO 世界' });
  });

  it('accepts bytes as input', async () => {
    const r = await runProcess([node, fake.echoStdin], { input: new TextEncoder().encode('abc') });
    expect(r.stdout).toBe('ABC');
  });

  it('keeps stdin open for the caller to write when asked', async () => {
    const run = start([node, fake.echoStdin], { keepStdinOpen: true, input: 'first ' });
    expect(run.stdin).not.toBeNull();
    run.stdin?.write('second');
    run.stdin?.end();
    const r = await run.done;
    expect(r.stdout).toBe('FIRST SECOND');
  });

  it('gives the child no stdin by default', async () => {
    const run = start([node, fake.exit, '0']);
    expect(run.stdin).toBeNull();
    expect((await run.done).exitCode).toBe(0);
  });
});

describe('timeouts and cancellation', () => {
  it('does not fire the idle timeout while the child keeps printing', async () => {
    // Runs twice as long as the idle timeout; the first tick may come late on a loaded machine (node's start-up).
    const r = await runProcess([node, fake.ticker, '100', '3000'], { idleTimeoutMs: 1500 });
    expect(r).toMatchObject({ reason: 'exit', exitCode: 0 });
    expect(r.stdout.split('tick').length - 1).toBeGreaterThanOrEqual(20);
  });

  it('kills a silent child with reason idle-timeout', async () => {
    const run = start([node, fake.silent], { idleTimeoutMs: 300, killGraceMs: 500 });
    const r = await run.done;
    // Under load the timer may fire before node printed 'ready'; either way the child was silent.
    expect(r).toMatchObject({ reason: 'idle-timeout', exitCode: null, signal: 'SIGTERM' });
    expect(await waitGroupGone(run.pid as number)).toBe(true);
  });

  it('kills a child that talks but runs too long with reason hard-timeout', async () => {
    const run = start([node, fake.ticker, '50', '60000'], {
      hardTimeoutMs: 400,
      idleTimeoutMs: 5000,
      killGraceMs: 500,
    });
    const r = await run.done;
    expect(r).toMatchObject({ reason: 'hard-timeout', signal: 'SIGTERM' });
    expect(r.durationMs).toBeLessThan(10_000);
  });

  it('kills on AbortSignal with reason aborted', async () => {
    const controller = new AbortController();
    const ready = linesWaiter((l) => l === 'ready');
    const run = start([node, fake.silent], { signal: controller.signal, ...ready });
    await ready.reached;
    controller.abort();
    const r = await run.done;
    expect(r).toMatchObject({ reason: 'aborted', signal: 'SIGTERM' });
  });

  it('spawns nothing when the signal is already aborted', async () => {
    const run = startProcess([node, fake.silent], { signal: AbortSignal.abort() });
    expect(run.pid).toBeUndefined();
    expect(await run.done).toMatchObject({ reason: 'aborted', exitCode: null, signal: null });
  });

  it('kill() defaults to reason killed and is a no-op after exit', async () => {
    const ready = linesWaiter((l) => l === 'ready');
    const run = start([node, fake.silent], ready);
    await ready.reached;
    run.kill();
    expect((await run.done).reason).toBe('killed');

    const quick = start([node, fake.exit, '0']);
    const r = await quick.done;
    quick.kill('aborted');
    expect(r.reason).toBe('exit');
  });

  it('SIGKILLs a child that ignores SIGTERM after the grace period', async () => {
    const ready = linesWaiter((l) => l === 'ready');
    const run = start([node, fake.stubborn, '0'], { killGraceMs: 200, ...ready });
    await ready.reached;
    run.kill();
    const r = await run.done;
    expect(r).toMatchObject({ reason: 'killed', exitCode: null, signal: 'SIGKILL' });
    expect(await waitGroupGone(run.pid as number)).toBe(true);
  });

  it('leaves no process of the group behind when grandchildren ignore SIGTERM and hold the pipes', async () => {
    const gcPids: number[] = [];
    const ready = linesWaiter((l) => l === 'ready');
    const run = start([node, fake.stubborn, '3'], {
      killGraceMs: 200,
      onStdoutLine: (l) => {
        if (l.startsWith('gc-ready ')) gcPids.push(Number(l.slice(9)));
        ready.onStdoutLine(l);
      },
    });
    await ready.reached;
    expect(gcPids).toHaveLength(3);
    run.kill('aborted');
    const r = await run.done;
    expect(r.reason).toBe('aborted');
    const pgid = run.pid as number;
    expect(await waitGroupGone(pgid)).toBe(true);
  });

  it('resolves after the child exits even when a grandchild keeps the pipes open, and ends that grandchild', async () => {
    const run = start([node, fake.orphan], { killGraceMs: 500 });
    const r = await run.done;
    expect(r).toMatchObject({ reason: 'exit', exitCode: 0 });
    expect(r.stdout).toContain('bye ');
    expect(await waitGroupGone(run.pid as number)).toBe(true);
  });
});

describe('spawn errors', () => {
  it('reports a missing binary as spawn-error ENOENT', async () => {
    const run = startProcess(['/nonexistent/cc-linker-no-such-binary', '--version']);
    expect(run.pid).toBeUndefined();
    const r = await run.done;
    expect(r).toMatchObject({ reason: 'spawn-error', exitCode: null, signal: null, spawnError: { code: 'ENOENT' } });
    expect(r.spawnError?.message).toContain('executable not found');
  });

  it('reports a binary that is not executable as spawn-error EACCES', async () => {
    const r = await runProcess([fake.exit]); // a .cjs file without the execute bit
    expect(r).toMatchObject({ reason: 'spawn-error', spawnError: { code: 'EACCES' } });
  });

  it('reports a missing cwd as spawn-error naming the directory', async () => {
    const missing = path.join(os.tmpdir(), 'cc-linker-no-such-dir-' + process.pid);
    const r = await runProcess([node, fake.exit, '0'], { cwd: missing });
    expect(r).toMatchObject({ reason: 'spawn-error', spawnError: { code: 'ENOENT' } });
    expect(r.spawnError?.message).toContain(missing);
  });

  it('reports a cwd that is a file as spawn-error ENOTDIR', async () => {
    const r = await runProcess([node, fake.exit, '0'], { cwd: fake.exit });
    expect(r).toMatchObject({ reason: 'spawn-error', spawnError: { code: 'ENOTDIR' } });
  });

  it('reports an argument with a NUL byte as spawn-error instead of throwing', async () => {
    const r = await runProcess([node, '-e', '0', 'a\0b']);
    expect(r).toMatchObject({ reason: 'spawn-error', spawnError: { code: 'ERR_INVALID_ARG_VALUE' } });
  });

  it('never runs a shell: metacharacters reach the child as plain arguments', async () => {
    const r = await runProcess([
      node,
      '-e',
      'process.stdout.write(JSON.stringify(process.argv.slice(1)))',
      '$(echo hi); `id` | cat > x',
    ]);
    expect(JSON.parse(r.stdout)).toEqual(['$(echo hi); `id` | cat > x']);
  });
});

describe('environment, cwd, callbacks', () => {
  it('passes env as given and runs in cwd', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-run-'));
    try {
      const r = await runProcess(
        [
          node,
          '-e',
          'process.stdout.write(process.cwd() + "|" + (process.env.ONLY ?? "") + "|" + (process.env.HOME ?? "none"))',
        ],
        {
          cwd: dir,
          env: { ONLY: 'yes' },
        },
      );
      expect(r.stdout).toBe(`${fs.realpathSync(dir)}|yes|none`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('calls onSpawn with the pid, which leads its own process group', async () => {
    let seen: number | undefined;
    const r = await runProcess(
      [
        node,
        '-e',
        'process.stdout.write(String(require("fs").readFileSync("/proc/self/stat","utf8").split(") ")[1].split(" ")[2]))',
      ],
      {
        onSpawn: (pid) => (seen = pid),
      },
    );
    expect(seen).toBeGreaterThan(0);
    if (process.platform === 'linux') expect(Number(r.stdout)).toBe(seen);
  });

  it('records the child in the tracker while it lives and removes it after', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-children-'));
    try {
      const ready = linesWaiter((l) => l === 'ready');
      const run = start([node, fake.silent], { tracker: createChildTracker(dir), ...ready });
      await ready.reached;
      expect(fs.readdirSync(dir)).toEqual([`${run.pid}.json`]);
      run.kill();
      await run.done;
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('handles', () => {
  it('leaves nothing that keeps the event loop alive: a script using every path exits by itself', async () => {
    const runner = new URL('./run-process.ts', import.meta.url).href;
    const script = `
      import { runProcess, startProcess } from ${JSON.stringify(runner)};
      const node = process.execPath;
      await runProcess([node, '-e', 'console.log(1)'], { idleTimeoutMs: 60000, hardTimeoutMs: 60000, signal: new AbortController().signal });
      await runProcess([node, '-e', 'setInterval(() => {}, 1000)'], { idleTimeoutMs: 100, killGraceMs: 100 });
      await runProcess([node, ${JSON.stringify(fake.orphan)}], { killGraceMs: 100 });
      await runProcess(['/nonexistent/binary']);
      const run = startProcess([node, ${JSON.stringify(fake.stubborn)}, '1'], { keepStdinOpen: true, killGraceMs: 100 });
      setTimeout(() => run.kill(), 300);
      await run.done;
      process.stdout.write('finished');
    `;
    const r = await runProcess([node, '--import', 'tsx', '--input-type=module', '-e', script], {
      hardTimeoutMs: 20_000,
      killGraceMs: 200,
    });
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ reason: 'exit', exitCode: 0, stdout: 'finished' });
  });
});
