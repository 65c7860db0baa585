import fs from 'node:fs';
import { TOKEN_RE } from './chat-titles.js';
import type { ChaosMessage, ChatUser, ReplyPiece, ReplyView } from './chat-user.js';

/** The final (user-visible, finished) pieces of a reply: everything but a card still streaming and prompt cards. */
export function finalPieces(pieces: readonly ReplyPiece[]): ReplyPiece[] {
  return pieces.filter((p) => p.state !== 'streaming' && p.state !== 'prompt');
}

export interface MessageFinding {
  n: number;
  kind: string;
  messageId: string;
  text: string;
  detail: string;
}

export interface Verdict {
  sent: number;
  acked: number;
  /** Bot messages attributed to a user message (answers, errors, notices, cards, prompts). */
  replies: number;
  outcomes: Record<'answer' | 'error' | 'notice' | 'card', number>;
  promptCards: number;
  /** Reply cards still showing "⏳ Working" at the end (the answer, if any, arrived in another message). */
  staleCards: MessageFinding[];
  lost: MessageFinding[];
  duplicated: MessageFinding[];
  misanswered: MessageFinding[];
  unattributed: number;
  /** Claude runs started (fake engine) or model requests carrying a user prompt (real engine). */
  engineRuns: number | null;
  /** Messages whose prompt Claude ran more than once (allowed while no answer was shown). */
  rerunMessages: number | null;
  /** Claude runs that started after the message's answer was already on screen (goal 0). */
  rerunsAfterAnswer: MessageFinding[];
  /**
   * Engine calls carrying a message's prompt after its answer was visible — in a card still
   * streaming too, before the message was finalised (goal 0; a continue instruction is not the prompt).
   */
  recallsAfterShown: MessageFinding[];
  /** Messages with a token by how many engine calls carried their prompt (`{ "1": 30, "2": 1 }`). */
  callsPerMessage: Record<string, number> | null;
  /** One line per message: what was sent, how it was delivered, what the user sees (for the JSON report). */
  perMessage: Array<{
    n: number;
    kind: string;
    text: string;
    sentAt: number;
    ackedAt: number | null;
    finalAt: number | null;
    pushes: number;
    acks: string;
    outcome: string;
    shows: string;
  }>;
}

/** One start of a Claude run (or, with the real engine, one model request carrying a user prompt). */
export interface EngineCall {
  at: number;
  prompt: string;
}

/** Run starts from the fake claude's call log (`start` records). */
export function readClaudeCalls(file: string): EngineCall[] {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as EngineCall & { event: string })
      .filter((c) => c.event === 'start');
  } catch {
    return [];
  }
}

/**
 * Judges the run from what the platform recorded (`view`, see `ChatUser.replies`): per user message, was it answered (lost),
 * answered more than once (duplicated), answered with another message's answer (misanswered),
 * and — from the engine calls (`null` = unknown) — did Claude run again after the answer was shown.
 */
export function judge(
  view: ReplyView,
  messages: readonly ChaosMessage[],
  calls: readonly EngineCall[] | null,
): Verdict {
  const { pieces, unattributed } = view;
  const finding = (m: ChaosMessage, detail: string): MessageFinding => ({
    n: m.n,
    kind: m.kind,
    messageId: m.messageId,
    text: m.text.slice(0, 80),
    detail,
  });
  const v: Verdict = {
    sent: messages.length,
    acked: messages.filter((m) => m.ackedAt !== undefined).length,
    replies: 0,
    outcomes: { answer: 0, error: 0, notice: 0, card: 0 },
    promptCards: 0,
    staleCards: [],
    lost: [],
    duplicated: [],
    misanswered: [],
    unattributed,
    engineRuns: null,
    rerunMessages: null,
    rerunsAfterAnswer: [],
    recallsAfterShown: [],
    callsPerMessage: null,
    perMessage: [],
  };
  for (const m of messages) {
    const list = pieces.get(m.messageId) ?? [];
    v.replies += list.length;
    v.promptCards += list.filter((p) => p.state === 'prompt').length;
    const finals = finalPieces(list);
    if (list.some((p) => p.state === 'streaming'))
      v.staleCards.push(finding(m, `card still streaming; final: ${finals.map((p) => p.state).join('+') || 'none'}`));
    const shown = finals[0] ?? list[0];
    v.perMessage.push({
      n: m.n,
      kind: m.kind,
      text: m.text.slice(0, 80),
      sentAt: m.firstPushAt,
      ackedAt: m.ackedAt ?? null,
      finalAt: m.finalSeenAt ?? null,
      pushes: m.pushes + m.duplicatePushes,
      acks: m.acks.join(','),
      outcome:
        finals.map((p) => p.state).join('+') ||
        (list.length ? `unfinished:${list.map((p) => p.state).join('+')}` : 'none'),
      shows: (shown?.text ?? '').replace(/\s+/g, ' ').slice(0, 100),
    });
    if (m.ackedAt === undefined) {
      v.lost.push(finding(m, `never acked (${m.pushes} pushes, acks ${m.acks.join(',')})`));
      continue;
    }
    if (finals.length === 0) {
      v.lost.push(
        finding(
          m,
          list.length === 0 ? 'no reply at all' : `reply never finished (${list.map((p) => p.state).join(',')})`,
        ),
      );
      continue;
    }
    // Overflow chunks (chunk ≥ 1 of a streamed answer) continue the answer; anything else final is a second answer.
    const heads = finals.filter(
      (p) => !(p.chunk !== undefined && p.chunk >= 1 && p.state === 'notice' && finals.some((f) => f.chunk === 0)),
    );
    const head = heads[0] as ReplyPiece;
    v.outcomes[head.state as keyof Verdict['outcomes']] += 1;
    if (heads.length > 1)
      v.duplicated.push(
        finding(m, `${heads.length} final replies: ${heads.map((p) => `${p.state}[${p.chunk ?? '?'}]`).join(', ')}`),
      );
    for (const p of finals.filter((f) => f.state === 'answer')) {
      const tokens = [...new Set(p.text.match(TOKEN_RE) ?? [])];
      const foreign = tokens.filter((t) => t !== m.token);
      if (foreign.length > 0)
        v.misanswered.push(finding(m, `answer carries another message's token(s) ${foreign.join(',')}`));
      else if (
        m.token &&
        !tokens.includes(m.token) &&
        (m.kind === 'text' || m.kind === 'new-prompt' || m.kind === 'post')
      )
        v.misanswered.push(finding(m, 'answer lacks its own token'));
    }
  }
  if (calls) {
    v.engineRuns = calls.length;
    const byToken = new Map<string, number[]>();
    for (const c of calls)
      for (const t of new Set(c.prompt.match(TOKEN_RE) ?? [])) byToken.set(t, [...(byToken.get(t) ?? []), c.at]);
    v.rerunMessages = [...byToken.values()].filter((starts) => starts.length > 1).length;
    v.callsPerMessage = {};
    for (const m of messages) {
      if (!m.token || m.ackedAt === undefined) continue;
      const count = String(byToken.get(m.token)?.length ?? 0);
      v.callsPerMessage[count] = (v.callsPerMessage[count] ?? 0) + 1;
      const shown = m.shownAt;
      if (shown === undefined) continue;
      const recalls = (byToken.get(m.token) ?? []).filter((at) => at > shown);
      if (recalls.length > 0)
        v.recallsAfterShown.push(
          finding(
            m,
            `${recalls.length} call(s) with the prompt ${recalls.map((at) => at - shown).join(',')} ms after its answer was shown`,
          ),
        );
    }
    for (const m of messages) {
      if (!m.token || m.finalSeenAt === undefined) continue;
      const late = (byToken.get(m.token) ?? []).filter((at) => at > (m.finalSeenAt as number));
      if (late.length > 0)
        v.rerunsAfterAnswer.push(
          finding(
            m,
            `${late.length} run(s) started ${late.map((at) => at - (m.finalSeenAt as number)).join(',')} ms after the answer was seen`,
          ),
        );
    }
  }
  return v;
}

/** True when the reply `pieces` show the message's token: its answer is visible, final or still streaming. */
function showsAnswer(m: ChaosMessage, pieces: readonly ReplyPiece[]): boolean {
  const token = m.token;
  return (
    token !== undefined &&
    pieces.some((p) => (p.state === 'streaming' || p.state === 'answer') && p.text.includes(token))
  );
}

/**
 * Marks `finalSeenAt` on messages whose reply became final since the last call, and `shownAt` on
 * those whose answer became visible (polled during the run). Returns how many are not final yet.
 */
export function observeFinals(user: ChatUser, messages: readonly ChaosMessage[]): number {
  const { pieces } = user.replies(
    new Set(
      messages
        .filter((m) => m.finalSeenAt === undefined || (m.token && m.shownAt === undefined))
        .map((m) => m.messageId),
    ),
  );
  let open = 0;
  const now = Date.now();
  for (const m of messages) {
    const list = pieces.get(m.messageId) ?? [];
    if (m.shownAt === undefined && showsAnswer(m, list)) m.shownAt = now;
    if (m.finalSeenAt !== undefined) continue;
    if (finalPieces(list).length > 0) m.finalSeenAt = now;
    else open += 1;
  }
  return open;
}

/** True while some message's answer is visible in a card that is still streaming (not finalised). */
export function answerStreaming(user: ChatUser, messages: readonly ChaosMessage[]): boolean {
  const open = messages.filter((m) => m.token && m.finalSeenAt === undefined);
  if (open.length === 0) return false;
  const { pieces } = user.replies(new Set(open.map((m) => m.messageId)));
  return open.some((m) => {
    const streaming = (pieces.get(m.messageId) ?? []).filter((p) => p.state === 'streaming');
    return finalPieces(pieces.get(m.messageId) ?? []).length === 0 && showsAnswer(m, streaming);
  });
}
