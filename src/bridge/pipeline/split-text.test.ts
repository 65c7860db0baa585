import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitText } from './split-text.js';

describe('splitText', () => {
  it('keeps short text whole and drops empty text', () => {
    expect(splitText('hello', 100)).toEqual(['hello']);
    expect(splitText('', 100)).toEqual([]);
  });

  it('prefers paragraph boundaries', () => {
    const para = 'a'.repeat(60);
    const chunks = splitText(`${para}\n\n${para}\n\n${para}`, 130);
    expect(chunks).toEqual([`${para}\n\n${para}\n\n`, para]);
  });

  it('closes and reopens a code fence across chunks', () => {
    const code = Array.from({ length: 30 }, (_, i) => `line ${i} of code`).join('\n');
    const chunks = splitText(`intro\n\n\`\`\`ts\n${code}\n\`\`\`\n\nafter`, 200);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect((c.match(/```/g) ?? []).length % 2).toBe(0);
    expect(chunks[1]?.startsWith('```ts\n')).toBe(true);
  });

  it('never exceeds max, never loses a non-whitespace character, and is deterministic', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.integer({ min: 40, max: 400 }), (text, max) => {
        const chunks = splitText(text, max);
        for (const c of chunks) expect(c.length).toBeLessThanOrEqual(max);
        const strip = (s: string) => s.replace(/```[^\n]*/g, '').replace(/\s+/g, '');
        expect(strip(chunks.join(''))).toBe(strip(text));
        expect(splitText(text, max)).toEqual(chunks);
      }),
      { numRuns: 200 },
    );
  });
});
