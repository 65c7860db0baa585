import { jsonSample } from './json-sample.js';
import { shellToolCall } from './shell-tool-call.js';

/**
 * The fake "model" behind the agent fakes (Codex, Qwen Code …): it reads one model request, reduced
 * to an {@link AgentRequest} whatever the wire API, and answers an {@link AgentReply}, which each
 * server streams in its own format. Trigger words are in the user's text (README.md, "Agent
 * script").
 */

/** A tool the request offers the model: its name and the JSON schema of its arguments. */
export type OfferedTool = { name: string; parameters: Record<string, unknown> | undefined };

/** One model request, the same for every wire API. */
export type AgentRequest = {
  api: 'responses' | 'chat' | 'gemini';
  model: string;
  /** Was a stream asked for? Background calls (classifiers, titles, JSON) are often not streamed. */
  stream: boolean;
  /** The text of the last user message that has text (its parts joined with `\n`). */
  lastUserText: string;
  /** Tool outputs that came after that message, in order; empty when the user spoke last. */
  toolResults: string[];
  /** Every user text in the request, oldest first (history checks after a session load). */
  userTexts: string[];
  tools: OfferedTool[];
  /** The JSON schema the answer must follow, when the request asks for JSON (a background call). */
  jsonSchema?: Record<string, unknown>;
};

/**
 * What the model answers: text, or one tool call (`args` as an object), or both (text first).
 * Text streams in `chunkSize`-character pieces (default: one piece) with `chunkDelayMs` before each.
 */
export type AgentReply = {
  text?: string;
  /** `namespace`: the namespace tool (Responses API) the function sits in, as Codex offers MCP tools. */
  toolCall?: { name: string; args: Record<string, unknown>; namespace?: string };
  chunkSize?: number;
  chunkDelayMs?: number;
};

/** Decides one reply; may be async. A throw becomes an HTTP 400 the agent shows as an error. */
export type AgentScript = (req: AgentRequest) => AgentReply | Promise<AgentReply>;

/** How many `tickNN ` pieces a `SLOW` reply streams. */
export const SLOW_TICKS = 20;

/** The pause before each `SLOW` piece when no `SLOW: <ms>` is given. */
export const SLOW_DEFAULT_MS = 150;

/**
 * The default model:
 * - asked for JSON (a schema in the request): {@link jsonSample} of that schema, as text;
 * - not streamed (a background call): text `ok`;
 * - tool outputs after the user's text: text `ran: <outputs joined by \n, first 500 chars>`;
 * - `RUN: <command>` (rest of the line): a call of the request's shell tool with that command;
 * - `SLOW` or `SLOW: <ms>`: text `tick00 tick01 … tick19 `, one piece every `<ms>` (default 150);
 * - anything else: text `ok: <last user text>`.
 */
export function defaultAgentScript(req: AgentRequest): AgentReply {
  if (req.jsonSchema) return { text: JSON.stringify(jsonSample(req.jsonSchema) ?? {}) };
  if (!req.stream) return { text: 'ok' };
  if (req.toolResults.length > 0) return { text: `ran: ${req.toolResults.join('\n').slice(0, 500)}` };
  const run = /\bRUN:[ \t]*(\S[^\n]*)/.exec(req.lastUserText);
  if (run?.[1] !== undefined) return { toolCall: shellToolCall(req.tools, run[1].trim()) };
  const slow = /\bSLOW\b(?::[ \t]*(\d+))?/.exec(req.lastUserText);
  if (slow) {
    const ticks = Array.from({ length: SLOW_TICKS }, (_, i) => `tick${String(i).padStart(2, '0')} `);
    return { text: ticks.join(''), chunkSize: 7, chunkDelayMs: Number(slow[1] ?? SLOW_DEFAULT_MS) };
  }
  return { text: `ok: ${req.lastUserText.trim()}` };
}

/** Splits `text` into `size`-character pieces (never inside a surrogate pair); one piece by default. */
export function textPieces(text: string, size?: number): string[] {
  if (size === undefined || size <= 0) return [text];
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length > 0 ? out : [''];
}
