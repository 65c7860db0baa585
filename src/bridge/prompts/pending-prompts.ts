import { randomBytes } from 'node:crypto';
import type {
  PermissionDecision,
  PermissionHandler,
  PermissionRequest,
  QuestionRequest,
} from '../../engine/engine-types.js';
import type { Language } from '../../core/i18n.js';
import type { ActionResult } from '../channel.js';
import { promptMessages } from './prompt-messages.js';
import type { CardAction, CardReply } from '../reply-model.js';

/** How a prompt card reaches the user; bound per message by the dispatcher. */
export interface PromptSender {
  send(card: CardReply, key: string): Promise<{ messageId: string }>;
  update(messageId: string, card: CardReply): Promise<void>;
}

interface Pending {
  id: string;
  nonce: string;
  userId: string;
  kind: 'permission' | 'question';
  summary: string;
  createdAt: number;
  cardMessageId?: string;
  /** For a question: the option labels shown, per question index (only the questions on the card). */
  offered?: readonly (readonly string[])[];
  sender: PromptSender;
  settle(value: PermissionDecision | { answers: Record<string, string> } | { cancelled: true }): void;
  /** Builds the card shown once the prompt is settled. */
  settledCard(text: string, status: CardReply['status']): CardReply;
}

/**
 * Permission prompts and questions waiting for the user's click. A prompt is answered at most
 * once, only by the user it was shown to, and only with the nonce printed on its own buttons, so a
 * replayed, forged or stale click changes nothing. Unanswered prompts are denied after
 * `timeoutMs` (`sdk.timeout_ms`).
 */
export class PendingPrompts {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly options: { timeoutMs: number; lang: Language }) {}

  /** A `PermissionHandler` for one run of one user's message; `agent` names who asks on the cards (default Claude). */
  handlerFor(userId: string, sender: PromptSender, keyBase: string, agent = 'Claude'): PermissionHandler {
    return {
      requestPermission: (request, signal) => this.ask(userId, sender, keyBase, request, signal, agent),
      askQuestion: (request, signal) => this.askQuestion(userId, sender, keyBase, request, signal, agent),
    };
  }

  /** Prompts still waiting, oldest first (for "resolve by index" and the console). */
  list(userId?: string): Array<{ id: string; kind: 'permission' | 'question'; summary: string; createdAt: number }> {
    return [...this.pending.values()]
      .filter((p) => !userId || p.userId === userId)
      .map(({ id, kind, summary, createdAt }) => ({ id, kind, summary, createdAt }));
  }

  /**
   * Answers the `index`-th (1-based, oldest first) permission prompt waiting for `userId` — the
   * text equivalent of a button (`/allow 2`), for clients where cards are awkward. The user was
   * already authenticated by the message's owner check; the nonce is the prompt's own.
   */
  resolveByIndex(userId: string, index: number, decision: 'allow' | 'deny' | 'always'): ActionResult {
    const mine = [...this.pending.values()].filter((p) => p.userId === userId && p.kind === 'permission');
    const p = mine[index - 1];
    if (!p) return { toast: { type: 'warning', text: promptMessages(this.options.lang)('expired') } };
    return this.resolve(userId, { type: 'permission', requestId: p.id, nonce: p.nonce, decision });
  }

  /** Handles a permission/question button click. */
  resolve(userId: string, action: CardAction): ActionResult {
    const t = promptMessages(this.options.lang);
    if (action.type !== 'permission' && action.type !== 'question')
      return { toast: { type: 'error', text: t('unknownAction') } };
    const p = this.pending.get(action.requestId);
    if (!p || p.nonce !== action.nonce || p.kind !== action.type)
      return { toast: { type: 'warning', text: t('expired') } };
    if (p.userId !== userId) return { toast: { type: 'error', text: t('notYours') } };
    // Only a label the card showed for that very question answers it: a forged, stale or foreign
    // answer changes nothing and the prompt stays open.
    if (action.type === 'question' && !p.offered?.[action.question ?? 0]?.includes(action.answer))
      return { toast: { type: 'warning', text: t('answerNotOffered') } };
    this.pending.delete(p.id);
    if (action.type === 'permission') {
      const decision: PermissionDecision =
        action.decision === 'deny'
          ? { behavior: 'deny', message: t('deniedByUser') }
          : { behavior: 'allow', always: action.decision === 'always' };
      p.settle(decision);
      const text =
        action.decision === 'deny' ? t('denied') : action.decision === 'always' ? t('alwaysAllowed') : t('allowed');
      const card = p.settledCard(text, action.decision === 'deny' ? 'warning' : 'complete');
      return { toast: { type: action.decision === 'deny' ? 'info' : 'success', text }, card };
    }
    p.settle({ answers: { answer: action.answer } });
    return {
      toast: { type: 'success', text: t('answered') },
      card: p.settledCard(`${t('answered')}: ${action.answer}`, 'complete'),
    };
  }

  /** Cancels every prompt (shutdown): each is denied so the runs can end. */
  cancelAll(): void {
    for (const p of this.pending.values()) p.settle({ behavior: 'deny', message: 'cc-linker is shutting down' });
    this.pending.clear();
  }

  private register(
    p: Omit<Pending, 'settle'>,
    signal: AbortSignal,
    onSettle: (v: unknown) => void,
    onTimeout: () => unknown,
  ): void {
    const t = promptMessages(this.options.lang);
    let done = false;
    const finish = (value: unknown, note?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.pending.delete(p.id);
      if (note && entry.cardMessageId)
        void p.sender.update(entry.cardMessageId, p.settledCard(note, 'warning')).catch(() => undefined);
      onSettle(value);
    };
    const entry: Pending = { ...p, settle: (v) => finish(v) };
    const timer = setTimeout(() => finish(onTimeout(), t('timedOut')), this.options.timeoutMs);
    timer.unref?.();
    const onAbort = () => finish(onTimeout(), t('cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    this.pending.set(p.id, entry);
  }

  private ask(
    userId: string,
    sender: PromptSender,
    keyBase: string,
    request: PermissionRequest,
    signal: AbortSignal,
    agent: string,
  ): Promise<PermissionDecision> {
    const t = promptMessages(this.options.lang);
    const nonce = randomBytes(12).toString('hex');
    const id = `${request.id}`;
    const base = (status: CardReply['status'], extra?: string): CardReply => ({
      kind: 'card',
      title: t('permissionTitle', { agent }),
      status,
      sections: [
        { type: 'fields', fields: [{ label: t('tool'), value: request.toolName }] },
        { type: 'plain', text: request.summary },
        ...(request.reason && request.reason !== request.summary && !request.summary.includes(request.reason)
          ? [{ type: 'quote' as const, text: request.reason }]
          : []),
        ...(extra ? [{ type: 'markdown' as const, text: `**${extra}**` }] : []),
      ],
    });
    return new Promise<PermissionDecision>((resolve) => {
      if (signal.aborted) return resolve({ behavior: 'deny', message: 'cancelled' });
      const entry = {
        id,
        nonce,
        userId,
        kind: 'permission' as const,
        summary: `${request.toolName}: ${request.summary}`,
        createdAt: Date.now(),
        sender,
        settledCard: (text: string, status: CardReply['status']) => base(status, text),
      };
      this.register(
        entry,
        signal,
        (v) => resolve(v as PermissionDecision),
        () => ({ behavior: 'deny', message: t('timedOutDeny') }),
      );
      const card: CardReply = {
        ...base('warning'),
        buttons: [
          {
            label: t('allow'),
            style: 'primary',
            action: { type: 'permission', requestId: id, nonce, decision: 'allow' },
          },
          { label: t('deny'), style: 'danger', action: { type: 'permission', requestId: id, nonce, decision: 'deny' } },
          ...(request.suggestions.length > 0
            ? [
                {
                  label: t('alwaysAllow'),
                  style: 'default' as const,
                  action: { type: 'permission' as const, requestId: id, nonce, decision: 'always' as const },
                },
              ]
            : []),
        ],
      };
      sender.send(card, `${keyBase}:perm:${id}`).then(
        ({ messageId }) => {
          const live = this.pending.get(id);
          if (live) live.cardMessageId = messageId;
        },
        () => this.pending.get(id)?.settle({ behavior: 'deny', message: t('couldNotAsk') }),
      );
    });
  }

  private askQuestion(
    userId: string,
    sender: PromptSender,
    keyBase: string,
    request: QuestionRequest,
    signal: AbortSignal,
    agent: string,
  ): Promise<{ answers: Record<string, string> } | { cancelled: true }> {
    const t = promptMessages(this.options.lang);
    const nonce = randomBytes(12).toString('hex');
    const id = request.id;
    const first = request.questions[0];
    const base = (status: CardReply['status'], extra?: string): CardReply => ({
      kind: 'card',
      title: first?.header ?? t('questionTitle', { agent }),
      status,
      sections: [
        { type: 'plain', text: first?.question ?? '' },
        ...(extra ? [{ type: 'markdown' as const, text: `**${extra}**` }] : []),
      ],
    });
    return new Promise((resolve) => {
      if (signal.aborted) return resolve({ cancelled: true });
      const entry = {
        id,
        nonce,
        userId,
        kind: 'question' as const,
        summary: first?.question ?? '',
        createdAt: Date.now(),
        // The card shows the first question, one button per option (no free-text answer).
        offered: first ? [first.options.map((o) => o.label)] : [],
        sender,
        settledCard: (text: string, status: CardReply['status']) => base(status, text),
      };
      this.register(
        entry,
        signal,
        (v) => {
          const value = v as { answers?: Record<string, string>; cancelled?: true; behavior?: string };
          if (value.answers && first) resolve({ answers: { [first.question]: value.answers.answer ?? '' } });
          else resolve({ cancelled: true });
        },
        () => ({ cancelled: true }),
      );
      const card: CardReply = {
        ...base('info'),
        buttons: (first?.options ?? []).map((o) => ({
          label: o.label,
          style: 'default' as const,
          action: { type: 'question' as const, requestId: id, nonce, answer: o.label, question: 0 },
        })),
      };
      sender.send(card, `${keyBase}:question:${id}`).then(
        ({ messageId }) => {
          const live = this.pending.get(id);
          if (live) live.cardMessageId = messageId;
        },
        () => this.pending.get(id)?.settle({ cancelled: true }),
      );
    });
  }
}
