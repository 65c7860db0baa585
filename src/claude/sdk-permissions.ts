import type { CanUseTool, PermissionResult } from '@anthropic-ai/claude-agent-sdk';
import type { Language } from '../core/i18n.js';
import type { Logger } from '../core/logger.js';
import { engineMessages } from '../engine/engine-messages.js';
import type {
  EngineEvent,
  PermissionDecision,
  PermissionHandler,
  PermissionRequest,
  QuestionRequest,
} from '../engine/engine-types.js';
import type { PermissionPolicy, RuleSet } from './permission-policy.js';
import { parseRule, suggestionRules } from './permission-rules.js';
import { describeToolCall } from './tool-summary.js';

/** What `createCanUseTool` needs from the run. */
export interface CanUseToolContext {
  policy: PermissionPolicy;
  /** The run's rules; "always allow" rules accepted during the run are added to `allowed`. */
  rules: RuleSet;
  handler: PermissionHandler | undefined;
  emit: (event: EngineEvent) => void;
  /** Idle clock control: the run is silent while the user decides. */
  pause: () => void;
  resume: () => void;
  /** Aborted when the run stops; pending prompts are abandoned (denied). */
  runSignal: AbortSignal;
  /** `sdk.timeout_ms`: unanswered prompts are denied after this. */
  timeoutMs: number;
  cwd: string;
  home: string;
  userId?: string;
  lang: Language;
  logger: Logger;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The Agent SDK's `canUseTool` for one run, in this order:
 * 1. `claude.disallowed_tools` → deny;
 * 2. `AskUserQuestion` → a `question` event and `handler.askQuestion`; the answers go back as
 *    `updatedInput.answers` (keyed by question text) when each is an option the question offered
 *    (`answersOffered`); anything else, a cancel or a timeout denies;
 * 3. `claude.allowed_tools` or a persisted / just-accepted "always allow" rule → allow;
 * 4. otherwise a `permission_request` event and `handler.requestPermission`; `always: true`
 *    persists the chosen rule (`decision.rule`, else the prompt's first `addRules` suggestion) in
 *    `~/.cc-linker/permissions.json` — we never return `updatedPermissions`, which would make
 *    Claude Code write `.claude/settings.local.json` into the user's project.
 * No handler, a handler that throws, no answer within `sdk.timeout_ms`, or the run stopping → deny.
 * The idle watchdog is paused while waiting.
 */
export function createCanUseTool(c: CanUseToolContext): CanUseTool {
  const t = engineMessages(c.lang);
  return async (toolName, input, opts): Promise<PermissionResult> => {
    const call = { toolName, input, cwd: c.cwd, home: c.home };
    const verdict = c.policy.decide(c.rules, call);
    if (verdict.verdict === 'deny') return { behavior: 'deny', message: t('deny_disallowed', { rule: verdict.rule }) };
    const id = typeof opts.toolUseID === 'string' && opts.toolUseID.length > 0 ? opts.toolUseID : `perm-${Date.now()}`;

    if (toolName === 'AskUserQuestion') {
      const request: QuestionRequest = { id, questions: normalizeQuestions(input.questions) };
      c.emit({ type: 'question', request });
      if (!c.handler) return { behavior: 'deny', message: t('deny_no_handler') };
      const handler = c.handler;
      const answer = await waitForUser((signal) => handler.askQuestion(request, signal), opts.signal, c);
      if (answer.kind === 'timeout')
        return { behavior: 'deny', message: t('deny_timeout', { seconds: Math.ceil(c.timeoutMs / 1000) }) };
      if (answer.kind !== 'value' || 'cancelled' in answer.value)
        return { behavior: 'deny', message: t('deny_question_cancelled') };
      if (!answersOffered(request, answer.value.answers))
        return { behavior: 'deny', message: t('deny_question_not_offered') };
      return { behavior: 'allow', updatedInput: { ...input, answers: answer.value.answers } };
    }

    if (verdict.verdict === 'allow') return { behavior: 'allow', updatedInput: input };

    const suggestions = (opts as { suppressAlwaysAllowRule?: boolean }).suppressAlwaysAllowRule
      ? []
      : suggestionRules(opts.suggestions);
    const reason = [opts.decisionReason, opts.title, opts.description].find(
      (v): v is string => typeof v === 'string' && v.length > 0,
    );
    const request: PermissionRequest = {
      id,
      toolName,
      summary: describeToolCall(toolName, input),
      input,
      suggestions,
      ...(reason ? { reason } : {}),
    };
    c.emit({ type: 'permission_request', request });
    if (!c.handler) return { behavior: 'deny', message: t('deny_no_handler') };
    const handler = c.handler;
    const answer = await waitForUser((signal) => handler.requestPermission(request, signal), opts.signal, c);
    if (answer.kind === 'timeout')
      return { behavior: 'deny', message: t('deny_timeout', { seconds: Math.ceil(c.timeoutMs / 1000) }) };
    if (answer.kind !== 'value') return { behavior: 'deny', message: t('deny_user') };
    const decision: PermissionDecision = answer.value;
    if (decision.behavior === 'deny')
      return {
        behavior: 'deny',
        message: decision.message && decision.message.length > 0 ? decision.message : t('deny_user'),
      };
    if (decision.always) await remember(decision, request, c);
    return { behavior: 'allow', updatedInput: input };
  };
}

async function remember(decision: { rule?: string }, request: PermissionRequest, c: CanUseToolContext): Promise<void> {
  const rule = decision.rule && parseRule(decision.rule) ? decision.rule : request.suggestions[0];
  if (!rule) {
    c.logger.warn('always-allow requested but the prompt offers no rule; allowed once', { tool: request.toolName });
    return;
  }
  if (!c.rules.allowed.includes(rule)) c.rules.allowed.push(rule);
  await c.policy.remember(rule, { ...(c.userId ? { userId: c.userId } : {}), source: request.summary });
}

type Waited<T> = { kind: 'value'; value: T } | { kind: 'timeout' } | { kind: 'failed' };

/**
 * Runs one question to the user with a deadline: the handler gets a signal that aborts on timeout,
 * on the SDK's own abort, or when the run stops. The idle clock is paused meanwhile.
 */
async function waitForUser<T>(
  ask: (signal: AbortSignal) => Promise<T>,
  sdkSignal: AbortSignal,
  c: CanUseToolContext,
): Promise<Waited<T>> {
  const deadline = new AbortController();
  const signal = AbortSignal.any([deadline.signal, sdkSignal, c.runSignal]);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, c.timeoutMs);
  c.pause();
  try {
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(new Error('aborted'));
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
    aborted.catch(() => undefined);
    const value = await Promise.race([ask(signal), aborted]);
    return { kind: 'value', value };
  } catch (err) {
    if (timedOut) return { kind: 'timeout' };
    if (!signal.aborted) c.logger.warn('permission handler failed; denying', { err });
    return { kind: 'failed' };
  } finally {
    clearTimeout(timer);
    c.resume();
  }
}

/**
 * True when there is an answer and every answer is keyed by a question of the request and is one
 * of that question's option labels — for a multi-select question, each of its `, `-separated
 * labels. The channels offer no free-text answer, so any other text is not the user's choice.
 */
function answersOffered(request: QuestionRequest, answers: Record<string, string>): boolean {
  const given = Object.entries(answers);
  return (
    given.length > 0 &&
    given.every(([text, answer]) => {
      const q = request.questions.find((x) => x.question === text);
      const labels = q?.options.map((o) => o.label) ?? [];
      if (labels.includes(answer)) return true;
      return q?.multiSelect === true && answer.split(', ').every((part) => labels.includes(part));
    })
  );
}

/** AskUserQuestion's `questions` input as `QuestionRequest['questions']`, dropping malformed parts. */
function normalizeQuestions(raw: unknown): QuestionRequest['questions'] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObj).map((q) => ({
    question: typeof q.question === 'string' ? q.question : '',
    ...(typeof q.header === 'string' ? { header: q.header } : {}),
    ...(typeof q.multiSelect === 'boolean' ? { multiSelect: q.multiSelect } : {}),
    options: (Array.isArray(q.options) ? q.options : []).filter(isObj).map((o) => ({
      label: typeof o.label === 'string' ? o.label : '',
      ...(typeof o.description === 'string' ? { description: o.description } : {}),
    })),
  }));
}
