import { describe, expect, it } from 'vitest';
import { JsonLedger } from '../../core/json-ledger.js';
import { silentLogger } from '../../core/logger.js';
import { OptionStore } from './option-store.js';

const allow = { type: 'permission', requestId: 'r', nonce: 'n', decision: 'allow' } as const;
const deny = { type: 'permission', requestId: 'r', nonce: 'n', decision: 'deny' } as const;

describe('OptionStore', () => {
  it('offers only prompt answers, per user, newest wins, and forgets them on clear', async () => {
    const store = new OptionStore(new JsonLedger(undefined, silentLogger));
    await store.offer('u', undefined, [{ type: 'switch', sessionId: 's' }]);
    expect(await store.choice('u', '1')).toBeUndefined();
    await store.offer('u', 'm1', [allow, deny]);
    expect(await store.choice('u', ' 2 ')).toEqual({ action: deny, messageId: 'm1' });
    expect(await store.choice('u', '3')).toBeUndefined();
    expect(await store.choice('u', '1 please')).toBeUndefined();
    expect(await store.choice('other', '1')).toBeUndefined();
    await store.offer('u', undefined, [deny]);
    expect(await store.choice('u', '1')).toEqual({ action: deny });
    await store.clear('u');
    expect(await store.choice('u', '1')).toBeUndefined();
  });
});
