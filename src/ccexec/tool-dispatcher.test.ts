import { describe, expect, it, vi } from 'vitest';
import type { ExecFn, ExecOutcome } from './exec-service.js';
import { parseToolCall } from './parse-tool-call.js';
import { dispatchToolCall } from './tool-dispatcher.js';

function outcome(partial: Partial<ExecOutcome> = {}): ExecOutcome {
  return {
    exitCode: 0,
    durationMs: 12,
    stdout: 'Notes (1):\n\n  d4f00559  Gateway design\n',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    ...partial,
  };
}

function spyExec(result: ExecOutcome | Error = outcome()) {
  return vi.fn<ExecFn>(async () => {
    if (result instanceof Error) throw result;
    return result;
  });
}

const call = (args: unknown, name = 'cc_exec') => parseToolCall({ id: 'call_1', name, arguments: args });

describe('dispatchToolCall: routing and arguments', () => {
  it('answers an unknown tool with 127 and runs nothing', async () => {
    const exec = spyExec();
    const result = await dispatchToolCall(call({ command: 'note', subargs: ['list'] }, 'shell'), { exec });
    expect(result).toMatchObject({
      decision: 'unknown-tool',
      exitCode: 127,
      reason: "unknown tool 'shell'; the only tool is cc_exec",
    });
    expect(result.content.startsWith('exitCode=127\nduration=0ms\n')).toBe(true);
    expect(exec).not.toHaveBeenCalled();
  });

  it('runs an object-argument call with the default limit injected', async () => {
    const exec = spyExec();
    const result = await dispatchToolCall(call({ command: 'note', subargs: ['list'] }), { exec });
    expect(exec).toHaveBeenCalledTimes(1);
    expect(exec.mock.calls[0]?.[0]).toEqual(['note', 'list', '--limit', '20']);
    expect(result).toMatchObject({
      decision: 'allowed',
      argv: ['note', 'list', '--limit', '20'],
      exitCode: 0,
      durationMs: 12,
    });
  });

  it('runs a JSON-string call the same way (OpenAI sends arguments as a string)', async () => {
    const exec = spyExec();
    const result = await dispatchToolCall(call('{"command":"search","subargs":["RAG"]}'), { exec });
    expect(exec.mock.calls[0]?.[0]).toEqual(['search', 'RAG', '--top-k', '5']);
    expect(result.decision).toBe('allowed');
  });

  it('accepts a null-prototype object', async () => {
    const args = Object.assign(Object.create(null) as object, { command: 'status', subargs: [] });
    const exec = spyExec();
    expect((await dispatchToolCall(call(args), { exec })).decision).toBe('allowed');
    expect(exec.mock.calls[0]?.[0]).toEqual(['status']);
  });

  it.each([
    ['truncated JSON', '{"command":"note","subargs":["li', /malformed arguments: arguments are not valid JSON/],
    ['an empty string', '', /not valid JSON/],
    ['JSON null', 'null', /must be a JSON object/],
    ['a JSON array', '["note","list"]', /must be a JSON object/],
    ['a JSON string', '"note list"', /must be a JSON object/],
    ['a number', 42, /must be a JSON object/],
    ['missing subargs', { command: 'status' }, /missing field subargs/],
    ['missing command', { subargs: ['list'] }, /missing field command/],
    [
      'an extra field',
      { command: 'note', subargs: ['list'], cwd: '/' },
      /unexpected field 'cwd'; only command and subargs are allowed/,
    ],
    ['a non-string command', { command: ['note'], subargs: ['list'] }, /command must be a string/],
    [
      'a __proto__ key in JSON',
      '{"command":"note","subargs":["list"],"__proto__":{"polluted":true}}',
      /unexpected field '__proto__'/,
    ],
    ['a symbol key', { command: 'note', subargs: ['list'], [Symbol('x')]: 1 }, /unexpected field symbol/],
  ] as const)('answers %s with 64 and runs nothing', async (_title, args, reason) => {
    const exec = spyExec();
    const result = await dispatchToolCall(call(args), { exec });
    expect(result.decision).toBe('invalid');
    expect(result.exitCode).toBe(64);
    expect(result.stderr).toMatch(reason);
    expect(result.content).toContain('exitCode=64');
    expect(exec).not.toHaveBeenCalled();
  });

  it('keeps a __proto__ key inert: no prototype is polluted', async () => {
    await dispatchToolCall(call('{"__proto__":{"polluted":true},"command":"note","subargs":["list"]}'), {
      exec: spyExec(),
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores inherited fields: an object whose prototype carries command/subargs is missing them', async () => {
    const args = Object.create({ command: 'note', subargs: ['list'] }) as object;
    const exec = spyExec();
    expect(await dispatchToolCall(call(args), { exec })).toMatchObject({ decision: 'invalid', exitCode: 64 });
    expect(exec).not.toHaveBeenCalled();
  });

  it('never invokes a getter on the arguments', async () => {
    const getter = vi.fn(() => 'note');
    const args = Object.defineProperty({ subargs: ['list'] }, 'command', { get: getter, enumerable: true });
    const exec = spyExec();
    expect(await dispatchToolCall(call(args), { exec })).toMatchObject({ decision: 'invalid', exitCode: 64 });
    expect(getter).not.toHaveBeenCalled();
    expect(exec).not.toHaveBeenCalled();
  });
});

describe('dispatchToolCall: gate denials', () => {
  it.each([
    ['a write command', { command: 'note', subargs: ['delete', '--all'] }, /unknown subcommand 'delete'/],
    ['search --limit', { command: 'search', subargs: ['RAG', '--limit', '5'] }, /unknown flag --limit/],
    ['shell metacharacters', '{"command":"search","subargs":["x;rm -rf /"]}', /forbidden character ';'/],
    ['subargs as a string', { command: 'note', subargs: 'list' }, /subargs must be an array of strings/],
    ['a command outside the allowlist', { command: 'ask', subargs: ['hi'] }, /command 'ask' is not allowed/],
  ] as const)('fakes a 126 result for %s without running anything', async (_title, args, reason) => {
    const exec = spyExec();
    const result = await dispatchToolCall(call(args), { exec });
    expect(exec).not.toHaveBeenCalled();
    expect(result.decision).toBe('denied');
    expect(result.exitCode).toBe(126);
    expect(result.reason).toMatch(reason);
    expect(result.stderr).toBe(`command not allowed in read-only mode: ${result.reason}`);
    expect(result.content).toBe(
      `exitCode=126\nduration=0ms\nstdout (truncated to 4KB if needed):\n\n\nstderr:\n${result.stderr}`,
    );
    expect(result.stdout).toBe('');
  });

  it('reports the requested argv of a denied call when it was readable', async () => {
    const result = await dispatchToolCall(call({ command: 'note', subargs: ['delete', '--all'] }), { exec: spyExec() });
    expect(result.argv).toEqual(['note', 'delete', '--all']);
    const unreadable = await dispatchToolCall(call({ command: 'note', subargs: 'list' }), { exec: spyExec() });
    expect(unreadable.argv).toBeUndefined();
  });
});

describe('dispatchToolCall: execution outcomes', () => {
  it('formats the plain-text tool result', async () => {
    const result = await dispatchToolCall(call({ command: 'status', subargs: [] }), {
      exec: spyExec(outcome({ stdout: 'ok\n', stderr: '- Probing...\n', durationMs: 234 })),
    });
    expect(result.content).toBe(
      'exitCode=0\nduration=234ms\nstdout (truncated to 4KB if needed):\nok\n\n\nstderr:\n- Probing...\n',
    );
  });

  it('omits the stderr section when stderr is empty', async () => {
    const result = await dispatchToolCall(call({ command: 'status', subargs: [] }), {
      exec: spyExec(outcome({ stdout: 'ok' })),
    });
    expect(result.content).toBe('exitCode=0\nduration=12ms\nstdout (truncated to 4KB if needed):\nok');
  });

  it('passes a non-zero CLI exit through unchanged (not found is exit 1, not a failure)', async () => {
    const exec = spyExec(outcome({ exitCode: 1, stdout: '', stderr: '✖ Note not found: zzzz\n' }));
    const result = await dispatchToolCall(call({ command: 'note', subargs: ['show', 'zzzz'] }), { exec });
    expect(result).toMatchObject({ decision: 'allowed', exitCode: 1, stderr: '✖ Note not found: zzzz\n' });
    expect(result.reason).toBeUndefined();
    expect(result.content).toContain('exitCode=1\n');
    expect(result.content).toContain('✖ Note not found: zzzz');
  });

  it('passes other exit codes through as well', async () => {
    const result = await dispatchToolCall(call({ command: 'skill', subargs: ['list'] }), {
      exec: spyExec(outcome({ exitCode: 2 })),
    });
    expect(result.exitCode).toBe(2);
  });

  it('answers a spawn failure with -1', async () => {
    const result = await dispatchToolCall(call({ command: 'status', subargs: [] }), {
      exec: spyExec(outcome({ exitCode: null, stdout: '', spawnErrorCode: 'ENOENT', durationMs: 3 })),
    });
    expect(result).toMatchObject({
      decision: 'allowed',
      exitCode: -1,
      reason: 'could not start the CLI (ENOENT)',
      durationMs: 3,
    });
    expect(result.content).toContain('exitCode=-1');
    expect(result.content).toContain('could not start the CLI (ENOENT)');
  });

  it('answers a throwing exec with -1 and a redacted message', async () => {
    const result = await dispatchToolCall(call({ command: 'status', subargs: [] }), {
      exec: spyExec(new Error('boom sk-abcdefghijklmnopqrstuvwx')),
    });
    expect(result.exitCode).toBe(-1);
    expect(result.reason).toContain('exec failed: boom');
    expect(JSON.stringify(result)).not.toContain('sk-abcdefghijklmnopqrstuvwx');
  });

  it.each([
    ['a timeout', { timedOut: true, durationMs: 30_000 }, 'timed out after 30000ms', 'timeout'],
    ['a cancel', { cancelled: true }, 'cancelled', 'cancelled'],
    ['a signal', { signal: 'SIGKILL' }, 'killed by SIGKILL', undefined],
    ['no reason at all', {}, 'the CLI ended without an exit code', undefined],
  ] as const)(
    'answers %s (no exit code) with -1, saying when it was stopped',
    async (_title, extra, reason, stopped) => {
      const result = await dispatchToolCall(call({ command: 'status', subargs: [] }), {
        exec: spyExec(outcome({ exitCode: null, stdout: 'partial', ...extra })),
      });
      expect(result).toMatchObject({ exitCode: -1, reason, stdout: 'partial' });
      expect(result.stopped).toBe(stopped);
      expect(result.content).toContain(reason);
    },
  );

  it('does not start the CLI when the turn is already cancelled, and hands the signal to exec otherwise', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const exec = spyExec();
    expect(
      await dispatchToolCall(call({ command: 'status', subargs: [] }), { exec, signal: aborted.signal }),
    ).toMatchObject({ exitCode: -1, reason: 'cancelled before it started', stopped: 'cancelled' });
    expect(exec).not.toHaveBeenCalled();

    const live = new AbortController();
    await dispatchToolCall(call({ command: 'status', subargs: [] }), { exec, signal: live.signal });
    expect(exec.mock.calls[0]?.[1]).toBe(live.signal);
  });

  it('cuts stdout at 4 KB for the model and keeps all of it for the UI', async () => {
    const stdout = Array.from({ length: 400 }, (_, i) => `  ${String(i).padStart(8, '0')}  笔记标题 ${i}`).join('\n');
    const result = await dispatchToolCall(call({ command: 'note', subargs: ['list', '--limit', '100'] }), {
      exec: spyExec(outcome({ stdout })),
    });
    expect(result.stdout).toBe(stdout);
    expect(result.content).toContain(`… [TRUNCATED, total=${Buffer.byteLength(stdout)} bytes, 400 lines]`);
    expect(Buffer.byteLength(result.content)).toBeLessThan(4096 + 200);
  });

  it('tells the model when the runner capped the output', async () => {
    const result = await dispatchToolCall(call({ command: 'status', subargs: [] }), {
      exec: spyExec(outcome({ stdoutTruncated: true })),
    });
    expect(result.content).toContain('OUTPUT CAP REACHED');
  });

  it('cuts a huge stderr for the model', async () => {
    const stderr = 'e'.repeat(20_000);
    const result = await dispatchToolCall(call({ command: 'status', subargs: [] }), {
      exec: spyExec(outcome({ stderr })),
    });
    expect(result.stderr).toBe(stderr);
    expect(result.content).toContain('… [TRUNCATED, total=20000 bytes, 1 lines]');
    expect(result.content.length).toBeLessThan(2000);
  });
});
