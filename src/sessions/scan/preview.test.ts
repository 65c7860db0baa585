import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preview } from './preview.js';

/** The rule spelled plainly: what the skipped replace must not change. */
function reference(text: string, max: number): string {
  const flat = text.slice(0, 1024).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** Every character `\s` matches, and some that look like it but are not. */
const SPACES = [
  ' ',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2005',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
];
const NOT_SPACES = ['\u200b', '\u180e', '\u0085', '\u001f', '\u00ad'];

const piece = fc.oneof(
  fc.constantFrom(...SPACES, ...NOT_SPACES),
  fc.constantFrom('a', 'Z', '为', '什', '么', '…', '😀', '𝒳', '\ud800', '\udc00'),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ maxLength: 12 }),
);
const text = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));

describe('preview', () => {
  it('collapses whitespace and trims', () => {
    expect(preview('  fix\n\nthe \t build  ', 80)).toBe('fix the build');
    expect(preview('\u3000全角\u00a0空格\ufeff', 80)).toBe('全角 空格');
    expect(preview(' \n\t ', 80)).toBe('');
    expect(preview('', 80)).toBe('');
  });

  it('cuts at max - 1 characters and adds an ellipsis, counting code points', () => {
    expect(preview('abcdef', 6)).toBe('abcdef');
    expect(preview('abcdefg', 6)).toBe('abcde…');
    expect(preview('😀😀😀😀😀😀', 6)).toBe('😀😀😀😀😀😀');
    expect(preview('😀😀😀😀😀😀😀', 6)).toBe('😀😀😀😀😀…');
    expect(preview('为什么为什么为什么', 4)).toBe('为什么…');
    expect(preview('ab cd', 3)).toBe('ab…');
    expect(preview('abcd ef', 5)).toBe('abcd…');
    expect(preview('abc', 1)).toBe('…');
  });

  it('looks at the first 1,024 units only', () => {
    expect(preview(`${' '.repeat(1024)}hello`, 10)).toBe('');
    expect(preview(`${' '.repeat(1020)}hello`, 10)).toBe('hell');
  });

  it('agrees with the plain spelling on any text (the replace is skipped when it would change nothing)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 128 }), (s, max) => {
        expect(preview(s, max)).toBe(reference(s, max));
      }),
      { numRuns: 3000 },
    );
  });

  it('a shorter preview of a preview is the shorter preview of the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          text,
          fc.tuple(fc.nat({ max: 1100 }), text).map(([n, s]) => `${' '.repeat(n)}${s}`),
        ),
        fc.integer({ min: 1, max: 128 }),
        fc.integer({ min: 1, max: 128 }),
        (s, a, b) => {
          const [long, short] = a >= b ? [a, b] : [b, a];
          expect(preview(preview(s, long), short)).toBe(preview(s, short));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('treats every whitespace character as one, and nothing else', () => {
    for (const sp of SPACES) expect(preview(`${sp}a${sp}${sp}b${sp}`, 10)).toBe('a b');
    for (const ns of NOT_SPACES) expect(preview(`a${ns}b`, 10)).toBe(`a${ns}b`);
  });

  it('returns the text itself when it is already one short word', () => {
    const s = 'x'.repeat(20);
    expect(preview(s, 80)).toBe(s);
  });
});
