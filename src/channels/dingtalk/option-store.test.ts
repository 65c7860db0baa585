import { describe, expect, it } from 'vitest';
import { JsonLedger } from '../../core/json-ledger.js';
import { silentLogger } from '../../core/logger.js';
import { MAX_OPEN_PROMPTS, OptionStore, tokenOf, type StoredPrompts } from './option-store.js';
import { TOKEN_ALPHABET, TOKEN_LENGTH } from './option-tap.js';

const perm = (requestId: string, decision: 'allow' | 'deny' = 'allow') =>
  ({ type: 'permission', requestId, nonce: 'n', decision }) as const;
const memory = () => new JsonLedger<StoredPrompts>(undefined, silentLogger);

describe('OptionStore', () => {
  it('a number alone answers the newest prompt, a tap the buttons it names (a prompt’s or any other)', async () => {
    const store = new OptionStore(memory());
    expect(await store.offer('u', 'none', [])).toBeUndefined();
    // Other buttons (a /list's sessions) are offered for taps, but a number alone is ordinary text.
    const list = await store.offer('u', 'list', [{ type: 'switch', sessionId: 's' }]);
    expect(list).toMatch(new RegExp(`^[${TOKEN_ALPHABET}]{${TOKEN_LENGTH}}$`));
    expect(await store.choice('u', { n: 1 })).toBeUndefined();
    expect(await store.choice('u', { n: 1, token: list! })).toEqual({
      kind: 'option',
      action: { type: 'switch', sessionId: 's' },
      token: list,
    });
    const older = await store.offer('u', 'prompt-a', [perm('a'), perm('a', 'deny')]);
    const newer = await store.offer('u', 'prompt-b', [perm('b')]);
    expect(older).toMatch(new RegExp(`^[${TOKEN_ALPHABET}]{${TOKEN_LENGTH}}$`));
    expect(newer).not.toBe(older);
    expect(await store.choice('u', { n: 1 })).toEqual({ kind: 'option', action: perm('b'), token: newer });
    expect(await store.choice('u', { n: 2 })).toBeUndefined();
    // Buttons offered after a prompt leave the prompt the one a number alone answers.
    await store.offer('u', 'queued', [{ type: 'stop', messageId: 'm', nonce: 'n' }]);
    expect(await store.choice('u', { n: 1 })).toEqual({ kind: 'option', action: perm('b'), token: newer });
    expect(await store.choice('u', { n: 2, token: older! })).toEqual({
      kind: 'option',
      action: perm('a', 'deny'),
      token: older,
    });
    expect(await store.choice('u', { n: 9, token: older! })).toEqual({ kind: 'no-such-option', n: 9 });
    expect(await store.choice('u', { n: 1, token: 'zzzz' })).toEqual({ kind: 'closed' });
    // Someone who was offered nothing: a number is ordinary text, a tap names no open prompt.
    expect(await store.choice('stranger', { n: 1 })).toBeUndefined();
    expect(await store.choice('stranger', { n: 1, token: older! })).toEqual({ kind: 'closed' });
  });

  it('closes an answered prompt (its token is never given out again) and keeps the others open', async () => {
    const store = new OptionStore(memory());
    const a = (await store.offer('u', 'a', [perm('a')]))!;
    const b = (await store.offer('u', 'b', [perm('b')]))!;
    await store.close('u', a);
    expect(await store.choice('u', { n: 1, token: a })).toEqual({ kind: 'closed' });
    expect(await store.choice('u', { n: 1 })).toMatchObject({ token: b });
    await store.close('u', b);
    // The newest was answered: a number alone is ordinary text again.
    expect(await store.choice('u', { n: 1 })).toBeUndefined();
    // The same delivery key offered again (a retried send) gets a fresh token, never a closed one.
    const again = await store.offer('u', 'a', [perm('a')]);
    expect([a, b]).not.toContain(again);
  });

  it('keeps its token for a retried send of the same prompt, and gives colliding keys different tokens', async () => {
    const store = new OptionStore(memory());
    const first = await store.offer('u', 'k', [perm('a')]);
    await store.offer('u', 'other', [perm('b')]);
    expect(await store.offer('u', 'k', [perm('a')])).toBe(first);
    // Two keys whose tokens collide (found among a few thousand): the second gets another token.
    const seen = new Map<string, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair && i < 20_000; i += 1) {
      const key = `key-${i}`;
      const other = seen.get(tokenOf(key));
      if (other) pair = [other, key];
      seen.set(tokenOf(key), key);
    }
    const [x, y] = pair!;
    const tx = await store.offer('v', x, [perm('x')]);
    const ty = await store.offer('v', y, [perm('y')]);
    expect(tx).toBe(tokenOf(x));
    expect(ty).not.toBe(tx);
    expect(await store.choice('v', { n: 1, token: tx! })).toMatchObject({ action: perm('x') });
    expect(await store.choice('v', { n: 1, token: ty! })).toMatchObject({ action: perm('y') });
  });

  it(`keeps the newest ${MAX_OPEN_PROMPTS} open prompts; a tap on a dropped one is "closed"`, async () => {
    const store = new OptionStore(memory());
    const tokens: string[] = [];
    for (let i = 0; i <= MAX_OPEN_PROMPTS; i += 1) tokens.push((await store.offer('u', `p${i}`, [perm(`r${i}`)]))!);
    expect(await store.choice('u', { n: 1, token: tokens[0]! })).toEqual({ kind: 'closed' });
    expect(await store.choice('u', { n: 1, token: tokens[1]! })).toMatchObject({ action: perm('r1') });
    expect(await store.choice('u', { n: 1 })).toMatchObject({ action: perm(`r${MAX_OPEN_PROMPTS}`) });
  });

  it('drops other buttons (every reply’s Stop) before a prompt still waiting for its answer', async () => {
    const store = new OptionStore(memory());
    const stop = (i: number) => [{ type: 'stop' as const, messageId: `m${i}`, nonce: 'n' }];
    const prompt = (await store.offer('u', 'prompt', [perm('p')]))!;
    const stops: string[] = [];
    for (let i = 0; i < MAX_OPEN_PROMPTS + 5; i += 1) stops.push((await store.offer('u', `s${i}`, stop(i)))!);
    expect(await store.choice('u', { n: 1, token: prompt })).toMatchObject({ action: perm('p') });
    expect(await store.choice('u', { n: 1 })).toMatchObject({ action: perm('p') });
    expect(await store.choice('u', { n: 1, token: stops[5]! })).toEqual({ kind: 'closed' });
    expect(await store.choice('u', { n: 1, token: stops[6]! })).toMatchObject({ action: stop(6)[0] });
    // Once only prompts are open, the oldest prompt goes — never the buttons just offered.
    const answers: string[] = [];
    for (let i = 0; i < MAX_OPEN_PROMPTS; i += 1) answers.push((await store.offer('u', `a${i}`, [perm(`a${i}`)]))!);
    expect(await store.choice('u', { n: 1, token: prompt })).toEqual({ kind: 'closed' });
    const last = (await store.offer('u', 'last-stop', stop(99)))!;
    expect(await store.choice('u', { n: 1, token: last })).toMatchObject({ action: stop(99)[0] });
    expect(await store.choice('u', { n: 1, token: answers[0]! })).toEqual({ kind: 'closed' });
    expect(await store.choice('u', { n: 1, token: answers[1]! })).toMatchObject({ action: perm('a1') });
  });

  it('runs concurrent offers one at a time (none is lost) and reads what an earlier version kept', async () => {
    const ledger = memory();
    const store = new OptionStore(ledger);
    const tokens = await Promise.all(['a', 'b', 'c'].map((k) => store.offer('u', k, [perm(k)])));
    for (const [i, k] of ['a', 'b', 'c'].entries())
      expect(await store.choice('u', { n: 1, token: tokens[i]! })).toMatchObject({ action: perm(k) });
    await ledger.set('old', { actions: [perm('x'), perm('x', 'deny')] });
    expect(await store.choice('old', { n: 2 })).toMatchObject({ kind: 'option', action: perm('x', 'deny') });
    await ledger.set('older', { actions: [] });
    expect(await store.choice('older', { n: 1 })).toBeUndefined();
  });
});
