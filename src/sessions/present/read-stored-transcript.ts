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

/**
 * A session's transcript, read only from inside its agent's own storage directory: the registry's
 * `jsonl_path` and that directory are both resolved through symlinks first, so a registry entry
 * (hand-edited, or written by anything else) can never make a page or a chat reply show another
 * file. Null when the file is outside, missing, unreadable or over `maxFileSize` (the scanner's
 * `scanner.max_file_size`: an OpenCode database is read whole), or the agent's files are not read.
 *
 * @example
 *   const messages = await readStoredTranscript(id, entry, paths, { thinking: false });
 */
export async function readStoredTranscript(
  id: string,
  entry: Pick<SessionEntry, 'agent' | 'jsonl_path'>,
  dirs: StorageDirs,
  opts: { thinking: boolean; maxLineBytes?: number; maxFileSize?: number; toolInputs?: boolean },
): Promise<ExportedMessage[] | null> {
  const root = agentStorageDir(entry.agent, dirs);
  if (!entry.jsonl_path || !root || !path.isAbsolute(entry.jsonl_path)) return null;
  try {
    const [file, realRoot] = await Promise.all([fs.realpath(entry.jsonl_path), fs.realpath(root)]);
    if (file === realRoot || !isInside(file, realRoot)) return null;
    const stat = await fs.stat(file);
    if (!stat.isFile() || (opts.maxFileSize !== undefined && stat.size > opts.maxFileSize)) return null;
    return await readSessionTranscript(
      id,
      { agent: entry.agent, jsonl_path: file },
      {
        thinking: opts.thinking,
        ...(opts.toolInputs ? { toolInputs: true } : {}),
        ...(opts.maxLineBytes ? { maxLineBytes: opts.maxLineBytes } : {}),
      },
    );
  } catch {
    return null;
  }
}
