import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { ChildTracker } from '../../process/child-tracker.js';
import type { AgentModel } from '../../engine/engine-types.js';
import type { SendFileMcp } from '../../engine/send-file-mcp.js';
import type { AgentPermissionStore } from './agent-permission-store.js';

/** The agent to run: its name, argv and whole environment (built by the caller). */
export interface AcpAgentProfile {
  /** The agent's name in config and requests (`codex`). */
  name: string;
  /** Its display name in messages (`Codex`); default `name`. */
  label?: string;
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  /** How to install it, for the "not found" message. */
  install?: string;
}

/** What the ACP executor needs besides the profile. */
export interface AcpExecutorDeps {
  logger: Logger;
  lang: Language;
  tracker?: ChildTracker;
  permissionStore?: AgentPermissionStore;
  /** Answer "always" with the agent's own `allow_always` option (see `PermissionContext`); default off. */
  passAlwaysToAgent?: boolean;
  /** SIGTERM → SIGKILL grace when the agent is stopped (runner default 2000 ms). */
  killGraceMs?: number;
  /** After `session/cancel`, how long the turn may take to end by itself before the group is killed. */
  cancelWaitMs?: number;
  /**
   * After a finished turn, how long the agent is left running before its stdin is closed: agents
   * save part of the turn after answering it (Qwen Code writes the answer to its session file
   * ~0.1 s later, and exits at the end of its input without writing it), so killed or closed at
   * once, the next `session/load` lacks the answer.
   */
  endSettleMs?: number;
  /** … then how long it may take to exit by itself once its stdin is closed before the group is killed. */
  endGraceMs?: number;
  /** After `session/load`, the history replay counts as over once no update came for this long. */
  replayQuietMs?: number;
  /** … but the prompt is sent after this much waiting at the latest. */
  replayMaxMs?: number;
  /** Told the models every `session/new` reports (for `listModels`). */
  onModels?(models: AgentModel[]): void;
  /** The stdio `cc-linker mcp` server offered in `session/new` / `session/load` (`send_file`); absent = none. */
  sendFileMcp?: SendFileMcp;
}

/** `endSettleMs` when not given. */
export const DEFAULT_END_SETTLE_MS = 500;
