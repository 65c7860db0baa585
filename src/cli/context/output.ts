import fs from 'node:fs';
import { stdoutWriter } from './stdout-writer.js';

/**
 * Where a command writes. Results go to stdout (so scripts can capture them); progress, warnings
 * and errors go to stderr. Commands never call `console.*` directly, which keeps golden tests able
 * to capture everything a user would see.
 */
export interface Output {
  /** A line (or block) of the command's result, on stdout. */
  print(text: string): void;
  /** Progress and notices, on stderr; hidden from `--json` consumers. */
  progress(text: string): void;
  /** The command's machine-readable result, pretty-printed on stdout. */
  json(value: unknown): void;
  /** Whether stderr is a terminal (progress bars, colours). */
  readonly isTTY: boolean;
}

/** Output bound to the real process streams (stdout written directly when it can be, see `stdoutWriter`). */
export function processOutput(): Output {
  const out = stdoutWriter();
  return {
    print: (text) => out(`${text}\n`),
    progress: (text) => process.stderr.write(`${text}\n`),
    json: (value) => out(`${JSON.stringify(value, null, 2)}\n`),
    isTTY: stderrIsTTY(),
  };
}

/**
 * Whether stderr is a terminal, without making `process.stderr` when it cannot be one: only a
 * character device can (a pipe, a file or a socket cannot), and making the stream costs ≈ 2–3 ms
 * of a start (for a pipe it loads `net`; so does `node:tty`) — which a quiet `init` or `sync`,
 * printing nothing there, would pay for a progress-bar question alone.
 */
export function stderrIsTTY(): boolean {
  try {
    if (!fs.fstatSync(2).isCharacterDevice()) return false;
  } catch {
    return false; // no fd 2 at all
  }
  return Boolean(process.stderr.isTTY);
}

/** Output captured in memory, for tests. */
export function memoryOutput(): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    print: (text) => stdout.push(text),
    progress: (text) => stderr.push(text),
    json: (value) => stdout.push(JSON.stringify(value, null, 2)),
    isTTY: false,
  };
}
