import fs from 'node:fs';
import path from 'node:path';
import type { Paths } from '../../core/paths.js';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { ensurePrivateDirSync } from '../../store/private-dir.js';
import { mergeRegistry, type MergeStats } from './merge-registry.js';
import { registryStamp } from './read-registry.js';
import { modifyRegistry, readRegistry } from './registry.js';
import { ARCHIVE_AFTER_MS, type Registry } from './registry-schema.js';
import {
  scanClaudeProjects,
  unchangedSinceLastScan,
  type ProjectsScan,
  type ScanProgress,
} from '../scan/scan-claude-projects.js';
import type { ScanWarning } from '../scan/scan-warning.js';
import { isSessionId } from '../scan/session-id.js';
import { isAgentSessionId } from '../scan/agent-files/agent-name.js';
import type { AgentDirs } from '../scan/agent-files/agent-reader.js';
import { agentsCacheFile, agentsStamp, scanAgents, type AgentsScan } from '../scan/agent-files/scan-agents.js';
import { readSessionEvents, removeSessionEvents, type SessionEventsRead } from '../hook/session-events.js';
import type { MappedSessions } from './mapped-session.js';

/** Options of `syncRegistry`. */
export interface SyncOptions {
  paths: Pick<
    Paths,
    | 'home'
    | 'registryFile'
    | 'registryBackupDir'
    | 'locksDir'
    | 'scanCacheFile'
    | 'claudeProjectsDir'
    | 'sessionEventsDir'
    | 'userMappingFile'
  > &
    Partial<AgentDirs>;
  /** `scanner.max_file_size`. */
  maxFileSize: number;
  /**
   * Reads the bridge's user mapping (`paths.userMappingFile`, which the bridge owns:
   * `readMappedSessions` in bridge/mapping/). Called only when the registry is merged again — a
   * sync that finds nothing changed (the mapping file included) does not read it.
   */
  readMapping: () => Promise<MappedSessions>;
  /** `scanner.incremental` (default true); `init` passes false to rescan everything. */
  incremental?: boolean;
  now?: Date;
  onProgress?: (p: ScanProgress) => void;
  signal?: AbortSignal;
}

/** What a sync did, for the `init` / `sync` summary. */
export interface SyncResult {
  stats: MergeStats;
  scan: ProjectsScan['stats'];
  warnings: ScanWarning[];
  /** True when there was no registry file before. */
  created: boolean;
  /** Discovery events merged (and removed). */
  events: number;
  /** The other agents' scan (none when `paths` does not say where the agents live). */
  agents: AgentsScan['stats'] | null;
}

/**
 * Rebuilds the registry from disk: scans the session files (incrementally), then — under the
 * registry lock — re-reads the registry, merges the scan, the hook's discovery events and the user
 * mapping (`mergeRegistry`), writes it (with a rolling backup, only when something changed) and
 * deletes the merged events. The scan runs outside the lock, so the bridge's own updates are
 * never blocked for the length of a big scan. When nothing changed since the last sync (same
 * files, registry, mapping; no events; no session due to turn archived) it answers from a small
 * sync state (`scan-cache.sync.json`) without reading the registry at all.
 *
 * Callers that are not the runtime owner must check `assertNoLiveOwner` first (the CLI does).
 *
 * @example
 *   const r = await syncRegistry({
 *     paths,
 *     maxFileSize: config.scanner.max_file_size,
 *     readMapping: () => readMappedSessions(paths.userMappingFile),
 *   });
 *   out.print(`Found ${r.stats.scanned} Claude sessions`);
 */
export async function syncRegistry(opts: SyncOptions): Promise<SyncResult> {
  const { paths } = opts;
  ensurePrivateDirSync(paths.home);
  const now = opts.now ?? new Date();
  const stateFile = syncStateFile(paths.scanCacheFile);
  const events = await readSessionEvents(paths.sessionEventsDir);
  const eventFiles = events.events.flatMap((e) =>
    e.transcript_path && path.isAbsolute(e.transcript_path) && e.transcript_path.endsWith('.jsonl')
      ? [e.transcript_path]
      : [],
  );

  // Fast path: nothing on disk changed since the last sync and no status is due to age — answer
  // from the sync state without reading or rewriting the registry.
  const state = opts.incremental === false || events.files.length > 0 ? null : await readSyncState(stateFile);
  const dirs = agentDirsOf(paths);
  if (
    state &&
    state.agentsStamp === (dirs ? agentsStamp(dirs) : null) &&
    state.registryStamp !== null &&
    state.registryStamp === (await registryStamp(paths.registryFile)) &&
    state.mappingStamp === (await registryStamp(paths.userMappingFile)) &&
    (state.nextChangeAt === null || now.getTime() < state.nextChangeAt)
  ) {
    const extraFiles = await existing(state.extraFiles);
    const same = unchangedSinceLastScan({
      projectsDir: paths.claudeProjectsDir,
      cacheFile: paths.scanCacheFile,
      maxFileSize: opts.maxFileSize,
      extraFiles,
    });
    if (same)
      return { stats: state.stats, scan: same, warnings: events.warnings, created: false, events: 0, agents: null };
    const scan = await scanClaudeProjects({
      projectsDir: paths.claudeProjectsDir,
      maxFileSize: opts.maxFileSize,
      cacheFile: paths.scanCacheFile,
      extraFiles,
      onProgress: opts.onProgress,
      signal: opts.signal,
    });
    if (!scan.changed) {
      await scan.cacheWritten;
      return {
        stats: state.stats,
        scan: scan.stats,
        warnings: [...scan.warnings, ...events.warnings],
        created: false,
        events: 0,
        agents: null,
      };
    }
    return slowSync(opts, now, stateFile, events, eventFiles, scan);
  }
  return slowSync(opts, now, stateFile, events, eventFiles, null);
}

async function slowSync(
  opts: SyncOptions,
  now: Date,
  stateFile: string,
  events: SessionEventsRead,
  eventFiles: string[],
  earlierScan: ProjectsScan | null,
): Promise<SyncResult> {
  const { paths } = opts;
  const before = await readRegistry(paths);
  const projectsPrefix = paths.claudeProjectsDir + path.sep;
  const outside = new Set(eventFiles);
  for (const entry of Object.values(before.registry.sessions)) {
    if (entry.agent === 'claude' && entry.jsonl_path && !entry.jsonl_path.startsWith(projectsPrefix))
      outside.add(entry.jsonl_path);
  }
  const extraFiles = await existing([...outside]);
  const reuse = earlierScan && extraFiles.every((f) => earlierScan.sessions.some((s) => s.jsonlPath === f));
  if (earlierScan && !reuse) await earlierScan.cacheWritten; // before the next scan writes the cache again
  const scan =
    earlierScan && reuse
      ? earlierScan
      : await scanClaudeProjects({
          projectsDir: paths.claudeProjectsDir,
          maxFileSize: opts.maxFileSize,
          cacheFile: paths.scanCacheFile,
          incremental: opts.incremental,
          extraFiles,
          onProgress: opts.onProgress,
          signal: opts.signal,
        });
  const dirs = agentDirsOf(paths);
  const agents = dirs
    ? await scanAgents({
        dirs,
        maxFileSize: opts.maxFileSize,
        cacheFile: agentsCacheFile(paths.scanCacheFile),
        incremental: opts.incremental,
      })
    : null;
  const mapping = await opts.readMapping();
  const mappingStamp = await registryStamp(paths.userMappingFile);
  const result = await modifyRegistry(
    paths,
    async (current) => {
      const kept = current.exists ? withSessionIdsOnly(current.registry) : null;
      const merged = mergeRegistry(
        kept?.registry ?? null,
        scan,
        events.events.filter((e) => isSessionId(e.session_id)),
        mapping.sessions.filter((m) => isSessionId(m.sessionId)),
        now,
        agents ?? undefined,
      );
      return {
        registry: merged.registry,
        result: {
          stats: merged.stats,
          created: !current.exists,
          warnings: [...current.warnings, ...(kept?.warnings ?? [])],
          next: merged.registry,
        },
      };
    },
    { reuse: before },
  );
  await removeSessionEvents(events.files);
  await scan.cacheWritten;
  await agents?.cacheWritten;
  const sessions = Object.values(result.next.sessions);
  await writeSyncState(stateFile, {
    format: SYNC_STATE_FORMAT,
    registryStamp: await registryStamp(paths.registryFile),
    mappingStamp,
    nextChangeAt: sessions.reduce<number | null>((min, e) => {
      if ((e.status ?? 'active') !== 'active') return min;
      const due = Date.parse(e.last_active) + ARCHIVE_AFTER_MS;
      return Number.isNaN(due) ? min : min === null ? due : Math.min(min, due);
    }, null),
    stats: result.stats,
    extraFiles: sessions.flatMap((e) =>
      e.agent === 'claude' && e.jsonl_path && !e.jsonl_path.startsWith(projectsPrefix) ? [e.jsonl_path] : [],
    ),
    agentsStamp: agents?.stamp ?? null,
  });
  return {
    stats: result.stats,
    scan: scan.stats,
    warnings: [
      ...result.warnings,
      ...scan.warnings,
      ...(agents?.warnings ?? []),
      ...events.warnings,
      ...mapping.warnings,
    ],
    created: result.created,
    events: events.events.length,
    agents: agents?.stats ?? null,
  };
}

/**
 * The registry without the entries whose key is not a session id of their agent
 * (`isAgentSessionId`), with a warning for each: an older version made sessions of any `*.jsonl`
 * file name (`--dangerously-skip-permissions`), and such an id must never be listed or resumed. Hook events and mapped sessions with such an id are
 * left out of the merge the same way.
 */
function withSessionIdsOnly(registry: Registry): { registry: Registry; warnings: ScanWarning[] } {
  const foreign = Object.entries(registry.sessions)
    .filter(([id, e]) => !isAgentSessionId(e.agent, id))
    .map(([id]) => id);
  if (foreign.length === 0) return { registry, warnings: [] };
  const sessions = { ...registry.sessions };
  const warnings: ScanWarning[] = [];
  for (const id of foreign) {
    warnings.push({ code: 'not_a_session_id', file: sessions[id]?.jsonl_path ?? id });
    delete sessions[id];
  }
  return { registry: { ...registry, sessions }, warnings };
}

/**
 * What the last sync saw, so the next one can tell "nothing changed" without reading the
 * registry: the registry's and the mapping's file identity, when the first active session turns
 * archived, the summary counts, and the session files outside `projects/` to keep watching.
 * `format` changes when a sync must merge again whatever the stamps say: 2 — registry entries
 * whose id is not a session id are dropped, so the first sync of this version always merges; 3 —
 * the other agents' sessions are scanned too (`agentsStamp`: their files' identity, null when the
 * sync was not told where the agents live).
 */
interface SyncState {
  format: typeof SYNC_STATE_FORMAT;
  registryStamp: string | null;
  mappingStamp: string | null;
  nextChangeAt: number | null;
  stats: MergeStats;
  extraFiles: string[];
  agentsStamp: string | null;
}

const SYNC_STATE_FORMAT = 3;

/** Where the agents live, when `paths` says it for every one of them. */
function agentDirsOf(paths: Partial<AgentDirs>): AgentDirs | null {
  const { codexHome, geminiHome, qwenHome, opencodeDataDir } = paths;
  return codexHome && geminiHome && qwenHome && opencodeDataDir
    ? { codexHome, geminiHome, qwenHome, opencodeDataDir }
    : null;
}

/** `scan-cache.sync.json` beside the scan cache. */
function syncStateFile(scanCacheFile: string): string {
  return `${scanCacheFile.replace(/\.json$/, '')}.sync.json`;
}

async function readSyncState(file: string): Promise<SyncState | null> {
  try {
    const v = JSON.parse(await fs.promises.readFile(file, 'utf8')) as SyncState;
    return typeof v === 'object' &&
      v !== null &&
      v.format === SYNC_STATE_FORMAT &&
      typeof v.stats === 'object' &&
      Array.isArray(v.extraFiles)
      ? v
      : null;
  } catch {
    return null;
  }
}

/**
 * Written without fsyncs, like the scan cache: it is only a hint (its stamps must match the
 * registry's), so one lost or torn by a power cut just means one full sync.
 */
async function writeSyncState(file: string, state: SyncState): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(state), { durable: false });
}

async function existing(files: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) if (await exists(f)) out.push(f);
  return out;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).isFile();
  } catch {
    return false;
  }
}
