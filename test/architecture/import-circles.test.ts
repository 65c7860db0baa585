import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph } from './import-graph.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

describe('the source tree', () => {
  it('has no import circle (type-only imports count too)', () => {
    const circles = importCircles(importGraph(SRC)).map((c) => c.map((f) => path.relative(SRC, f)).join(' → '));
    expect(circles).toEqual([]);
  });

  it('finds a circle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['/a.ts', '/b.ts', '/c.ts', '/a.ts']]);
  });
});
