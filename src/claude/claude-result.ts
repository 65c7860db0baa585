import type { EngineResult, PermissionDenial } from '../engine/engine-types.js';

/**
 * The `result` object Claude Code prints last (`--output-format json` prints only this; stream-json
 * and the Agent SDK end with it), e.g. `{"type":"result","subtype":"success","is_error":false,
 * "result":"…","session_id":"…","total_cost_usd":…,"permission_denials":[],…}`. Only the fields the
 * engine reads; everything is optional because Claude Code adds and changes fields between versions.
 */
export interface ClaudeResultMessage {
  type: 'result';
  subtype?: string;
  is_error?: boolean;
  result?: string;
  session_id?: string;
  total_cost_usd?: number;
  duration_ms?: number;
  num_turns?: number;
  stop_reason?: string | null;
  permission_denials?: Array<{ tool_name?: string; tool_use_id?: string; tool_input?: Record<string, unknown> }>;
  errors?: string[];
  modelUsage?: Record<string, unknown>;
  api_error_status?: number | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value as a result message, or null when it is not one (`type !== 'result'`). */
export function asResultMessage(value: unknown): ClaudeResultMessage | null {
  return isObj(value) && value.type === 'result' ? (value as unknown as ClaudeResultMessage) : null;
}

/** What Claude Code says when `--resume` names a session it has no file for (or a malformed id). */
const SESSION_MISSING = /No conversation found with session ID|--resume requires a valid session ID/i;

/** True when any of the texts is Claude Code's "no such session" message. */
export function isSessionMissingText(...texts: Array<string | undefined>): boolean {
  return texts.some((t) => typeof t === 'string' && SESSION_MISSING.test(t));
}

/**
 * Why a finished result is a failure, or null for a success: `is_error` results (an API error,
 * `error_during_execution`, `error_max_turns`, budget limits) become a one-line reason.
 */
export function resultFailure(r: ClaudeResultMessage): { sessionMissing: boolean; detail: string } | null {
  if (r.is_error !== true && (r.subtype === undefined || r.subtype === 'success')) return null;
  const errors = Array.isArray(r.errors) ? r.errors.filter((e): e is string => typeof e === 'string') : [];
  const text = typeof r.result === 'string' ? r.result : '';
  const detail = [text, ...errors].filter((t) => t.length > 0).join('; ') || r.subtype || 'error';
  return { sessionMissing: isSessionMissingText(text, ...errors), detail };
}

/** The model a run used: `modelUsage`'s first key (json mode has no `system/init`). */
export function modelOfResult(r: ClaudeResultMessage): string | undefined {
  return isObj(r.modelUsage) ? Object.keys(r.modelUsage)[0] : undefined;
}

/**
 * Maps a successful result to the engine's `EngineResult`. `durationMs` is the engine's own wall
 * clock (what the user waited, the same measure in every mode), not Claude's `duration_ms`.
 */
export function toEngineResult(
  r: ClaudeResultMessage,
  extra: { sessionId: string; durationMs: number; isNewSession: boolean; model?: string },
): EngineResult {
  const denials: PermissionDenial[] = (Array.isArray(r.permission_denials) ? r.permission_denials : [])
    .filter(isObj)
    .map((d) => ({
      toolName: typeof d.tool_name === 'string' ? d.tool_name : 'unknown',
      ...(typeof d.tool_use_id === 'string' ? { toolUseId: d.tool_use_id } : {}),
      ...(isObj(d.tool_input) ? { input: d.tool_input } : {}),
    }));
  const model = extra.model ?? modelOfResult(r);
  return {
    text: typeof r.result === 'string' ? r.result : '',
    sessionId: typeof r.session_id === 'string' && r.session_id.length > 0 ? r.session_id : extra.sessionId,
    costUsd: typeof r.total_cost_usd === 'number' ? r.total_cost_usd : null,
    durationMs: Math.round(extra.durationMs),
    numTurns: typeof r.num_turns === 'number' ? r.num_turns : 0,
    stopReason: typeof r.stop_reason === 'string' ? r.stop_reason : null,
    permissionDenials: denials,
    ...(model ? { model } : {}),
    isNewSession: extra.isNewSession,
  };
}
