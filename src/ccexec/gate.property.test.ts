import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALLOWLIST, MAX_ARG_LENGTH } from './allowlist.js';
import { gate } from './gate.js';

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;
const FORBIDDEN = /[;&|$`<>\r\n\uFFFD\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;

/** Any code point, with control/format characters mixed in often enough to hit both outcomes. */
const hostileChar = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\t',
      '\n',
      '\u200b',
      '\u200d',
      '\u202e',
      '\u2066',
      '\ufeff',
      '\u0085',
      '\u{E0041}',
      '\u061c',
    ),
  },
  { weight: 3, arbitrary: fc.constantFrom('a', 'Z', '5', ' ', '-', '=', '笔', '记', ':') },
);
const unicodeString = fc.array(hostileChar, { minLength: 0, maxLength: 30 }).map((chars) => chars.join(''));

/** Argument shapes that are allowed when the random part is benign, so allowed outcomes really occur. */
const nearlyValidCall = fc.oneof(
  unicodeString.map((s) => ['search', [s]] as const),
  unicodeString.map((s) => ['note', ['list', '--category', s]] as const),
  unicodeString.map((s) => ['note', ['list', `--tag=${s}`]] as const),
  unicodeString.map((s) => ['note', ['show', s]] as const),
  unicodeString.map((s) => ['search', ['x', '--mode', s]] as const),
  unicodeString.map((s) => ['note', ['list', '--limit', s]] as const),
  fc.tuple(unicodeString, unicodeString).map(([a, b]) => [a, [b]] as const),
  fc
    .tuple(fc.constantFrom(...ALLOWLIST.map((c) => c.name)), fc.array(unicodeString, { maxLength: 14 }))
    .map(([c, args]) => [c, args] as const),
);

describe('gate properties', () => {
  it('never throws and never allows an argument with a control or format character', () => {
    let allowedCount = 0;
    fc.assert(
      fc.property(nearlyValidCall, ([command, subargs]) => {
        const decision = gate(command, subargs);
        if (!decision.allow) {
          expect(typeof decision.reason).toBe('string');
          expect(decision.reason.length).toBeGreaterThan(0);
          return;
        }
        allowedCount++;
        for (const arg of decision.argv) {
          expect(CONTROL_OR_FORMAT.test(arg)).toBe(false);
          expect(FORBIDDEN.test(arg)).toBe(false);
          expect(arg.length).toBeLessThanOrEqual(MAX_ARG_LENGTH);
          expect(arg).toBe(arg.trim());
        }
      }),
      { numRuns: 3000 },
    );
    // The generator must reach the allow branch, or the property above proves nothing.
    expect(allowedCount).toBeGreaterThan(100);
  });

  it('never throws for arbitrary JavaScript values as command or subargs', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (command, subargs) => {
        const decision = gate(command as string, subargs);
        expect(typeof decision.allow).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });

  it('never lets a reason carry a control or format character', () => {
    fc.assert(
      fc.property(nearlyValidCall, ([command, subargs]) => {
        const decision = gate(command, subargs);
        if (!decision.allow) expect(CONTROL_OR_FORMAT.test(decision.reason)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
