import type { AgentEngine, PermissionHandler } from '../../engine/engine-types.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Channel } from '../channel.js';
import type { PendingPrompts, PromptSender } from '../prompts/pending-prompts.js';
import type { Reply } from '../reply-model.js';
import type { Deliveries } from '../spool/deliveries.js';
import type { RoutedRecord } from '../spool/spool-record.js';
import type { Spool } from '../spool/spool.js';
import type { SendFilePolicy } from '../files/send-file-policy.js';
import type { RecoveryChoices } from './recovery-choices.js';

/** Registry side effects of runs, wired by the runtime (kept optional so tests can omit them). */
export interface SessionHooks {
  sessionCreated?(info: {
    sessionId: string;
    cwd: string;
    userId: string;
    channel: string;
    model?: string;
    /** The session's agent (absent = Claude Code). */
    agent?: string;
    prompt: string;
  }): Promise<void>;
  runFinished?(info: { sessionId: string; prompt: string; answer: string; model?: string }): Promise<void>;
}

/** The mapping operations the pipeline needs (a subset of `UserMapping`). */
export interface ClaimOps {
  completeClaim(userId: string, messageId: string, sessionUuid: string, cwd: string): Promise<boolean>;
  rollbackClaim(userId: string, messageId: string): Promise<boolean>;
}

/**
 * What a re-run does with a turn the transcript shows was cut (`runtime.recovery`): `continue`
 * resumes the session at once with the continue instruction; `ask` shows Continue / Skip on the
 * message's card and waits for the owner's click (skipped when nobody chooses within `timeoutMs`).
 */
export interface RecoveryOptions {
  mode: 'continue' | 'ask';
  choices: RecoveryChoices;
  timeoutMs: number;
}

/** Notifications after a long turn or a waiting prompt; `TurnNotifier` (turn-notifier.ts) is the one. */
export interface RunNotifier {
  /** After the record's reply was delivered. */
  turnEnded(record: RoutedRecord, deps: PipelineDeps): Promise<void>;
  /** The run's permission handler, with each prompt watched for waiting too long. */
  watchPrompts(
    record: RoutedRecord,
    turnCardId: string,
    sender: PromptSender,
    handlerFor: (sender: PromptSender) => PermissionHandler,
    deps: PipelineDeps,
  ): PermissionHandler;
}

export interface PipelineDeps {
  spool: Spool;
  deliveries: Deliveries;
  channel(id: string): Channel;
  engine: AgentEngine;
  mapping: ClaimOps;
  prompts: PendingPrompts;
  sessions?: SessionHooks;
  ccexec?: (question: string, userId: string, signal: AbortSignal) => Promise<Reply>;
  lang: Language;
  logger: Logger;
  showThinking: boolean;
  /** How often the streamed card gets a heartbeat (elapsed time, running tool) while Claude is silent. */
  heartbeatMs: number;
  /** True once the bridge is stopping (graceful stop): the heartbeat marks running cards. */
  isStopping?: () => boolean;
  /** Absent = `continue` without asking. */
  recovery?: RecoveryOptions;
  /** Notifications after a long turn or a waiting prompt (`[notify]`); absent = none. */
  notifier?: RunNotifier;
  /** The fence of the agent's `send_file` (`files.*`, `security.*`); absent = every call refused. */
  files?: Omit<SendFilePolicy, 'cwd' | 'attachmentDirs' | 'lang'>;
  /** An agent's display name for the cards (`codex` → `Codex`; absent agent = Claude Code); default: the name. */
  agentLabel?: (agent: string | undefined) => string;
}
