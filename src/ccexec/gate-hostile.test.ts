import { describe, expect, it } from 'vitest';
import { hostileCorpus } from '../../test/fixtures/gate-cases.js';
import { gate, quoteForReason } from './gate.js';

// Every hostile argument of the corpus is denied with its own reason; nothing is ever expanded, and a
// reason never carries an invisible character back to the model or the log.

describe('gate: denied', () => {
  it.each(hostileCorpus)('denies (hostile corpus) %s', (_title, command, subargs, reason) => {
    const decision = gate(command, subargs);
    expect(decision.allow).toBe(false);
    if (!decision.allow) expect(decision.reason).toMatch(reason);
  });
});

describe('gate: decisions', () => {
  it('never expands $OPENAI_API_KEY: the reason carries the literal, not the value', () => {
    const secret = 'sk-test-value-that-must-not-appear';
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = secret;
    try {
      const decision = gate('search', ['$OPENAI_API_KEY']);
      expect(decision.allow).toBe(false);
      expect(JSON.stringify(decision)).not.toContain(secret);
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  it('quotes reasons with invisible characters escaped and long values cut', () => {
    expect(quoteForReason('a\u202eb\nc')).toBe("'a\\u{202E}b\\u{000A}c'");
    expect(quoteForReason('x'.repeat(50))).toBe(`'${'x'.repeat(40)}…'`);
    const decision = gate('search', [`-${'\u200b'.repeat(3)}`]);
    expect(decision.allow).toBe(false);
    if (!decision.allow) expect(decision.reason).not.toMatch(/[\u200b]/);
  });
});
