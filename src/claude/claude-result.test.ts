import { describe, expect, it } from 'vitest';
import {
  asResultMessage,
  isSessionMissingText,
  modelOfResult,
  resultFailure,
  toEngineResult,
} from './claude-result.js';

describe('claude-result', () => {
  it('maps a success result (cost, turns, denials, model from modelUsage)', () => {
    const r = asResultMessage({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'hi',
      session_id: 's1',
      total_cost_usd: 0.5,
      num_turns: 2,
      stop_reason: 'end_turn',
      permission_denials: [{ tool_name: 'Bash', tool_use_id: 't1', tool_input: { command: 'node -e 1' } }],
      modelUsage: { 'claude-x': {} },
    });
    expect(r && resultFailure(r)).toBeNull();
    expect(r && toEngineResult(r, { sessionId: 'fallback', durationMs: 12.6, isNewSession: true })).toEqual({
      text: 'hi',
      sessionId: 's1',
      costUsd: 0.5,
      durationMs: 13,
      numTurns: 2,
      stopReason: 'end_turn',
      permissionDenials: [{ toolName: 'Bash', toolUseId: 't1', input: { command: 'node -e 1' } }],
      model: 'claude-x',
      isNewSession: true,
    });
  });

  it('missing fields become neutral values', () => {
    const r = asResultMessage({ type: 'result' });
    expect(r && toEngineResult(r, { sessionId: 'id', durationMs: 1, isNewSession: false })).toEqual({
      text: '',
      sessionId: 'id',
      costUsd: null,
      durationMs: 1,
      numTurns: 0,
      stopReason: null,
      permissionDenials: [],
      isNewSession: false,
    });
    expect(asResultMessage({ type: 'assistant' })).toBeNull();
    expect(modelOfResult({ type: 'result' })).toBeUndefined();
  });

  it('classifies failures', () => {
    expect(resultFailure({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: 400 bad' })).toEqual(
      { sessionMissing: false, detail: 'API Error: 400 bad' },
    );
    expect(
      resultFailure({
        type: 'result',
        subtype: 'error_during_execution',
        is_error: true,
        errors: ['No conversation found with session ID: x'],
      }),
    ).toEqual({
      sessionMissing: true,
      detail: 'No conversation found with session ID: x',
    });
    expect(resultFailure({ type: 'result', subtype: 'error_max_turns' })).toEqual({
      sessionMissing: false,
      detail: 'error_max_turns',
    });
    expect(isSessionMissingText(undefined, 'Error: --resume requires a valid session ID or session title')).toBe(true);
    expect(isSessionMissingText('all fine')).toBe(false);
  });
});
