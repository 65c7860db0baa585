import fs from 'node:fs';
import type { KeptState, WarmPoolOptions, WarmProcess } from '../engine/warm-pool.js';
import type { SessionFiles } from '../engine/guarded-engine.js';
import { checkTerminalActivity, type TerminalActivityOptions } from './terminal-activity.js';

/** The longest stretch of a transcript read to see what was appended since the last turn. */
const MAX_APPENDED_BYTES = 4 * 1024 * 1024;

/**
 * When a kept Claude Code child must not take the next turn, because its memory of the session
 * would be out of date or it would write beside someone else:
 * - the session's transcript gained a conversation line (`user` / `assistant`) since the child's
 *   last turn — the session was continued elsewhere (a terminal, another tool); Claude Code's own
 *   bookkeeping lines after a turn do not count;
 * - the transcript shrank or was replaced;
 * - a terminal `claude` process resumes this session right now (`checkTerminalActivity`, high
 *   confidence).
 * A fresh child then resumes the session from its file, as a cold run does.
 */
export function claudeWarmChecks(
  files: SessionFiles,
  terminal: Pick<TerminalActivityOptions, 'listProcesses' | 'isOwn'> = {},
): Pick<WarmPoolOptions, 'snapshot' | 'staleReason'> {
  const fileOf = (sessionId: string, process: WarmProcess): string | null => files.transcriptOf(sessionId, process.cwd);
  return {
    snapshot: (sessionId, process) => {
      const file = fileOf(sessionId, process);
      const stat = file ? statOf(file) : null;
      return stat ? { size: stat.size, ino: stat.ino } : {};
    },
    staleReason: async (sessionId, process, kept) => {
      const file = fileOf(sessionId, process);
      const appended = file ? appendedConversation(file, kept) : null;
      if (appended) return appended;
      const activity = await checkTerminalActivity({ sessionId, jsonlPath: file, cwd: process.cwd, ...terminal });
      return activity.busy && activity.confidence === 'high'
        ? `a terminal uses the session (${activity.reason})`
        : null;
    },
  };
}

function statOf(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

/** Why the transcript says the session moved on without the kept child, or null. */
function appendedConversation(file: string, kept: KeptState): string | null {
  const size = typeof kept.size === 'number' ? kept.size : null;
  if (size === null) return null; // nothing was known when it was kept
  const stat = statOf(file);
  if (!stat) return 'the transcript is gone';
  if (stat.ino !== kept.ino || stat.size < size) return 'the transcript was rewritten';
  if (stat.size === size) return null;
  if (stat.size - size > MAX_APPENDED_BYTES) return 'the session was continued elsewhere';
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(stat.size - size);
    fs.readSync(fd, buffer, 0, buffer.length, size);
    for (const line of buffer.toString('utf8').split('\n'))
      if (isConversationLine(line)) return 'the session was continued elsewhere';
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function isConversationLine(line: string): boolean {
  try {
    const value = JSON.parse(line) as { type?: unknown };
    return value.type === 'user' || value.type === 'assistant';
  } catch {
    return false; // a line still being written
  }
}
