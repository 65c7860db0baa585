import fs from 'node:fs';
import { writeFileAtomic } from '../../../store/atomic-write.js';
import type { ScannedSession } from '../scanned-session.js';
import type { ScanWarning } from '../scan-warning.js';
import type { AgentName } from './agent-name.js';
import type { AgentDirs, AgentFileRead, AgentReader } from './agent-reader.js';
import { AGENT_READERS } from './agent-readers.js';

/** One session another agent keeps. */
export interface AgentScannedSession {
  agent: Exclude<AgentName, 'claude'>;
  session: ScannedSession;
}

/** What a scan of every other agent saw (see `scanAgents`). */
export interface AgentsScan {
  sessions: AgentScannedSession[];
  /** The agents scanned: a registry entry of one of them whose session was not found is gone. */
  agents: Exclude<AgentName, 'claude'>[];
  /**
   * Directories that could not be listed and files that could not be judged (too large,
   * unreadable, a locked or garbage database): entries whose file lies there are kept as they are.
   */
  kept: string[];
  warnings: ScanWarning[];
  stats: { files: number; read: number; cached: number };
  /** `agentsStamp` of what was scanned, for the sync's quick check. */
  stamp: string;
  /** The cache's write, started but not awaited (like the Claude scan's); never rejects unhandled. */
  cacheWritten: Promise<void>;
}

/** Options of `scanAgents`. */
export interface ScanAgentsOptions {
  dirs: AgentDirs;
  /** `scanner.max_file_size`: a larger file is skipped (`too_large`), its sessions kept as they were. */
  maxFileSize: number;
  maxLineBytes?: number;
  /** The agents' scan cache (`scan-cache.agents.json`); omit to read every file. */
  cacheFile?: string;
  /** False: read every file again (`init`). */
  incremental?: boolean;
  /** The readers (default every agent's, `AGENT_READERS`). */
  readers?: readonly AgentReader[];
}

/** One file's last read, valid while it keeps this size and mtime. */
interface CacheEntry {
  agent: AgentName;
  size: number;
  mtimeMs: number;
  sessions: ScannedSession[];
}

/** Bump when a reader's output changes meaning: an older cache is then ignored. */
const CACHE_FORMAT = 1;

interface CacheFile {
  format: typeof CACHE_FORMAT;
  maxFileSize: number;
  entries: Record<string, CacheEntry>;
}

/**
 * Lists and reads every other agent's sessions through its reader (`AgentReader`): a file whose
 * size and mtime match the cache is not read again; the others are read one after the other. The
 * same session id twice for one agent (Gemini writes a loaded session to a new file) keeps the
 * most recently modified file's. Never throws for what it finds on disk.
 *
 * @example
 *   const scan = await scanAgents({ dirs: paths, maxFileSize, cacheFile: agentsCacheFile(paths.scanCacheFile) });
 */
export async function scanAgents(opts: ScanAgentsOptions): Promise<AgentsScan> {
  const readers = opts.readers ?? AGENT_READERS;
  const cache = opts.cacheFile && opts.incremental !== false ? readCache(opts.cacheFile, opts.maxFileSize) : {};
  const next: Record<string, CacheEntry> = {};
  const warnings: ScanWarning[] = [];
  const kept: string[] = [];
  const sessions: AgentScannedSession[] = [];
  const stats = { files: 0, read: 0, cached: 0 };
  const stamps: string[] = [];
  let dirty = Object.keys(cache).length === 0 && opts.cacheFile !== undefined;
  let lastYield = Date.now();

  for (const reader of readers) {
    const files = reader.list(opts.dirs, warnings, kept);
    const byId = new Map<string, ScannedSession>();
    for (const file of files) {
      stats.files += 1;
      const st = statQuietly(file);
      stamps.push(stampOf(file, st));
      if (!st?.isFile()) {
        if (st) warnings.push({ code: 'not_a_file', file });
        continue;
      }
      if (st.size > opts.maxFileSize) {
        warnings.push({ code: 'too_large', file, detail: st.size });
        kept.push(file);
        continue;
      }
      let found: ScannedSession[];
      const hit = cache[file];
      if (hit && hit.agent === reader.agent && hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
        stats.cached += 1;
        found = hit.sessions;
        next[file] = hit;
      } else {
        stats.read += 1;
        dirty = true;
        // Reads are synchronous (like the Claude scan's): let timers and sockets run every ~20 ms.
        if (Date.now() - lastYield > 20) {
          await new Promise((resolve) => setImmediate(resolve));
          lastYield = Date.now();
        }
        const read = await readSafely(reader, file, st, opts);
        warnings.push(...read.warnings);
        if (read.unreadable) {
          kept.push(file);
          continue;
        }
        found = read.sessions;
        next[file] = { agent: reader.agent, size: st.size, mtimeMs: st.mtimeMs, sessions: found };
      }
      for (const s of found) {
        const prev = byId.get(s.sessionId);
        if (
          !prev ||
          s.mtimeMs > prev.mtimeMs ||
          (s.mtimeMs === prev.mtimeMs && (s.lastActive ?? '') > (prev.lastActive ?? ''))
        )
          byId.set(s.sessionId, s);
      }
    }
    for (const file of reader.watched?.(opts.dirs) ?? []) stamps.push(stampOf(file, statQuietly(file)));
    // Copies: `complete` fills in facts from other files, which the cache must not keep.
    const own = [...byId.values()].map((s) => ({ ...s }));
    reader.complete?.(own, opts.dirs);
    for (const session of own) sessions.push({ agent: reader.agent, session });
  }
  if (Object.keys(cache).some((f) => !next[f])) dirty = true;
  const cacheWritten = opts.cacheFile && dirty ? writeCache(opts.cacheFile, opts.maxFileSize, next) : Promise.resolve();
  cacheWritten.catch(() => undefined);
  return {
    sessions,
    agents: readers.map((r) => r.agent),
    kept,
    warnings,
    stats,
    stamp: digest(stamps),
    cacheWritten,
  };
}

/**
 * The identity of every other agent's session files (path, size, mtime) and the files their
 * readers watch, without reading any: equal stamps mean a scan would find the same sessions. What
 * lets an unchanged `sync` skip the agents' scan.
 */
export function agentsStamp(dirs: AgentDirs, readers: readonly AgentReader[] = AGENT_READERS): string {
  const stamps: string[] = [];
  for (const reader of readers) {
    for (const file of reader.list(dirs, [], [])) stamps.push(stampOf(file, statQuietly(file)));
    for (const file of reader.watched?.(dirs) ?? []) stamps.push(stampOf(file, statQuietly(file)));
  }
  return digest(stamps);
}

/** `scan-cache.agents.json` beside the Claude scan's cache. */
export function agentsCacheFile(scanCacheFile: string): string {
  return `${scanCacheFile.replace(/\.json$/, '')}.agents.json`;
}

async function readSafely(
  reader: AgentReader,
  file: string,
  st: fs.Stats,
  opts: ScanAgentsOptions,
): Promise<AgentFileRead> {
  try {
    return await reader.read(file, st, { maxFileSize: opts.maxFileSize, maxLineBytes: opts.maxLineBytes });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : 'EIO');
    return { sessions: [], warnings: [{ code: 'unreadable', file, detail: code }], unreadable: true };
  }
}

function stampOf(file: string, st: fs.Stats | undefined): string {
  return st ? `${file}\0${st.size}\0${st.mtimeMs}` : `${file}\0-`;
}

/**
 * A short digest of the stamps (two 32-bit FNV-1a hashes, forwards and backwards): a change
 * detector, not a security check — and no `node:crypto`, which `init`, `sync` and `list` must not
 * load at start (test/e2e/session-cli-built.test.ts).
 */
function digest(stamps: string[]): string {
  const text = stamps.join('\n');
  let a = 0x811c9dc5;
  let b = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ text.charCodeAt(text.length - 1 - i), 0x01000193);
  }
  return `${stamps.length}:${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}`;
}

function statQuietly(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

/** The cache's entries; anything unusable is an empty cache (it is only a speed-up). */
function readCache(file: string, maxFileSize: number): Record<string, CacheEntry> {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<CacheFile> | null;
    if (!v || v.format !== CACHE_FORMAT || v.maxFileSize !== maxFileSize || typeof v.entries !== 'object') return {};
    const out: Record<string, CacheEntry> = {};
    for (const [f, e] of Object.entries(v.entries ?? {})) {
      if (
        typeof e === 'object' &&
        e !== null &&
        typeof e.size === 'number' &&
        typeof e.mtimeMs === 'number' &&
        typeof e.agent === 'string' &&
        Array.isArray(e.sessions) &&
        e.sessions.every(isSession)
      )
        out[f] = e;
    }
    return out;
  } catch {
    return {};
  }
}

function isSession(s: unknown): s is ScannedSession {
  if (typeof s !== 'object' || s === null) return false;
  const o = s as Record<string, unknown>;
  return (
    typeof o.sessionId === 'string' &&
    typeof o.jsonlPath === 'string' &&
    typeof o.messageCount === 'number' &&
    typeof o.lastMessagePreview === 'string' &&
    (o.health === 'ok' || o.health === 'corrupted')
  );
}

/** Written like the Claude scan's cache: atomically, without fsyncs (a torn cache reads as empty). */
async function writeCache(file: string, maxFileSize: number, entries: Record<string, CacheEntry>): Promise<void> {
  const body: CacheFile = { format: CACHE_FORMAT, maxFileSize, entries };
  await writeFileAtomic(file, JSON.stringify(body), { durable: false });
}
