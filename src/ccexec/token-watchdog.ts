import { createRequire } from 'node:module';

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;
let countTokensFn: CountTokens | undefined;
/** gpt-tokenizer's BPE tables cost ~70 MB of memory: load them on the first estimate, not at start-up. */
function countTokens(text: string, options: { disallowedSpecial: Set<string> }): number {
  countTokensFn ??= (createRequire(import.meta.url)('gpt-tokenizer') as { countTokens: CountTokens }).countTokens;
  return countTokensFn(text, options);
}
import type { ChatMessage, ToolSpec } from './providers/canonical.js';

/** Trim when the estimate passes this share of the model's context window, leaving room for the answer. */
export const TRIM_THRESHOLD = 0.7;
/** Messages of earlier turns kept when trimming (besides the system messages and the whole current turn). */
export const KEEP_RECENT = 4;
/** The o200k count is a heuristic for every provider; this margin covers tokenizer differences. */
export const ESTIMATE_MARGIN = 1.1;
/** Per-message framing the APIs add (role, separators). */
const MESSAGE_OVERHEAD = 4;
/** Correction factors learnt from `usage` stay within this range, so one odd answer cannot blind us. */
const MIN_FACTOR = 0.5;
const MAX_FACTOR = 4;
/** Text is counted literally: `<|endoftext|>` in a note is text, not a special token. */
const LITERAL = { disallowedSpecial: new Set<string>() };

/** What `fit` returns: the messages to send and whether older turns had to go. */
export interface FitResult {
  readonly messages: ChatMessage[];
  readonly trimmed: boolean;
  /**
   * The corrected, margined estimate of what is sent — or, when even the byte-count upper bound fits
   * the budget (no tokenizer needed), that bound.
   */
  readonly estimate: number;
}

/**
 * The loop's context watchdog, so a small-context model is not overrun by history. Estimates a
 * request's input tokens with gpt-tokenizer (×1.1 margin), learns a correction factor from each
 * response's `usage.inputTokens`, and when the estimate passes 70% of `contextLimit` keeps only the
 * leading system messages, the last 4 messages of earlier turns and the whole current turn — then, if
 * that is still too much, system + current turn.
 *
 * The tokenizer (hundreds of milliseconds to load, before the first request) is loaded only when it
 * can change the answer: a byte-level BPE token is at least one UTF-8 byte, so the byte count bounds
 * the token count, and a request whose bound (× the largest factor while a `usage` is not yet counted
 * in) fits the budget is sent as it is. `observe` only records; the factor is computed when an exact
 * estimate is next needed.
 */
export interface TokenWatchdog {
  /** Corrected, margined estimate for sending `messages` with `tools`. */
  estimate(messages: readonly ChatMessage[], tools?: readonly ToolSpec[]): number;
  /** Learns from a response: `sent` is what was sent, `inputTokens` what the provider counted. */
  observe(sent: readonly ChatMessage[], tools: readonly ToolSpec[], inputTokens: number): void;
  /**
   * Trims `messages` when needed. `currentTurnStart` is the index of the current user message; the
   * leading system messages, and everything from `currentTurnStart` on, are always kept.
   */
  fit(messages: readonly ChatMessage[], currentTurnStart: number, tools?: readonly ToolSpec[]): FitResult;
  /** The budget: `contextLimit × 0.7`. */
  readonly budget: number;
}

/** Creates a watchdog for one chat (it keeps its correction factor across turns). */
export function createTokenWatchdog(contextLimit: number): TokenWatchdog {
  const budget = Math.floor(contextLimit * TRIM_THRESHOLD);
  let factor = 1;
  let unlearnt: { sent: ChatMessage[]; tools: ToolSpec[]; inputTokens: number } | undefined;
  const raw = (messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []): number =>
    sizeOf(messages, tools, count);
  const currentFactor = (): number => {
    if (unlearnt) {
      const { sent, tools, inputTokens } = unlearnt;
      unlearnt = undefined;
      factor = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, inputTokens / raw(sent, tools)));
    }
    return factor;
  };
  const estimate = (messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []): number =>
    Math.ceil(raw(messages, tools) * currentFactor() * ESTIMATE_MARGIN);

  return {
    budget,
    estimate,
    observe(sent, tools, inputTokens) {
      // The raw count is > 0 exactly when something was sent (every message adds its framing).
      if (!(inputTokens > 0) || (sent.length === 0 && tools.length === 0)) return;
      unlearnt = { sent: [...sent], tools: [...tools], inputTokens };
    },
    fit(messages, currentTurnStart, tools = []) {
      const all = [...messages];
      const bound = Math.ceil(sizeOf(all, tools, utf8Bytes) * (unlearnt ? MAX_FACTOR : factor) * ESTIMATE_MARGIN);
      if (bound <= budget) return { messages: all, trimmed: false, estimate: bound };
      const first = estimate(all, tools);
      if (first <= budget) return { messages: all, trimmed: false, estimate: first };
      const systemEnd = all.findIndex((m) => m.role !== 'system');
      const head = systemEnd === -1 ? all : all.slice(0, systemEnd);
      const start = Math.max(currentTurnStart, head.length);
      const earlier = all.slice(head.length, start);
      const current = all.slice(start);
      const window = (keep: number): ChatMessage[] => [
        ...head,
        ...dropOrphanToolResults(earlier.slice(Math.max(0, earlier.length - keep))),
        ...current,
      ];
      let candidate = window(KEEP_RECENT);
      let e = estimate(candidate, tools);
      if (e > budget) {
        candidate = window(0);
        e = estimate(candidate, tools);
      }
      return { messages: candidate, trimmed: candidate.length < all.length, estimate: e };
    },
  };
}

/** A kept window must not start with tool results whose asking assistant turn was cut. */
function dropOrphanToolResults(messages: ChatMessage[]): ChatMessage[] {
  let i = 0;
  while (i < messages.length && messages[i]?.role === 'tool') i++;
  return messages.slice(i);
}

/** A request's size in `unit`s of text (tokens, or UTF-8 bytes for the bound), framing included. */
function sizeOf(messages: readonly ChatMessage[], tools: readonly ToolSpec[], unit: (text: string) => number): number {
  let n = tools.length > 0 ? unit(JSON.stringify(tools)) : 0;
  for (const m of messages) {
    n += MESSAGE_OVERHEAD + unit(m.content);
    if (m.role === 'assistant')
      for (const c of m.toolCalls ?? []) n += MESSAGE_OVERHEAD + unit(c.name) + unit(c.arguments);
  }
  return n;
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function count(text: string): number {
  return text === '' ? 0 : countTokens(text, LITERAL);
}
