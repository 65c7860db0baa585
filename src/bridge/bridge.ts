import { agentLabel, type AgentCatalog } from './commands/agent-catalog.js';
import { randomBytes } from 'node:crypto';
import type { AgentEngine } from '../engine/engine-types.js';
import type { Config } from '../core/config-schema.js';
import type { Language } from '../core/i18n.js';
import type { Logger } from '../core/logger.js';
import type { Paths } from '../core/paths.js';
import { bridgeMessages } from './bridge-messages.js';
import type { AcceptResult, ActionResult, BridgeInbound, Channel } from './channel.js';
import type { BridgeStatus, CommandContext, SessionDirectory } from './commands/command-context.js';
import { parseChatCommand } from './commands/command-parser.js';
import type { ListSnapshots } from './commands/list-snapshot.js';
import { runCardAction, runChatCommand } from './commands/run-command.js';
import { pinToSession } from './commands/switch.js';
import type { InboundMessage } from './inbound-message.js';
import type { UserMapping } from './mapping/user-mapping.js';
import { Deliveries } from './spool/deliveries.js';
import { Dispatcher } from './pipeline/dispatcher.js';
import type { SessionHooks } from './pipeline/pipeline-deps.js';
import { routeRecord, type RouteDeps } from './pipeline/route-record.js';
import { runRecord, type RunDeps } from './pipeline/run-record.js';
import { RecoveryChoices } from './pipeline/recovery-choices.js';
import { TurnNotifier, type NotifyClock } from './pipeline/turn-notifier.js';
import { TurnControl } from './pipeline/turn-control.js';
import { PendingPrompts } from './prompts/pending-prompts.js';
import type { CardAction, Reply } from './reply-model.js';
import { textReply } from './reply-model.js';
import { deliveryUuid } from './spool/message-key.js';
import type { SpoolRecord } from './spool/spool-record.js';
import type { Spool } from './spool/spool.js';

/**
 * The longest text message accepted: a chat message is a prompt, not a file transfer, and the
 * limit keeps one message from filling the spool or Claude's context.
 */
export const MAX_MESSAGE_CHARS = 10_000;

/**
 * Decides whether a sender may use the bot; the runtime builds it from config (owner, auto-bind).
 * `unbound` = a stranger while no owner is configured yet: refused like a stranger, except that
 * `/whoami` answers, so a new user can learn the open_id to put in `feishu_bot.owner_open_id`.
 */
export type OwnerPolicy = (channel: string, userId: string) => Promise<'owner' | 'stranger' | 'unbound'>;

export interface BridgeOptions {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
  spool: Spool;
  engine: AgentEngine;
  mapping: UserMapping;
  listSnapshots: ListSnapshots;
  sessions: SessionDirectory;
  sessionHooks?: SessionHooks;
  ownerPolicy: OwnerPolicy;
  ccexec?: (question: string, userId: string, signal: AbortSignal) => Promise<Reply>;
  models?: () => Promise<Array<{ alias: string; model: string }>>;
  /** The coding agents this daemon runs (absent: Claude Code alone). */
  agents?: AgentCatalog;
  /**
   * The Claude Code program a printed resume command names (`/resume`): `claude`, or the absolute
   * path of the binary this daemon runs when `claude` is not on PATH. Absent: `claude`.
   */
  claudeProgram?: string;
  now?: () => Date;
  /** Retry delay after a failed routing or delivery step (mapping locked, channel down); doubles per attempt. */
  retryBaseMs?: number;
  maxAttempts?: number;
  heartbeatMs?: number;
  /** The notifier's clock and timers (tests); default the system's. */
  notifyClock?: NotifyClock;
}

/**
 * The channel-neutral message pipeline (see docs/design.md#a-messages-path): `accept()` validates
 * a message, parses its command and persists both within milliseconds — it runs nothing; the
 * dispatcher routes each user's messages in arrival order (runs the command, or fixes the target
 * from the user mapping, and persists the target), then runs them under the global limit and the
 * per-session serial key; the outcome is persisted before delivery; every chunk is delivered once.
 */
export class Bridge implements BridgeInbound {
  readonly prompts: PendingPrompts;
  readonly deliveries: Deliveries;
  /** Interrupted turns waiting for the owner's Continue / Skip (`runtime.recovery = "ask"`). */
  readonly recoveryChoices: RecoveryChoices;
  private readonly notifier: TurnNotifier;
  /** Running and waiting Claude turns: `/stop`, `/queue`, the Stop and Cancel buttons, "Queued" cards. */
  readonly turns: TurnControl;
  private readonly channels = new Map<string, Channel>();
  private readonly dispatcher: Dispatcher;
  private readonly seen = new Set<string>();
  private readonly accepting = new Map<string, Promise<AcceptResult>>();
  private seq = 0;
  private shuttingDown = false;
  /** When the graceful stop ends (ISO), once `stop()` began. */
  private stopDeadline: string | undefined;
  private readonly t;
  private readonly now: () => Date;

  constructor(private readonly o: BridgeOptions) {
    this.t = bridgeMessages(o.lang);
    this.now = o.now ?? (() => new Date());
    this.prompts = new PendingPrompts({ timeoutMs: o.config.sdk.timeout_ms, lang: o.lang });
    this.deliveries = new Deliveries(o.spool);
    this.recoveryChoices = new RecoveryChoices(o.lang);
    this.notifier = new TurnNotifier({
      enabled: o.config.notify.enabled,
      afterMs: o.config.notify.after_s * 1000,
      promptAfterMs: o.config.notify.permission_after_s * 1000,
      lang: o.lang,
      ...(o.notifyClock ? { clock: o.notifyClock } : {}),
    });
    this.dispatcher = new Dispatcher({
      concurrency: o.config.queue.worker_concurrency,
      logger: o.logger,
      route: (r, signal) => routeRecord(r, this.routeDeps(), signal),
      run: async (r, signal) => {
        await this.turns.cardShown(r.message.id);
        await runRecord(r, this.runDeps(), signal);
      },
      onWaiting: (r, position) => this.turns.waiting(r, position),
    });
    this.turns = new TurnControl({
      spool: o.spool,
      deliveries: this.deliveries,
      channel: (id) => this.channel(id),
      mapping: o.mapping,
      queue: this.dispatcher,
      lang: o.lang,
      logger: o.logger,
      now: this.now,
    });
  }

  addChannel(channel: Channel): void {
    this.channels.set(channel.id, channel);
  }

  channel(id: string): Channel {
    const c = this.channels.get(id);
    if (!c) throw new Error(`no channel registered for '${id}'`);
    return c;
  }

  /** Queue depth and activity, for `/status` and the console. */
  async status(): Promise<BridgeStatus> {
    return {
      pending: await this.o.spool.count('pending'),
      processing: await this.o.spool.count('processing'),
      failed: await this.o.spool.count('failed'),
      running: this.dispatcher.active,
      channels: [...this.channels.values()].map((c) => ({ id: c.id, ...c.status() })),
      pendingPrompts: this.prompts.list().length,
      stopping: this.shuttingDown,
      ...(this.stopDeadline ? { stopDeadline: this.stopDeadline } : {}),
    };
  }

  /**
   * Loads `pending/` (after the reconciler moved `processing/` back) and starts dispatching, in
   * arrival order: records accepted but not yet routed are routed now, once each.
   */
  async start(): Promise<void> {
    await this.o.spool.init();
    const { records, broken } = await this.o.spool.list('pending');
    for (const file of broken) this.o.logger.error('unreadable spool file left in place', { file });
    for (const r of records) {
      this.seq = Math.max(this.seq, r.seq);
      this.seen.add(r.message.id);
      this.dispatcher.enqueue(r);
    }
  }

  /** Stops intake, waits up to `graceMs` for running messages, leaves the rest for the next start. */
  async stop(graceMs = 30_000): Promise<{ unfinished: number }> {
    this.shuttingDown = true;
    this.stopDeadline = new Date(Date.now() + graceMs).toISOString();
    const result = await this.dispatcher.stop(graceMs);
    this.prompts.cancelAll();
    return result;
  }

  whenIdle(): Promise<void> {
    return this.dispatcher.whenIdle();
  }

  accept(message: InboundMessage): Promise<AcceptResult> {
    const inflight = this.accepting.get(message.id);
    if (inflight) return inflight.then((r) => (r.status === 'accepted' ? { status: 'duplicate' } : r));
    const p = this.acceptOnce(message).finally(() => this.accepting.delete(message.id));
    this.accepting.set(message.id, p);
    return p;
  }

  private async notify(message: InboundMessage, text: string, tag: string): Promise<void> {
    try {
      const target = {
        channel: message.channel,
        userId: message.userId,
        chatId: message.chatId,
        replyTo: message.platformMessageId,
      };
      await this.channel(message.channel).outbox.send(target, textReply(text), deliveryUuid(message.id, tag));
    } catch (err) {
      this.o.logger.warn('could not send a notice', { err, messageId: message.id, tag });
    }
  }

  private async acceptOnce(message: InboundMessage): Promise<AcceptResult> {
    if (this.shuttingDown) return { status: 'refused', reason: 'shutting-down' };
    if (message.chatType !== 'p2p') return { status: 'refused', reason: 'group' };
    if (
      typeof message.id !== 'string' ||
      message.id.length === 0 ||
      (message.text.trim().length === 0 &&
        message.images.length === 0 &&
        (message.files ?? []).length === 0 &&
        !message.voice &&
        !message.unsupportedType)
    ) {
      return { status: 'refused', reason: 'invalid' };
    }
    if (this.seen.has(message.id)) return { status: 'duplicate' };
    if ((await this.o.spool.hasReceipt(message.id)) || (await this.o.spool.locate(message.id))) {
      this.seen.add(message.id);
      return { status: 'duplicate' };
    }
    const command = parseChatCommand(message.text);
    const standing = await this.o.ownerPolicy(message.channel, message.userId);
    if (standing === 'unbound' && command?.name === 'whoami') {
      // Feishu users have an open_id; other chat apps (Telegram) a numeric user id of their own.
      const notice = this.t(message.channel === 'feishu' ? 'whoami' : 'whoamiUserId', { userId: message.userId });
      void this.notify(message, notice, 'whoami');
      return { status: 'refused', reason: 'not-owner', notice };
    }
    if (standing !== 'owner') {
      const notice = this.t('notOwner');
      void this.notify(message, notice, 'refusal');
      return { status: 'refused', reason: 'not-owner', notice };
    }
    if (message.unsupportedType) {
      const notice = this.t('unsupportedType', { type: message.unsupportedType });
      await this.o.spool.writeReceipt(message.id, message.channel, this.now().toISOString());
      this.seen.add(message.id);
      void this.notify(message, notice, 'unsupported');
      return { status: 'refused', reason: 'invalid', notice };
    }
    if (message.text.length > MAX_MESSAGE_CHARS) {
      const notice = this.t('tooLong', { max: MAX_MESSAGE_CHARS, length: message.text.length });
      void this.notify(message, notice, 'too-long');
      return { status: 'refused', reason: 'too-long', notice };
    }
    const depth = this.dispatcher.queued + this.dispatcher.active;
    if (depth >= this.o.config.queue.max_pending) {
      const notice = this.t('overloaded', { pending: depth });
      void this.notify(message, notice, 'overload');
      return { status: 'refused', reason: 'overloaded', notice };
    }

    this.seq += 1;
    const record: SpoolRecord = {
      schema: 1,
      message,
      ...(command ? { command } : {}),
      acceptedAt: this.now().toISOString(),
      seq: this.seq,
      attempts: 0,
      nonce: randomBytes(12).toString('hex'),
    };
    await this.o.spool.enqueue(record);
    this.seen.add(message.id);
    this.dispatcher.enqueue(record);
    return { status: 'accepted' };
  }

  /**
   * What a command may use, as `userId` and for the message `messageId`. `/status` runs while its
   * own message is in `pending/`; that one is left out of the count the user sees.
   */
  private commandContext(userId: string, messageId: string, queued = false, channel?: string): CommandContext {
    return {
      userId,
      ...(channel ? { channel } : {}),
      messageId,
      lang: this.o.lang,
      now: this.now(),
      config: this.o.config,
      paths: this.o.paths,
      mapping: this.o.mapping,
      listSnapshots: this.o.listSnapshots,
      sessions: this.o.sessions,
      status: async () => {
        const s = await this.status();
        return queued ? { ...s, pending: Math.max(0, s.pending - 1) } : s;
      },
      prompts: this.prompts,
      turns: this.turns,
      models:
        this.o.models ??
        (async () => Object.entries(this.o.config.claude.models).map(([alias, model]) => ({ alias, model }))),
      ...(this.o.agents ? { agents: this.o.agents } : {}),
      ...(this.o.claudeProgram ? { claudeProgram: this.o.claudeProgram } : {}),
    };
  }

  async handleAction(input: {
    channel: string;
    userId: string;
    action: CardAction;
    messageId?: string;
  }): Promise<ActionResult> {
    if ((await this.o.ownerPolicy(input.channel, input.userId)) !== 'owner')
      return { toast: { type: 'error', text: this.t('notOwner') } };
    const a = input.action;
    if (a.type === 'permission' || a.type === 'question') return this.prompts.resolve(input.userId, a);
    if (a.type === 'recovery') return this.recoveryChoices.resolve(input.userId, a);
    if (a.type === 'stop') return this.turns.click(input.userId, a);
    const ctx = this.commandContext(input.userId, `action:${input.messageId ?? ''}`, false, input.channel);
    return runCardAction(a, ctx);
  }

  private routeDeps(): RouteDeps {
    return {
      spool: this.o.spool,
      mapping: this.o.mapping,
      runCommand: (command, record) =>
        runChatCommand(
          command,
          this.commandContext(record.message.userId, record.message.id, true, record.message.channel),
        ),
      pinSession: (sessionId, record) =>
        pinToSession(sessionId, this.commandContext(record.message.userId, record.message.id, true)),
      hasCcexec: this.o.ccexec !== undefined,
      lang: this.o.lang,
      logger: this.o.logger,
      retryBaseMs: this.o.retryBaseMs ?? 1000,
      maxAttempts: this.o.maxAttempts ?? 5,
    };
  }

  private runDeps(): RunDeps {
    return {
      spool: this.o.spool,
      deliveries: this.deliveries,
      channel: (id: string) => this.channel(id),
      engine: this.o.engine,
      mapping: this.o.mapping,
      prompts: this.prompts,
      ...(this.o.sessionHooks ? { sessions: this.o.sessionHooks } : {}),
      ...(this.o.ccexec ? { ccexec: this.o.ccexec } : {}),
      lang: this.o.lang,
      logger: this.o.logger,
      showThinking: this.o.config.stream.show_thinking,
      files: {
        allowedRoots: this.o.config.security.allowed_roots,
        deniedRoots: this.o.config.security.denied_roots,
        home: this.o.paths.userHome,
        maxSizeBytes: this.o.config.files.max_size_bytes,
      },
      heartbeatMs: this.o.heartbeatMs ?? 2000,
      isStopping: () => this.shuttingDown,
      recovery: {
        mode: this.o.config.runtime.recovery,
        choices: this.recoveryChoices,
        timeoutMs: this.o.config.sdk.timeout_ms,
      },
      notifier: this.notifier,
      agentLabel: (agent) => agentLabel({ ...(this.o.agents ? { agents: this.o.agents } : {}) }, agent),
      now: this.now,
      retryBaseMs: this.o.retryBaseMs ?? 1000,
      maxAttempts: this.o.maxAttempts ?? 5,
      control: this.turns,
    };
  }
}
