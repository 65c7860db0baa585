import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preview } from './preview.js';

/** The plain spelling of the rule `preview` implements in one pass. */
function reference(text: string, max: number): string {
  const flat = text.slice(0, max * 8).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** Every character `\s` matches, and some that look like it but are not. */
const SPACES = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
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

  it('looks at the first 8 × max units only', () => {
    expect(preview(`${' '.repeat(80)}hello`, 10)).toBe('');
    expect(preview(`${'a '.repeat(39)}b ${'c'.repeat(100)}`, 50)).toBe(reference(`${'a '.repeat(39)}b ${'c'.repeat(100)}`, 50));
  });

  it('returns the text itself when it is already one short word', () => {
    const s = 'x'.repeat(20);
    expect(preview(s, 80)).toBe(s);
  });

  it('agrees with the reference spelling on any text', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 40 }), (s, max) => {
        expect(preview(s, max)).toBe(reference(s, max));
      }),
      { numRuns: 3000 },
    );
  });
});
