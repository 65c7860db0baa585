import type { Cache } from '@larksuiteoapi/node-sdk';

/** The SDK's `Cache` plus a way to forget everything (a rejected tenant token). */
export interface ClearableCache extends Cache {
  clear(): void;
}

/**
 * A token cache owned by one channel. The SDK's default cache is process-wide per app id and has
 * no way to drop a token Feishu has started rejecting (revoked, app secret rotated); with our own
 * instance, `callFeishu` clears it on a token error and the SDK fetches a fresh token on the next
 * call. Entries expire at the time the SDK asks for (its own 3-minute early refresh included).
 */
export function createTokenCache(now: () => number = Date.now): ClearableCache {
  const values = new Map<string, { value: unknown; expiresAt?: number }>();
  const keyOf = (key: unknown, namespace?: string): string => `${namespace ?? ''}/${String(key)}`;
  return {
    async get(key, options) {
      const entry = values.get(keyOf(key, options?.namespace));
      if (!entry) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= now()) return undefined;
      return entry.value;
    },
    async set(key, value, expire, options) {
      values.set(keyOf(key, options?.namespace), { value, ...(expire === undefined ? {} : { expiresAt: expire }) });
      return true;
    },
    clear() {
      values.clear();
    },
  };
}
