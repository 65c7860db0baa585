import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unlockedDependencies, type LockEntry } from './lock-file.js';

const LOCK = path.resolve(import.meta.dirname, '../../package-lock.json');

describe('package-lock.json', () => {
  it('places every dependency a locked package names, so `npm ci` accepts it', () => {
    const lock = JSON.parse(readFileSync(LOCK, 'utf8')) as { packages: Record<string, LockEntry> };
    expect(unlockedDependencies(lock.packages)).toEqual([]);
  });

  it('finds an optional package the lock leaves out (the check itself works)', () => {
    const packages: Record<string, LockEntry> = {
      '': { devDependencies: { a: '1' } },
      'node_modules/a': { optionalDependencies: { 'a-darwin': '1', b: '1' } },
      'node_modules/a/node_modules/b': { dependencies: { c: '1' } },
      'node_modules/c': {},
    };
    expect(unlockedDependencies(packages)).toEqual(['node_modules/a → a-darwin']);
  });
});
