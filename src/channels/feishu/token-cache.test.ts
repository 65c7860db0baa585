import { describe, expect, it } from 'vitest';
import { createTokenCache } from './token-cache.js';

describe('createTokenCache', () => {
  it('stores per namespace, expires at the given time and forgets everything on clear()', async () => {
    let now = 1_000;
    const cache = createTokenCache(() => now);
    const key = Symbol('tenant-access-token');
    await cache.set(key, 'token-a', 2_000, { namespace: 'cli_a' });
    await cache.set(key, 'token-b', undefined, { namespace: 'cli_b' });
    expect(await cache.get(key, { namespace: 'cli_a' })).toBe('token-a');
    expect(await cache.get(key, { namespace: 'cli_c' })).toBeUndefined();
    now = 2_000;
    expect(await cache.get(key, { namespace: 'cli_a' })).toBeUndefined();
    expect(await cache.get(key, { namespace: 'cli_b' })).toBe('token-b');
    cache.clear();
    expect(await cache.get(key, { namespace: 'cli_b' })).toBeUndefined();
  });
});
