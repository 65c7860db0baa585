// The walk-through's tools that hold no state of the walk: ports, PATH, output checks, modes,
// leftover processes, plain HTTP (test/e2e/walkthrough.test.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
export { freePort } from '../helpers/free-port.js';

/** The Feishu app secret of the walk: no text a user sees may contain it. */
export const REPO = path.resolve(__dirname, '..', '..');
/** The built binary, the package's `bin`. */
export const MAIN = path.join(REPO, 'dist', 'cli', 'launcher', 'cc-linker.js');
/** Leftover processes are found through /proc. */
export const HAS_PROC = fs.existsSync('/proc/self/environ');

/** The registry's sessions as written on disk. */
export function readRegistrySessions(
  file: string,
): Record<string, { title: string | null; origin: string; cwd: string }> {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    sessions: Record<string, { title: string | null; origin: string; cwd: string }>;
  };
  return doc.sessions;
}

export const SECRET = 'Walk-s3cret-7d41c9e0b2a8f6';

/** What one finished command printed. */
export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running `cc-linker start`. */
export interface Started {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** PATH without any directory that holds a `claude`: a machine where Claude Code was never installed. */
export function pathWithoutClaude(value: string | undefined): string {
  return (value ?? '/usr/bin:/bin')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'claude')))
    .join(path.delimiter);
}

/** The lines of a command's output, trailing newline dropped. */
export const lines = (text: string): string[] => text.replace(/\n$/, '').split('\n');

/**
 * What every message a user sees must never contain: a stack trace, `undefined`/`NaN`/`[object
 * Object]`, an unfilled `{placeholder}`, an "internal error", the app secret or the API key.
 */
export function expectClean(label: string, text: string): void {
  expect(text, `${label}: stack trace`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(text, `${label}: undefined`).not.toMatch(/\bundefined\b|\bNaN\b|\[object Object\]/);
  expect(text, `${label}: unfilled placeholder`).not.toMatch(/\{[a-zA-Z_]+\}/);
  expect(text, `${label}: internal error`).not.toMatch(/internal error|Error:/i);
  expect(text, `${label}: secret`).not.toContain(SECRET);
  expect(text, `${label}: API key`).not.toContain('sk-ant-test-key');
}

/** Processes (other than this one) running with the walk-through's HOME: leftovers of `start` or its Claude children. */
export function processesOfThisHome(home: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) {
        found.push(`${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')}`);
      }
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Every file and directory under `dir` whose mode is not 0700 (directories) / 0600 (files). */
export function wrongModes(dir: string): string[] {
  const bad: string[] = [];
  const st = fs.statSync(dir);
  if ((st.mode & 0o777) !== 0o700) bad.push(`${dir} ${(st.mode & 0o777).toString(8)}`);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) bad.push(...wrongModes(p));
    else if ((fs.statSync(p).mode & 0o777) !== 0o600) bad.push(`${p} ${(fs.statSync(p).mode & 0o777).toString(8)}`);
  }
  return bad;
}

export function httpGet(
  port: number,
  p: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `node <main> <args…>` to completion; asynchronous, so the in-process fakes keep answering. */
export function runNode(
  main: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      cwd: o.cwd,
      env: o.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** `node <main> start`, resolved once it printed that it runs (`按 Ctrl+C 停止`); killed if it never does. */
export async function startNode(
  main: string,
  o: { cwd: string; env: NodeJS.ProcessEnv; onSpawn: (child: ChildProcess) => void },
): Promise<Started> {
  const child = spawn(process.execPath, [main, 'start'], { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  o.onSpawn(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 30_000;
  let gone = false;
  void exited.then(() => (gone = true));
  while (!stdout.includes('按 Ctrl+C 停止')) {
    if (gone || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`cc-linker start did not come up.\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}
