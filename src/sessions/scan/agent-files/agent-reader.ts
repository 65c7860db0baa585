import type { Paths } from '../../../core/paths.js';
import type { ScannedSession } from '../scanned-session.js';
import type { ScanWarning } from '../scan-warning.js';
import type { AgentName } from './agent-name.js';

/** Where the agents keep their sessions (`core/paths.ts`). */
export type AgentDirs = Pick<Paths, 'codexHome' | 'geminiHome' | 'qwenHome' | 'opencodeDataDir'>;

/** What the reader needs of a file's stats. */
export interface AgentFileStat {
  size: number;
  mtimeMs: number;
  birthtimeMs: number;
}

/** Limits every reader keeps (`scanner.max_file_size`; the longest line read whole). */
export interface AgentReadOptions {
  maxFileSize: number;
  /** Default 8 MiB (see `readJsonlLines`); a longer line is skipped, never held whole. */
  maxLineBytes?: number;
}

/** One file read: the sessions in it (none, one, or — OpenCode's database — many) and what was worth telling. */
export interface AgentFileRead {
  sessions: ScannedSession[];
  warnings: ScanWarning[];
  /** The file could not be judged (unreadable, a locked or garbage database): keep its sessions as they were. */
  unreadable?: boolean;
}

/** One message of a transcript, in order: a prompt or an answer (tool calls and results left out). */
export interface AgentMessage {
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
}

/**
 * **The seam** between the registry and an agent's storage: every agent other than Claude Code
 * has one reader (`<agent>-sessions.ts`), and `scan-agents.ts` drives them all the same way —
 * list the files, read the changed ones, cache the rest. A reader never throws for what it finds
 * on disk: a missing directory is no sessions (no warning), an odd file a `ScanWarning`.
 */
export interface AgentReader {
  readonly agent: Exclude<AgentName, 'claude'>;
  /**
   * The files that hold this agent's sessions, sorted. A missing directory gives none; one that
   * exists but cannot be listed is pushed to `unlisted` (its sessions are kept as they were) with
   * an `unreadable_dir` warning.
   */
  list(dirs: AgentDirs, warnings: ScanWarning[], unlisted: string[]): string[];
  /** The sessions in `file` (the file is not over `maxFileSize`; the driver checked). */
  read(file: string, stat: AgentFileStat, opts: AgentReadOptions): Promise<AgentFileRead>;
  /**
   * Facts a session's file does not say but another file does (Gemini's project → cwd map),
   * applied after the cache, so a change of that file needs no re-read of the sessions.
   */
  complete?(sessions: ScannedSession[], dirs: AgentDirs): void;
  /** Other files whose change changes what `complete` gives (watched by the sync's quick check). */
  watched?(dirs: AgentDirs): string[];
  /** The prompts and answers of session `id` stored in `file`, in order. Throws when the file cannot be read. */
  transcript(file: string, id: string, opts: { maxLineBytes?: number }): Promise<AgentMessage[]>;
}
