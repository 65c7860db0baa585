import { isAppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { bridgeMessages } from '../bridge-messages.js';
import type { CommandOutcome } from '../commands/command-context.js';
import type { ChatCommand } from '../commands/command-parser.js';
import type { UserMapping } from '../mapping/user-mapping.js';
import { textReply, type Reply } from '../reply-model.js';
import type { SpoolRecord, TargetSnapshot } from '../spool/spool-record.js';
import type { Spool } from '../spool/spool.js';
import { pipelineMessages } from './pipeline-messages.js';
import { errorCard } from './reply-cards.js';
import { retryWait } from './retry-wait.js';

export interface RouteDeps {
  spool: Pick<Spool, 'write'>;
  mapping: Pick<UserMapping, 'claimForMessage'>;
  /** Runs a chat command as the record's user (the bridge builds the command context). */
  runCommand(command: ChatCommand, record: SpoolRecord): Promise<CommandOutcome>;
  /**
   * Points the record's user at the session its message is pinned to (`InboundMessage.sessionId`),
   * the mapping change `/switch` makes; `ok: false` carries the reply that answers the record instead.
   */
  pinSession(sessionId: string, record: SpoolRecord): Promise<{ ok: true } | { ok: false; reply: Reply }>;
  /** Whether a cc_exec gateway answers `/cc` (its question is then spooled as its own target). */
  hasCcexec: boolean;
  lang: Language;
  logger: Logger;
  /** Wait before the first retry of a failed routing step; doubles per attempt. */
  retryBaseMs: number;
  maxAttempts: number;
}

/**
 * Routes one record in `pending/`, the step the dispatcher runs for one user at a time in arrival
 * order: a command runs (and may change the user's mapping), a plain text claims its target from
 * the mapping; then the target is written into the record, before the user's next message is
 * routed and before this one runs.
 *
 * A crash between the command (or claim) and that write leaves the record unrouted, and the next
 * start routes it again. That is safe because every mapping change a command makes is idempotent:
 * it sets the mapping to a value (`/switch`, `/new` without a prompt, `/model`) or claims under the
 * message's own id (`/new … -- prompt`, plain text), and no later message of the user was routed
 * meanwhile. Only the reply text may differ (a repeated `/switch` says "already there"). A plain
 * text pinned to a session (the web console's composer) sets the mapping to that session first — the
 * same idempotent change as `/switch` — then claims under its own id like any plain text.
 *
 * A failing step (the mapping locked by another process too long, a full disk) is retried with
 * backoff, holding the user's later messages back so their order holds; after `maxAttempts` the
 * record is answered with the error and ends in `failed/`. Returns without a target only when
 * `signal` aborts (shutdown): the record stays unrouted in `pending/`.
 */
export async function routeRecord(record: SpoolRecord, deps: RouteDeps, signal: AbortSignal): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const routed = await targetOf(record, deps);
      // The record counts as routed (and may start running) only once its target is on disk.
      await deps.spool.write('pending', { ...record, ...routed });
      Object.assign(record, routed);
      return;
    } catch (err) {
      if (signal.aborted) return;
      const messageId = record.message.id;
      if (attempt >= deps.maxAttempts) {
        deps.logger.error('could not route a message; answering with the error', { err, messageId });
        const reply = errorCard(
          isAppError(err) ? err.userMessage : pipelineMessages(deps.lang)('internalError'),
          deps.lang,
        );
        const answered: Pick<SpoolRecord, 'target' | 'outcome'> = {
          target: { kind: 'reply', reply },
          outcome: { kind: 'error', code: isAppError(err) ? err.code : 'INTERNAL', reply },
        };
        await deps.spool.write('pending', { ...record, ...answered }).catch(() => undefined);
        Object.assign(record, answered);
        return;
      }
      deps.logger.warn('routing a message failed; will retry', { err, messageId, attempt });
      await retryWait(deps.retryBaseMs, attempt, signal);
      if (signal.aborted) return;
    }
  }
}

/** Where the record goes: its command's outcome, or for plain text the user's claimed target. */
async function targetOf(record: SpoolRecord, deps: RouteDeps): Promise<{ target: TargetSnapshot; prompt?: string }> {
  const command = record.command;
  if (command) {
    if (command.name === 'cc' && deps.hasCcexec) return { target: { kind: 'ccexec', question: command.question } };
    const outcome = await deps.runCommand(command, record);
    if (outcome.run)
      return {
        target: {
          kind: 'new',
          cwd: outcome.run.cwd,
          ...(outcome.run.model ? { model: outcome.run.model } : {}),
          ...(outcome.run.agent ? { agent: outcome.run.agent } : {}),
        },
        prompt: outcome.run.prompt,
      };
    return { target: { kind: 'reply', reply: outcome.reply } };
  }
  const t = bridgeMessages(deps.lang);
  const pinned = record.message.sessionId;
  if (pinned) {
    const pin = await deps.pinSession(pinned, record);
    if (!pin.ok) return { target: { kind: 'reply', reply: pin.reply } };
  }
  const claim = await deps.mapping.claimForMessage(record.message.userId, record.message.id);
  switch (claim.kind) {
    case 'session':
      return {
        target: {
          kind: 'session',
          sessionId: claim.sessionId,
          cwd: claim.cwd,
          ...(claim.model ? { model: claim.model } : {}),
          ...(claim.agent ? { agent: claim.agent } : {}),
        },
      };
    case 'new':
      return {
        target: {
          kind: 'new',
          cwd: claim.cwd,
          ...(claim.model ? { model: claim.model } : {}),
          ...(claim.agent ? { agent: claim.agent } : {}),
        },
      };
    case 'creating':
      return { target: { kind: 'reply', reply: textReply(t('newSessionCreating')) } };
    default:
      return { target: { kind: 'reply', reply: textReply(t('noTarget')) } };
  }
}
