import fs from 'node:fs';
import type { Config } from '../../core/config-schema.js';
import type { Logger } from '../../core/logger.js';
import { WarmPool, type WarmBudget } from '../../engine/warm-pool.js';
import type { AcpConversation } from './acp-conversation.js';

/** What `createAcpWarmPool` needs. */
export interface AcpWarmOptions {
  runtime: Pick<Config['runtime'], 'warm_idle_ms' | 'max_warm'>;
  logger: Logger;
  /**
   * The file that holds the agent's session `sessionId` (its own file, not a store every session
   * shares), or null: without it a kept process is checked for death only.
   */
  sessionFile?: (sessionId: string) => string | null;
  /** How long the agent writes to its session file after a turn's answer (`endSettleMs`). */
  settleMs: number;
  /** The limit shared with the other agents' engines (`runtime.max_warm` for all of them). */
  budget?: WarmBudget;
}

/** The file's identity and extent, to notice any write since. */
interface FileMark {
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * The ACP agent processes one engine keeps between a session's turns (`runtime.warm_idle_ms`,
 * `runtime.max_warm`; either 0 = none → undefined, one process per message).
 *
 * Staleness: an agent's session file has no line type we could tell "someone else's turn" by
 * across Codex, Qwen Code and Gemini CLI, and the agent itself writes the answer after the prompt
 * response (Qwen Code ~0.1 s later). So the file is marked (size, mtime, inode) `settleMs` after the
 * process was kept — once the agent's own saving is over — and any change of it after that mark
 * means the session was continued elsewhere: the kept process is ended and a fresh one loads the
 * session. A follow-up before the mark is taken is not checked (only the kept agent writes then);
 * a late write of the agent itself only costs a fresh start. See docs/design.md#warm-sessions.
 */
export function createAcpWarmPool(options: AcpWarmOptions): WarmPool<AcpConversation> | undefined {
  const { warm_idle_ms: idleMs, max_warm: max } = options.runtime;
  if (idleMs <= 0 || max <= 0) return undefined;
  const { sessionFile } = options;
  const shared = options.budget ? { budget: options.budget } : {};
  if (!sessionFile) return new WarmPool<AcpConversation>({ idleMs, max, logger: options.logger, ...shared });
  return new WarmPool<AcpConversation>({
    idleMs,
    max,
    logger: options.logger,
    ...shared,
    snapshot: (sessionId) => {
      const holder: Marked = {};
      const take = (): void => {
        holder.file = sessionFile(sessionId);
        holder.mark = holder.file ? markOf(holder.file) : null;
      };
      if (options.settleMs <= 0) take();
      else setTimeout(take, options.settleMs).unref();
      return { holder };
    },
    staleReason: async (_sessionId, _process, kept) => changedSince(kept.holder as Marked | undefined),
  });
}

/** The session's file (found once, when it is marked) and its mark; filled `settleMs` after the keep. */
interface Marked {
  file?: string | null;
  mark?: FileMark | null;
}

/** Why the session's file says the session moved on since it was marked, or null. */
function changedSince(marked: Marked | undefined): string | null {
  const mark = marked?.mark;
  if (!mark || !marked.file) return null; // not marked yet, or there was no file to mark
  const now = markOf(marked.file);
  if (!now) return 'the session file is gone';
  if (now.ino !== mark.ino || now.size < mark.size) return 'the session file was rewritten';
  if (now.size !== mark.size || now.mtimeMs !== mark.mtimeMs) return 'the session was continued elsewhere';
  return null;
}

function markOf(file: string): FileMark | null {
  try {
    const stat = fs.statSync(file);
    return { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  } catch {
    return null;
  }
}
