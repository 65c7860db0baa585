import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redact } from '../../../core/redact.js';
import { writeFileAtomic } from '../../../store/atomic-write.js';
import { TokenSource } from './token-source.js';

describe('TokenSource', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-token-source-'));
    file = path.join(dir, 'web-token');
    await writeFileAtomic(file, 'first-token-0123456789abcdef\n');
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('follows the token file: a new token counts at once, the old one no more, and it is redacted', async () => {
    const source = await TokenSource.fromFile('first-token-0123456789abcdef', file);
    expect(await source.refresh()).toBe(false);
    expect(source.matches('first-token-0123456789abcdef')).toBe(true);
    await writeFileAtomic(file, 'second-token-0123456789abcdef\n');
    expect(await Promise.all([source.refresh(), source.refresh()])).toContain(true);
    expect(source.value).toBe('second-token-0123456789abcdef');
    expect(source.matches('second-token-0123456789abcdef')).toBe(true);
    expect(source.matches('first-token-0123456789abcdef')).toBe(false);
    expect(redact('t=second-token-0123456789abcdef')).not.toContain('second-token');
    expect(await source.refresh()).toBe(false);
  });

  it('keeps the token in force when the file disappears, is rewritten with the same token, or holds none', async () => {
    const source = await TokenSource.fromFile('first-token-0123456789abcdef', file);
    await writeFileAtomic(file, 'first-token-0123456789abcdef\n');
    expect(await source.refresh()).toBe(false);
    for (const text of ['', 'short\n']) {
      await writeFileAtomic(file, text);
      expect(await source.refresh()).toBe(false);
    }
    await fs.rm(file);
    expect(await source.refresh()).toBe(false);
    expect(source.matches('first-token-0123456789abcdef')).toBe(true);
  });

  it('a token from the config never changes; empty, oversized and missing candidates never match', async () => {
    const source = TokenSource.fixed('configured-token-0123456789');
    await writeFileAtomic(file, 'second-token-0123456789abcdef\n');
    expect(await source.refresh()).toBe(false);
    expect(source.matches('configured-token-0123456789')).toBe(true);
    for (const bad of [undefined, null, '', 'x'.repeat(513), 'configured-token-012345678'])
      expect(source.matches(bad)).toBe(false);
  });
});
