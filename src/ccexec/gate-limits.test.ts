import { describe, expect, it } from 'vitest';
import { edges } from '../../test/fixtures/gate-cases.js';
import { MAX_SUBARGS } from './allowlist.js';
import { gate } from './gate.js';

// The edges of types, ranges, names and characters: every value is checked against its declared
// type and range, and anything the gate cannot read is a deny, never a throw.

describe('gate: denied', () => {
  it.each(edges)('denies (edge) %s', (_title, command, subargs, reason) => {
    const decision = gate(command, subargs);
    expect(decision.allow).toBe(false);
    if (!decision.allow) expect(decision.reason).toMatch(reason);
  });
});

describe('gate: decisions', () => {
  it('denies a non-string command instead of throwing', () => {
    expect(gate(42 as unknown as string, [])).toEqual({ allow: false, reason: 'command must be a string, got number' });
  });

  it('denies when reading the arguments throws (a hostile getter)', () => {
    const hostile = new Proxy(['list'], {
      get(target, key, receiver) {
        if (key === '0') throw new Error('boom');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(gate('note', hostile)).toEqual({ allow: false, reason: 'arguments could not be read' });
  });

  it('checks the argument count before looking at any argument', () => {
    const decision = gate(
      'note',
      Array.from({ length: MAX_SUBARGS + 1 }, () => 'a'.repeat(10_000)),
    );
    expect(decision.allow === false && decision.reason).toMatch(/too many arguments/);
  });
});
