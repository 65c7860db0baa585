import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseName, fileStem, parentName } from './path-parts.js';

describe('fileStem / parentName / baseName', () => {
  it('name a session file and its project directory', () => {
    expect(fileStem('/h/.claude/projects/-tmp-app/8c4b.jsonl')).toBe('8c4b');
    expect(parentName('/h/.claude/projects/-tmp-app/8c4b.jsonl')).toBe('-tmp-app');
    expect(fileStem('/x/.jsonl')).toBe('.jsonl');
    expect(fileStem('/x/a.json')).toBe('a.json');
    expect(parentName('/a.jsonl')).toBe('');
  });

  it('agree with path.basename / path.dirname on any path', () => {
    const segment = fc.oneof(
      fc.constantFrom('', '.', '..', '.jsonl', 'a.jsonl', '项目', 'x y', '-tmp-app'),
      fc.string({ maxLength: 6 }),
    );
    const somePath = fc
      .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }), fc.constantFrom('', '.jsonl', '/', '//'))
      .map(([abs, parts, end]) => `${abs ? '/' : ''}${parts.join('/')}${end}`);
    fc.assert(
      fc.property(somePath, (p) => {
        expect(fileStem(p)).toBe(path.basename(p, '.jsonl'));
        expect(parentName(p)).toBe(path.basename(path.dirname(p)));
        expect(baseName(p)).toBe(path.basename(p));
      }),
      { numRuns: 5000 },
    );
  });
});
