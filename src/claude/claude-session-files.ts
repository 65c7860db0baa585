import fs from 'node:fs';
import path from 'node:path';
import type { SessionFiles } from '../engine/guarded-engine.js';
import { encodeProjectDir } from '../sessions/scan/project-dir.js';
import { resolveJsonlPath } from './resolve-jsonl-path.js';

/**
 * Where Claude Code keeps a session: `<projects>/<encoded real cwd>/<id>.jsonl`, appended line by
 * line as a turn goes — the ground truth of what a run did, and its sign of life while it is silent.
 */
export function claudeSessionFiles(claudeProjectsDir: string, pollDelaysMs?: readonly number[]): SessionFiles {
  return {
    transcriptOf: (sessionId, realCwd) => path.join(claudeProjectsDir, encodeProjectDir(realCwd), `${sessionId}.jsonl`),
    newestWrite: (realCwd, sessionId) =>
      newestJsonlMtime(path.join(claudeProjectsDir, encodeProjectDir(realCwd)), sessionId),
    locateNew: (sessionId, realCwd) =>
      resolveJsonlPath(claudeProjectsDir, sessionId, realCwd, pollDelaysMs ? { delaysMs: pollDelaysMs } : {}),
  };
}

/**
 * Newest modification time (ms) of the session files of a project directory (Claude appends to
 * its JSONL as it goes).
 */
function newestJsonlMtime(projectDir: string, sessionId?: string): number | null {
  if (sessionId) {
    try {
      return fs.statSync(path.join(projectDir, `${sessionId}.jsonl`)).mtimeMs;
    } catch {
      // not there (yet): look at the whole directory
    }
  }
  let newest: number | null = null;
  let names: string[];
  try {
    names = fs.readdirSync(projectDir);
  } catch {
    return null;
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    try {
      const m = fs.statSync(path.join(projectDir, name)).mtimeMs;
      if (newest === null || m > newest) newest = m;
    } catch {
      // vanished meanwhile
    }
  }
  return newest;
}
