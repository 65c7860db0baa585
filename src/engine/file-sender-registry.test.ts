import { describe, expect, it, vi } from 'vitest';
import type { FileSender } from './engine-types.js';
import { FileSenderRegistry } from './file-sender-registry.js';

/** A sender that records the calls it gets and answers `sent <path>`. */
function recording(): FileSender & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    sendFile: async (r) => {
      calls.push(r.path);
      return { ok: true, text: `sent ${r.path}` };
    },
  };
}

describe('FileSenderRegistry', () => {
  it('issues 256-bit hex tokens, distinct each time', () => {
    const registry = new FileSenderRegistry('en');
    const tokens = new Set(Array.from({ length: 50 }, () => registry.issue(() => undefined).token));
    expect(tokens.size).toBe(50);
    for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{64}$/);
    expect(registry.size).toBe(50);
  });

  it("a call goes to the sender of the token's turn running now (a later turn gets its own)", async () => {
    const registry = new FileSenderRegistry('en');
    const first = recording();
    const second = recording();
    let turn: FileSender | undefined = first;
    const grant = registry.issue(() => turn);
    expect(await registry.send(grant.token, { path: 'a.png', caption: 'c' })).toEqual({ ok: true, text: 'sent a.png' });
    turn = second;
    await registry.send(grant.token, { path: 'b.png' });
    expect(first.calls).toEqual(['a.png']);
    expect(second.calls).toEqual(['b.png']);
  });

  it('between turns a call is refused with a sentence; nothing is sent', async () => {
    const registry = new FileSenderRegistry('en');
    const grant = registry.issue(() => undefined);
    expect(await registry.send(grant.token, { path: 'a.png' })).toEqual({
      ok: false,
      text: 'Not sent: this turn cannot send files into a chat.',
    });
  });

  it('a revoked, unknown, malformed or missing token is refused; other grants keep working', async () => {
    const registry = new FileSenderRegistry('zh');
    const sender = recording();
    const gone = registry.issue(() => sender);
    const kept = registry.issue(() => sender);
    gone.revoke();
    gone.revoke(); // twice is harmless
    const refusals = [gone.token, 'f'.repeat(64), gone.token.toUpperCase(), `${kept.token}0`, '', undefined, 42];
    for (const token of refusals) {
      const answer = await registry.send(token, { path: 'a.png' });
      expect(answer.ok).toBe(false);
      expect(answer.text).toContain('文件通道已失效');
    }
    expect(sender.calls).toEqual([]);
    expect((await registry.send(kept.token, { path: 'k.png' })).ok).toBe(true);
    expect(sender.calls).toEqual(['k.png']);
    expect(registry.size).toBe(1);
  });

  it("a sender's own refusal is passed on as it is", async () => {
    const registry = new FileSenderRegistry('en');
    const sendFile = vi.fn(async () => ({ ok: false, text: 'Not sent: too big' }));
    const grant = registry.issue(() => ({ sendFile }));
    expect(await registry.send(grant.token, { path: 'big.bin' })).toEqual({ ok: false, text: 'Not sent: too big' });
    expect(sendFile).toHaveBeenCalledWith({ path: 'big.bin' });
  });
});
