import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../store/atomic-write.js';
import { randomHex } from '../../store/random-hex.js';
import type { ScanWarning } from '../scan/scan-warning.js';

/**
 * A session discovery event, written by the Claude Code SessionStart hook into
 * `runtime/session-events/`: the hook never touches `registry.json` (while `cc-linker start` runs
 * it is the registry's only writer); the main process or an offline `sync` merges these events.
 * `source` is Claude's (`startup`, `resume`, `clear`,
 * `compact`); `time` is when the hook ran (ISO).
 */
export interface DiscoveryEvent {
  session_id: string;
  cwd: string | null;
  transcript_path: string | null;
  source: string | null;
  time: string;
}

/** Events read from the directory, and the files they came from (to delete once merged). */
export interface SessionEventsRead {
  events: DiscoveryEvent[];
  /** Every event file seen, valid or not: remove them after the registry write succeeded. */
  files: string[];
  warnings: ScanWarning[];
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Writes one event file atomically (0600, directory 0700). Synchronous and dependency-light
 * because it runs inside the hook, on the critical path of Claude Code's startup.
 */
export function writeSessionEventSync(dir: string, event: DiscoveryEvent): string {
  const id = SAFE_ID.test(event.session_id) ? event.session_id : 'unknown';
  const file = path.join(dir, `${event.time.replace(/[:.]/g, '-')}-${id}-${randomHex(8)}.json`);
  writeFileAtomicSync(file, `${JSON.stringify(event)}\n`);
  return file;
}

/**
 * Reads all pending events, oldest first. A missing directory is no events; a file that does not
 * parse or lacks a session id is reported (`bad_event`) and listed for removal. The directory and
 * its few small files are read synchronously: every `sync` and `init` starts here, and a
 * thread-pool round trip costs more than each read.
 */
export async function readSessionEvents(dir: string): Promise<SessionEventsRead> {
  const out: SessionEventsRead = { events: [], files: [], warnings: [] };
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') out.warnings.push({ code: 'unreadable_dir', file: dir, detail: code ?? 'EIO' });
    return out;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    out.files.push(file);
    const event = readOne(file);
    if (event) out.events.push(event);
    else out.warnings.push({ code: 'bad_event', file });
  }
  out.events.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return out;
}

/** Deletes merged event files; one that is already gone is fine. */
export async function removeSessionEvents(files: readonly string[]): Promise<void> {
  await Promise.all(files.map((f) => fs.promises.rm(f, { force: true })));
}

function readOne(file: string): DiscoveryEvent | null {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (typeof v !== 'object' || v === null || typeof v.session_id !== 'string' || !SAFE_ID.test(v.session_id))
      return null;
    const str = (x: unknown): string | null => (typeof x === 'string' && x.length > 0 ? x : null);
    const time = str(v.time);
    return {
      session_id: v.session_id,
      cwd: str(v.cwd),
      transcript_path: str(v.transcript_path),
      source: str(v.source),
      time: time && !Number.isNaN(Date.parse(time)) ? time : new Date(0).toISOString(),
    };
  } catch {
    return null;
  }
}
