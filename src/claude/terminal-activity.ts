import fs from 'node:fs';
import path from 'node:path';
import { runProcess } from '../process/run-process.js';

/** Whether a terminal `claude` is using a session right now, and how sure we are. */
export interface TerminalActivity {
  busy: boolean;
  confidence: 'high' | 'medium' | 'low';
  reason: string;
}

/** A running process as seen by the scan. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  argv: string[];
  /** Working directory when readable (Linux, same user), else undefined. */
  cwd?: string;
}

/** Options of `checkTerminalActivity`; everything but `sessionId` is optional. */
export interface TerminalActivityOptions {
  sessionId: string;
  /** The session's JSONL file, for the "recent writes" evidence. */
  jsonlPath?: string | null;
  /** The session's working directory, to tie a `claude` started without `--resume` to it. */
  cwd?: string | null;
  /** A write this recent counts as activity (default 10 s). */
  recentMs?: number;
  now?: () => number;
  /** Process source (tests inject one); default: /proc on Linux, `ps` on macOS. */
  listProcesses?: () => Promise<ProcessInfo[]>;
  /** Pids that are ours (default: children of this process — the engine's own runs). */
  isOwn?: (p: ProcessInfo) => boolean;
}

const RECENT_MS = 10_000;

/**
 * Is a terminal Claude Code process using `sessionId`? Meant for the bridge to warn the user (a
 * "busy in the terminal" card with a force-send button) instead of writing into a session a
 * terminal is typing into; nothing calls it yet. Evidence, strongest first:
 * 1. a `claude` process whose argv resumes this id (`--resume <id>`, `-r <id>`, `--resume=<id>`,
 *    `--session-id <id>`) → busy, `high`;
 * 2. the JSONL was written in the last `recentMs` AND a `claude` process runs in the session's cwd →
 *    busy, `medium`;
 * 3. only a recent write → busy, `low` (too weak to warn about: a caller should send anyway);
 * otherwise not busy. The engine's own children are not terminals and are skipped. Any failure of
 * the check itself means "not busy" (`low`): the check must never block a user.
 *
 * @example await checkTerminalActivity({ sessionId, jsonlPath, cwd }) // { busy: true, confidence: 'high', reason: 'claude pid 4242 resumes this session' }
 */
export async function checkTerminalActivity(opts: TerminalActivityOptions): Promise<TerminalActivity> {
  try {
    const list = opts.listProcesses ?? defaultProcessList;
    const isOwn = opts.isOwn ?? ((p: ProcessInfo) => p.pid === process.pid || p.ppid === process.pid);
    const claudes = (await list()).filter((p) => isClaudeProcess(p.argv) && !isOwn(p));
    const resuming = claudes.find((p) => resumesSession(p.argv, opts.sessionId));
    if (resuming) return { busy: true, confidence: 'high', reason: `claude pid ${resuming.pid} resumes this session` };
    const mtime = opts.jsonlPath ? mtimeOf(opts.jsonlPath) : null;
    const now = (opts.now ?? Date.now)();
    const recent = mtime !== null && now - mtime <= (opts.recentMs ?? RECENT_MS);
    const sameDir = opts.cwd
      ? claudes.find((p) => p.cwd !== undefined && samePath(p.cwd, opts.cwd as string))
      : undefined;
    if (recent && sameDir)
      return {
        busy: true,
        confidence: 'medium',
        reason: `session file written ${Math.round((now - (mtime as number)) / 1000)} s ago; claude pid ${sameDir.pid} runs in its directory`,
      };
    if (recent)
      return {
        busy: true,
        confidence: 'low',
        reason: `session file written ${Math.round((now - (mtime as number)) / 1000)} s ago`,
      };
    return {
      busy: false,
      confidence: sameDir ? 'medium' : 'high',
      reason: sameDir
        ? `claude pid ${sameDir.pid} runs in the directory but the session file is idle`
        : 'no claude process uses this session',
    };
  } catch (err) {
    return {
      busy: false,
      confidence: 'low',
      reason: `activity check failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

/** True for the Claude Code CLI: the native `claude` binary, or node/bun running its `cli.js`. */
export function isClaudeProcess(argv: readonly string[]): boolean {
  const exe = path.basename(argv[0] ?? '');
  if (exe === 'claude' || exe === 'claude.exe') return true;
  if (/^(node|bun|nodejs)(\.exe)?$/.test(exe)) {
    const script = argv[1] ?? '';
    return /(^|\/)claude$/.test(script) || /claude-code\/cli\.m?js$/.test(script);
  }
  return false;
}

/** True when the argv resumes (or names) this session id. */
export function resumesSession(argv: readonly string[], sessionId: string): boolean {
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i] as string;
    if ((a === '--resume' || a === '-r' || a === '--session-id') && argv[i + 1] === sessionId) return true;
    if (a === `--resume=${sessionId}` || a === `--session-id=${sessionId}`) return true;
  }
  return false;
}

function mtimeOf(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string): string => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return norm(a) === norm(b);
}

async function defaultProcessList(): Promise<ProcessInfo[]> {
  if (process.platform === 'linux') return listProc('/proc');
  if (process.platform === 'darwin') return listPs();
  return [];
}

/** Linux: every readable `/proc/<pid>` (cmdline, ppid from stat, cwd when permitted). */
function listProc(procRoot: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of fs.readdirSync(procRoot)) {
    if (!/^\d+$/.test(name)) continue;
    const dir = path.join(procRoot, name);
    try {
      const argv = fs.readFileSync(path.join(dir, 'cmdline'), 'utf8').split('\0');
      if (argv.at(-1) === '') argv.pop();
      if (argv.length === 0 || !isClaudeProcess(argv)) continue; // only claude processes need the rest
      const stat = fs.readFileSync(path.join(dir, 'stat'), 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      let cwd: string | undefined;
      try {
        cwd = fs.readlinkSync(path.join(dir, 'cwd'));
      } catch {
        cwd = undefined;
      }
      out.push({ pid: Number(name), ppid, argv, ...(cwd ? { cwd } : {}) });
    } catch {
      // the process ended while we looked, or is not ours to read
    }
  }
  return out;
}

/** macOS: `ps -axo pid=,ppid=,command=` (argv split on spaces, so paths with spaces are approximate). */
async function listPs(): Promise<ProcessInfo[]> {
  const r = await runProcess(['ps', '-axo', 'pid=,ppid=,command='], {
    hardTimeoutMs: 3000,
    env: { PATH: '/bin:/usr/bin' },
  });
  if (r.reason !== 'exit' || r.exitCode !== 0) throw new Error(`ps failed (${r.reason}, exit ${String(r.exitCode)})`);
  const out: ProcessInfo[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    out.push({ pid: Number(m[1]), ppid: Number(m[2]), argv: (m[3] ?? '').trim().split(/\s+/) });
  }
  return out;
}
