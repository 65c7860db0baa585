import type { EngineEvent, PlanEntry } from '../../engine/engine-types.js';
import { describeAcpTool, summarizeToolOutput } from './acp-tool-summary.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Update kinds a turn has no use for (they are neither shown nor logged). */
const QUIET_KINDS = new Set([
  'user_message_chunk',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
  'plan_update',
  'plan_removed',
  'subagent_update',
  'session_message',
  'session_message_chunk',
]);
const PLAN_STATUSES = new Set(['pending', 'in_progress', 'completed']);

/** What became of one `session/update`. */
export type UpdateOutcome = 'mapped' | 'ignored' | 'other-session' | 'unknown' | 'malformed';

/** Token counts of one turn, as far as the agent told. */
export interface TurnUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * Turns one session's raw `session/update` notifications into `EngineEvent`s and collects what
 * the turn's result needs: its text (every `agent_message_chunk` text, in order) and usage.
 *
 * - `agent_message_chunk` → `text`; `agent_thought_chunk` → `thinking` (text content only);
 * - `tool_call` / `tool_call_update` → one `tool_use` per tool call id (at its first sight: agents
 *   such as Gemini send no `tool_call` before the permission request, only updates after it) and
 *   one `tool_result` when it reaches `completed` or `failed`;
 * - `plan` → `plan` with the well-formed entries;
 * - `usage_update` → the context size in use, kept as `inputTokens` unless the prompt response
 *   carries the turn's usage (`setResponseUsage`, which wins).
 * Updates for another session are dropped; kinds with no use for a turn are ignored; unknown
 * kinds and malformed updates are reported (`onUnknown`, once per kind / reason) and skipped — they
 * never end the turn.
 *
 * @example
 *   const mapper = new SessionUpdateMapper(sessionId, emit, (what) => logger.warn('acp update skipped', { what }));
 *   onUpdate: (params) => mapper.accept(params)
 */
export class SessionUpdateMapper {
  private readonly chunks: string[] = [];
  private readonly announced = new Set<string>();
  private readonly finished = new Set<string>();
  /** What is known about each tool call so far (title, kind, input), merged from every update. */
  private readonly calls = new Map<string, Obj>();
  private readonly reported = new Set<string>();
  private contextUsed: number | undefined;
  private responseUsage: TurnUsage | undefined;

  constructor(
    private readonly sessionId: string,
    private readonly emit: (event: EngineEvent) => void,
    private readonly onSkipped: (what: string) => void = () => undefined,
  ) {}

  /** Handles one raw `session/update` params object. */
  accept(params: unknown): UpdateOutcome {
    if (!isObj(params)) return this.skip('malformed', 'params is not an object');
    if (params.sessionId !== this.sessionId) return 'other-session';
    const update = params.update;
    if (!isObj(update) || typeof update.sessionUpdate !== 'string')
      return this.skip('malformed', 'update without a sessionUpdate kind');
    const kind = update.sessionUpdate;
    switch (kind) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const content = update.content;
        if (!isObj(content)) return this.skip('malformed', `${kind} without content`);
        if (content.type !== 'text') return 'ignored';
        if (typeof content.text !== 'string') return this.skip('malformed', `${kind} text is not a string`);
        if (content.text.length === 0) return 'ignored';
        if (kind === 'agent_message_chunk') {
          this.chunks.push(content.text);
          this.emit({ type: 'text', delta: content.text });
        } else {
          this.emit({ type: 'thinking', delta: content.text });
        }
        return 'mapped';
      }
      case 'tool_call':
      case 'tool_call_update':
        return this.toolCall(kind, update);
      case 'plan':
        return this.plan(update);
      case 'usage_update':
        if (typeof update.used !== 'number' || !Number.isFinite(update.used))
          return this.skip('malformed', 'usage_update without a number `used`');
        this.contextUsed = update.used;
        return 'mapped';
      default:
        if (QUIET_KINDS.has(kind)) return 'ignored';
        return this.skip('unknown', `unknown update kind ${kind.slice(0, 60)}`);
    }
  }

  /**
   * Remembers what a permission request says about a tool call (agents may ask before announcing
   * it), so its `tool_use` event can be named.
   */
  noteToolCall(toolCall: unknown): void {
    if (isObj(toolCall) && typeof toolCall.toolCallId === 'string') this.merge(toolCall.toolCallId, toolCall);
  }

  /** The `usage` of the `session/prompt` response (an unstable field), when it came. */
  setResponseUsage(usage: unknown): void {
    if (!isObj(usage)) return;
    const pick = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const inputTokens = pick(usage.inputTokens);
    const outputTokens = pick(usage.outputTokens);
    if (inputTokens === undefined && outputTokens === undefined) return;
    this.responseUsage = {
      ...(inputTokens !== undefined ? { inputTokens } : {}),
      ...(outputTokens !== undefined ? { outputTokens } : {}),
    };
  }

  /** All `agent_message_chunk` text of the turn. */
  text(): string {
    return this.chunks.join('');
  }

  usage(): TurnUsage | undefined {
    if (this.responseUsage) return this.responseUsage;
    return this.contextUsed !== undefined ? { inputTokens: this.contextUsed } : undefined;
  }

  /** The name and input of a tool call, for a permission denial. */
  toolOf(toolCallId: string): { name: string; input: Record<string, unknown> } {
    const call = this.calls.get(toolCallId) ?? {};
    return { name: describeAcpTool(call).name, input: isObj(call.rawInput) ? call.rawInput : {} };
  }

  private toolCall(kind: string, update: Obj): UpdateOutcome {
    const id = update.toolCallId;
    if (typeof id !== 'string' || id.length === 0) return this.skip('malformed', `${kind} without a toolCallId`);
    const call = this.merge(id, update);
    if (!this.announced.has(id)) {
      this.announced.add(id);
      const { name, summary } = describeAcpTool(call);
      this.emit({ type: 'tool_use', id, name, summary });
    }
    const status = update.status;
    if ((status === 'completed' || status === 'failed') && !this.finished.has(id)) {
      this.finished.add(id);
      const summary = summarizeToolOutput(update.content, update.rawOutput);
      this.emit({ type: 'tool_result', id, ok: status === 'completed', ...(summary ? { summary } : {}) });
    }
    return 'mapped';
  }

  private plan(update: Obj): UpdateOutcome {
    if (!Array.isArray(update.entries)) return this.skip('malformed', 'plan without entries');
    const entries: PlanEntry[] = [];
    for (const e of update.entries) {
      if (!isObj(e) || typeof e.content !== 'string' || typeof e.status !== 'string') continue;
      if (!PLAN_STATUSES.has(e.status)) continue;
      entries.push({ content: e.content, status: e.status as PlanEntry['status'] });
    }
    this.emit({ type: 'plan', entries });
    return 'mapped';
  }

  private merge(id: string, fields: Obj): Obj {
    const known = this.calls.get(id) ?? {};
    const next: Obj = { ...known };
    for (const key of ['title', 'kind', 'name', 'rawInput', '_meta'] as const) {
      const v = fields[key];
      if (v !== undefined && v !== null) next[key] = v;
    }
    this.calls.set(id, next);
    return next;
  }

  private skip(outcome: 'unknown' | 'malformed', what: string): UpdateOutcome {
    if (!this.reported.has(what)) {
      this.reported.add(what);
      this.onSkipped(what);
    }
    return outcome;
  }
}
