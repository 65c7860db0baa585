import { describe, expect, it } from 'vitest';
import { isInside } from './path-inside.js';

describe('isInside', () => {
  it('compares whole path segments', () => {
    expect(isInside('/a/b', '/a')).toBe(true);
    expect(isInside('/a', '/a')).toBe(true);
    expect(isInside('/ab', '/a')).toBe(false);
    expect(isInside('/a/../b', '/a')).toBe(false);
    expect(isInside('/anything', '/')).toBe(true);
  });

  it('treats a folder whose name starts with two dots as an ordinary child', () => {
    expect(isInside('/a/..foo', '/a')).toBe(true);
    expect(isInside('/a/..foo/x.jsonl', '/a')).toBe(true);
    expect(isInside('/a/...', '/a')).toBe(true);
  });

  it('refuses the parent and its other children', () => {
    expect(isInside('/', '/a')).toBe(false);
    expect(isInside('/b/x', '/a')).toBe(false);
    expect(isInside('/a/../a/x', '/a')).toBe(true);
  });
});
