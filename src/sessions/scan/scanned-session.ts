import path from 'node:path';

/**
 * What one session file says, as the registry needs it. Times are ISO strings from the lines'
 * `timestamp` fields (null when the file has none).
 */
export interface ScannedSession {
  /** The file name without `.jsonl`: the id `claude --resume` looks for. */
  sessionId: string;
  jsonlPath: string;
  /** The encoded directory under `projects/` (lossy: never decoded). */
  projectDir: string;
  /** The real working directory, from the lines' `cwd` (preferring one that encodes to `projectDir`). */
  cwd: string | null;
  /** From a title line (custom > ai > summary), else null. */
  title: string | null;
  /** The first human prompt (preview length), the fallback title. */
  firstPrompt: string | null;
  /** Human prompts + distinct assistant messages (by `message.id`), sidechains excluded. */
  messageCount: number;
  lastMessagePreview: string;
  lastUserPreview: string;
  lastAssistantPreview: string;
  createdAt: string | null;
  lastActive: string | null;
  /** `message.model` of the last assistant message. */
  model: string | null;
  size: number;
  mtimeMs: number;
  /** `corrupted` when the file cannot be read or holds no JSON line at all. */
  health: 'ok' | 'corrupted';
  /** Why it is corrupted (`EACCES`, `not JSONL`), for `last_error`. */
  problem: string | null;
}

/**
 * The session of `file` before any line is read: its id, path and project directory come from
 * the path (`<projects>/<dir>/<id>.jsonl`, as Claude Code names them), everything else is empty.
 * Also what the scan cache fills in again from its compact rows.
 */
export function blankSession(file: string, size: number, mtimeMs: number): ScannedSession {
  return {
    sessionId: path.basename(file, '.jsonl'),
    jsonlPath: file,
    projectDir: path.basename(path.dirname(file)),
    cwd: null,
    title: null,
    firstPrompt: null,
    messageCount: 0,
    lastMessagePreview: '',
    lastUserPreview: '',
    lastAssistantPreview: '',
    createdAt: null,
    lastActive: null,
    model: null,
    size,
    mtimeMs,
    health: 'ok',
    problem: null,
  };
}

/** The session of a file that cannot be read (`problem`: an errno code). */
export function corruptedSession(file: string, size: number, mtimeMs: number, problem: string): ScannedSession {
  const s = blankSession(file, size, mtimeMs);
  s.health = 'corrupted';
  s.problem = problem;
  if (mtimeMs > 0) s.lastActive = s.createdAt = new Date(mtimeMs).toISOString();
  return s;
}
