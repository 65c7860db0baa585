import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMappedSessions } from './read-mapped-sessions.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-mapping-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const entries = {
  ou_a: { type: 'session', sessionUuid: 's-1', cwd: '/w/a', origin: 'feishu', defaultProvider: 'kimi', createdAt: 't' },
  ou_b: { type: 'session', sessionUuid: 's-2', cwd: '' },
  ou_c: { type: 'pending_new_session', cwd: '/w/c' },
  ou_d: { type: 'session', sessionUuid: '' },
};
const expected = [
  { sessionId: 's-1', openId: 'ou_a', origin: 'feishu', cwd: '/w/a', provider: 'kimi', createdAt: 't' },
  { sessionId: 's-2', openId: 'ou_b', origin: null, cwd: null, provider: null, createdAt: null },
];

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('readMappedSessions', () => {
  it('reads the sessions of the mapping as the bridge writes it, and of a bare one', async () => {
    const wrapped = write(
      'wrapped.json',
      JSON.stringify({ version: 3, schema: 1, data: { ownerOpenId: 'ou_a', entries } }),
    );
    expect(await readMappedSessions(wrapped)).toEqual({ sessions: expected, warnings: [] });
    const bare = write('bare.json', JSON.stringify({ version: 1, ownerOpenId: null, entries }));
    expect(await readMappedSessions(bare)).toEqual({ sessions: expected, warnings: [] });
  });

  it('a missing file is no session; an unreadable one is none and a warning', async () => {
    expect(await readMappedSessions(path.join(dir, 'missing.json'))).toEqual({ sessions: [], warnings: [] });
    const broken = write('broken.json', '{"entries": ');
    expect(await readMappedSessions(broken)).toEqual({
      sessions: [],
      warnings: [{ code: 'unreadable_mapping', file: broken }],
    });
    expect((await readMappedSessions(write('odd.json', '[1,2]'))).sessions).toEqual([]);
  });
});
