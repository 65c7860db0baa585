import { describe, expect, it } from 'vitest';
import { jsonSample } from './json-sample.js';

describe('jsonSample', () => {
  it('fills every property by type, enum and anyOf', () => {
    expect(
      jsonSample({
        type: 'object',
        properties: {
          s: { type: 'string' },
          n: { type: 'NUMBER' },
          i: { type: 'integer' },
          b: { type: 'boolean' },
          a: { type: 'array', items: { type: 'string' } },
          e: { type: 'string', enum: ['user', 'model'] },
          u: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
          o: { properties: { x: { type: ['string', 'null'] } } },
        },
      }),
    ).toEqual({ s: 'fake', n: 1, i: 1, b: false, a: [], e: 'user', u: 1, o: { x: 'fake' } });
  });

  it('answers null for what it cannot read', () => {
    expect(jsonSample(undefined)).toBeNull();
    expect(jsonSample({})).toBeNull();
    expect(jsonSample('string')).toBeNull();
  });
});
