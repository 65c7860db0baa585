#!/usr/bin/env node
/**
 * The script Claude Code runs at SessionStart (installed by `cc-linker hook install`). It reads
 * the hook's JSON from stdin (`session_id`, `transcript_path`, `cwd`, `source`, …) and writes one
 * discovery event into `~/.cc-linker/runtime/session-events/` — nothing else: the registry is
 * merged later by the running bot or an offline `sync`: while `cc-linker start` runs it is the only
 * writer of the registry, and a hook never writes it.
 *
 * It must never get in Claude's way: it prints nothing (a SessionStart hook's stdout becomes
 * model context), always exits 0, and gives up reading stdin after 2 s. The build also bundles it
 * into one CommonJS file, `session-start-hook.cjs`, which is what `hook install` points Claude at:
 * it starts without the ES-module loader (≈ 58 → 34 ms a session start; `node -e 0` is ≈ 31 ms).
 */
import { resolvePaths } from '../core/paths.js';
import { tightenPrivateDirSync } from '../core/private-dir.js';
import { writeSessionEventSync, type DiscoveryEvent } from './hook/session-events.js';

/** Turns the hook's stdin into an event and writes it; returns the event file, or null when there was nothing usable. */
export function recordSessionStart(stdinText: string, env: NodeJS.ProcessEnv, now: Date = new Date()): string | null {
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(stdinText) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof input !== 'object' || input === null || typeof input.session_id !== 'string' || !input.session_id)
    return null;
  const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
  const event: DiscoveryEvent = {
    session_id: input.session_id,
    cwd: str(input.cwd),
    transcript_path: str(input.transcript_path),
    source: str(input.source),
    time: now.toISOString(),
  };
  const paths = resolvePaths(env);
  tightenPrivateDirSync(paths.home); // a `~/.cc-linker` made by hand (0755): what the hook writes stays private
  return writeSessionEventSync(paths.sessionEventsDir, event);
}

async function readStdin(timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'));
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    process.stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1024 * 1024) chunks.push(c);
    });
    process.stdin.on('end', () => {
      clearTimeout(timer);
      done();
    });
    process.stdin.on('error', () => {
      clearTimeout(timer);
      done();
    });
  });
}

async function main(): Promise<void> {
  try {
    recordSessionStart(await readStdin(2000), process.env);
  } catch {
    /* never fail Claude */
  }
  process.exit(0);
}

// Run as a script (the built .cjs, the .js an older `hook install` points at, or the .ts under tsx),
// never when imported: judged by the script's name, which works in the ES module and in the bundle.
if (/(^|[\\/])session-start-hook\.(cjs|js|ts)$/.test(process.argv[1] ?? '')) void main();
