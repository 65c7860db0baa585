import { describe, expect, it } from 'vitest';
import { planLine } from './plan-line.js';

describe('planLine', () => {
  it('counts the steps done and names the one in progress, else the next one', () => {
    const plan = [
      { content: 'Read the code', status: 'completed' },
      { content: 'Run   the\ntests', status: 'in_progress' },
      { content: 'Fix', status: 'pending' },
    ];
    expect(planLine(plan)).toBe('📋 1/3 · Run the tests');
    expect(planLine([plan[0]!, { content: 'Fix', status: 'pending' }])).toBe('📋 1/2 · Fix');
    expect(planLine([{ content: 'All', status: 'completed' }])).toBe('📋 1/1');
    expect(planLine([])).toBeUndefined();
  });
});
