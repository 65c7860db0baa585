import { describe, expect, it } from 'vitest';
import { applyDefaults } from './apply-defaults.js';
import { gate } from './gate.js';

/** Runs the gate then applyDefaults, as the dispatcher does. */
function withDefaults(command: string, subargs: string[]): string[] {
  const decision = gate(command, subargs);
  if (!decision.allow) throw new Error(`test setup: gate denied ${command} ${subargs.join(' ')}: ${decision.reason}`);
  return applyDefaults(decision.argv, decision.spec);
}

describe('applyDefaults', () => {
  it.each([
    ['note', ['list'], ['note', 'list', '--limit', '20']],
    ['note', ['list', '--json'], ['note', 'list', '--json', '--limit', '20']],
    ['note', ['list', '--limit', '5'], ['note', 'list', '--limit', '5']],
    ['note', ['list', '--limit=5'], ['note', 'list', '--limit=5']],
    ['note', ['list', '-n', '5'], ['note', 'list', '-n', '5']],
    ['search', ['RAG'], ['search', 'RAG', '--top-k', '5']],
    ['search', ['RAG', '--top-k', '3'], ['search', 'RAG', '--top-k', '3']],
    ['search', ['--top-k=3', 'RAG'], ['search', '--top-k=3', 'RAG']],
    ['memory', ['show'], ['memory', 'show', '--limit', '20']],
    ['memory', ['list', '-n', '2'], ['memory', 'list', '-n', '2']],
    ['session', ['list'], ['session', 'list', '--limit', '20']],
    ['note', ['show', 'd4f0'], ['note', 'show', 'd4f0']],
    ['skill', ['list'], ['skill', 'list']],
    ['mcp', ['list'], ['mcp', 'list']],
    ['status', [], ['status']],
    ['did', ['list'], ['did', 'list']],
    ['did', ['show', 'did:key:z6Mk'], ['did', 'show', 'did:key:z6Mk']],
  ] as const)('%s %j → %j', (command, subargs, expected) => {
    expect(withDefaults(command, [...subargs])).toEqual(expected);
  });

  it('injects --top-k, never --limit, into search (the CLI rejects search --limit)', () => {
    const argv = withDefaults('search', ['gateway']);
    expect(argv).not.toContain('--limit');
    expect(argv).toContain('--top-k');
  });

  it('returns a new array and leaves its input alone', () => {
    const decision = gate('note', ['list']);
    if (!decision.allow) throw new Error('setup');
    const before = [...decision.argv];
    const out = applyDefaults(decision.argv, decision.spec);
    expect(out).not.toBe(decision.argv);
    expect(decision.argv).toEqual(before);
  });

  it('produces an argv the gate still allows', () => {
    for (const [command, subargs] of [
      ['note', ['list']],
      ['search', ['x']],
      ['memory', ['show']],
      ['session', ['list', '--json']],
    ] as const) {
      const [word, ...rest] = withDefaults(command, [...subargs]);
      expect(gate(word as string, rest).allow).toBe(true);
    }
  });
});
