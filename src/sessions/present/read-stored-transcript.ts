import fs from 'node:fs/promises';
import path from 'node:path';
import type { Paths } from '../../core/paths.js';
import { isInside } from '../../core/path-inside.js';
import type { SessionEntry } from '../registry/registry-schema.js';
import { readSessionTranscript, type ExportedMessage } from './export-session.js';

/** Where the agents keep their sessions (`core/paths.ts`). */
export type StorageDirs = Pick<
  Paths,
  'claudeProjectsDir' | 'codexHome' | 'geminiHome' | 'qwenHome' | 'opencodeDataDir'
>;

/**
 * The directory every session file of `agent` lies in: Claude Code's projects directory,
 * `$CODEX_HOME/sessions`, `~/.gemini/tmp`, `~/.qwen/projects`, OpenCode's data directory. Null for
 * an agent whose files cc-linker does not read (a configured agent).
 */
export function agentStorageDir(agent: string, dirs: StorageDirs): string | null {
  switch (agent) {
    case 'claude':
      return dirs.claudeProjectsDir;
    case 'codex':
      return path.join(dirs.codexHome, 'sessions');
    case 'gemini':
      return path.join(dirs.geminiHome, 'tmp');
    case 'qwen':
      return path.join(dirs.qwenHome, 'projects');
    case 'opencode':
      return dirs.opencodeDataDir;
    default:
      return null;
  }
}

/** A session file that may be read: its real path, size and modification time. */
export interface StoredFile {
  file: string;
  size: number;
  mtimeMs: number;
}

/**
 * The registry entry's session file, only when it lies inside its agent's own storage directory:
 * the registry's `jsonl_path` and that directory are both resolved through symlinks first, so a
 * registry entry (hand-edited, or written by anything else) can never make a page or a chat reply
 * show another file. Null when the file is outside, missing, not a file or over `maxFileSize` (the
 * scanner's `scanner.max_file_size`: an OpenCode database is read whole), or the agent's files are
 * not read.
 */
export async function storedTranscriptFile(
  entry: Pick<SessionEntry, 'agent' | 'jsonl_path'>,
  dirs: StorageDirs,
  maxFileSize?: number,
): Promise<StoredFile | null> {
  const root = agentStorageDir(entry.agent, dirs);
  if (!entry.jsonl_path || !root || !path.isAbsolute(entry.jsonl_path)) return null;
  try {
    const [file, realRoot] = await Promise.all([fs.realpath(entry.jsonl_path), fs.realpath(root)]);
    if (file === realRoot || !isInside(file, realRoot)) return null;
    const stat = await fs.stat(file);
    if (!stat.isFile() || (maxFileSize !== undefined && stat.size > maxFileSize)) return null;
    return { file, size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return null;
  }
}

/**
 * A session's transcript, read only from inside its agent's own storage directory
 * (`storedTranscriptFile`). Null when that file may not or cannot be read.
 *
 * @example
 *   const messages = await readStoredTranscript(id, entry, paths, { thinking: false });
 */
export async function readStoredTranscript(
  id: string,
  entry: Pick<SessionEntry, 'agent' | 'jsonl_path'>,
  dirs: StorageDirs,
  opts: { thinking: boolean; maxLineBytes?: number; maxFileSize?: number; detail?: boolean },
): Promise<ExportedMessage[] | null> {
  const stored = await storedTranscriptFile(entry, dirs, opts.maxFileSize);
  if (!stored) return null;
  try {
    return await readSessionTranscript(
      id,
      { agent: entry.agent, jsonl_path: stored.file },
      {
        thinking: opts.thinking,
        ...(opts.maxLineBytes ? { maxLineBytes: opts.maxLineBytes } : {}),
        ...(opts.detail ? { detail: true } : {}),
      },
    );
  } catch {
    return null;
  }
}
