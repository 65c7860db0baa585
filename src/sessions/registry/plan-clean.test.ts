import { describe, expect, it } from 'vitest';
import { sessionEntry } from '../../../test/fixtures/session-entry.js';
import { MISSING_FILE_ERROR } from './merge-registry.js';
import { planClean } from './plan-clean.js';
import { emptyRegistry } from './registry-schema.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const OLD = '2026-05-01T00:00:00.000Z';

describe('planClean and the other agents', () => {
  it('never plans to delete another agent’s file for being empty; a gone session is cleaned for any agent', () => {
    const registry = emptyRegistry(NOW);
    registry.sessions['11111111-1111-4111-8111-111111111111'] = sessionEntry(OLD, { jsonl_path: '/c/p/x.jsonl' });
    registry.sessions.ses_empty = sessionEntry(OLD, { agent: 'opencode', jsonl_path: '/h/opencode.db' });
    registry.sessions.codex_gone = sessionEntry(OLD, {
      agent: 'codex',
      jsonl_path: '/h/.codex/sessions/r.jsonl',
      status: 'corrupted',
      last_error: MISSING_FILE_ERROR,
    });
    expect(planClean(registry, NOW).map((i) => [i.id, i.reason])).toEqual([
      ['11111111-1111-4111-8111-111111111111', 'empty'],
      ['codex_gone', 'missing_file'],
    ]);
  });
});
