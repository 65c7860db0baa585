import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentPermissionStore } from './agent-permission-store.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-agentperm-'));
  file = path.join(dir, 'agent-permissions.json');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('AgentPermissionStore', () => {
  it('starts empty when there is no file', async () => {
    const store = new AgentPermissionStore(file);
    expect(await store.list()).toEqual([]);
    expect(await store.allows('codex', 'execute', 'ls')).toBe(false);
  });

  it('matches agent, kind and the exact command (whitespace collapsed), nothing wider', async () => {
    const store = new AgentPermissionStore(file);
    expect(await store.add({ agent: 'codex', kind: 'execute', command: 'npm  test', userId: 'u' })).toBe(true);
    expect(await store.add({ agent: 'codex', kind: 'execute', command: 'npm test' })).toBe(false);
    expect(await store.allows('codex', 'execute', ' npm test ')).toBe(true);
    expect(await store.allows('qwen', 'execute', 'npm test')).toBe(false);
    expect(await store.allows('codex', 'edit', 'npm test')).toBe(false);
    expect(await store.allows('codex', 'execute', 'npm test && rm -rf /')).toBe(false);
    expect(await store.allows('codex', 'execute', 'npm')).toBe(false);
    expect(await store.allows('codex', 'execute', '')).toBe(false);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  });

  it('refuses a rule with an empty field', async () => {
    const store = new AgentPermissionStore(file);
    await expect(store.add({ agent: 'codex', kind: 'execute', command: '   ' })).rejects.toThrow(RangeError);
    await expect(store.add({ agent: '', kind: 'execute', command: 'ls' })).rejects.toThrow(RangeError);
  });

  it('lists per agent and revokes by position', async () => {
    const store = new AgentPermissionStore(file);
    await store.add({ agent: 'codex', kind: 'execute', command: 'a' });
    await store.add({ agent: 'qwen', kind: 'execute', command: 'b' });
    await store.add({ agent: 'codex', kind: 'edit', command: 'c' });
    expect((await store.list('codex')).map((r) => r.command)).toEqual(['a', 'c']);
    expect((await store.revoke(2, 'codex'))?.command).toBe('c');
    expect(await store.revoke(5, 'codex')).toBeNull();
    expect((await store.list()).map((r) => r.command)).toEqual(['a', 'b']);
  });

  it('revokes one exact rule, and nothing when the rule is not there', async () => {
    const store = new AgentPermissionStore(file);
    await store.add({ agent: 'codex', kind: 'execute', command: 'npm test' });
    await store.add({ agent: 'qwen', kind: 'execute', command: 'npm test' });
    await store.add({ agent: 'codex', kind: 'edit', command: 'npm test' });
    expect(await store.revokeRule({ agent: 'codex', kind: 'execute', command: 'npm   test' })).toMatchObject({
      agent: 'codex',
      kind: 'execute',
    });
    expect(await store.revokeRule({ agent: 'codex', kind: 'execute', command: 'npm test' })).toBeNull();
    expect(await store.revokeRule({ agent: 'gemini', kind: 'edit', command: 'npm test' })).toBeNull();
    expect((await store.list()).map((r) => `${r.agent}/${r.kind}`)).toEqual(['qwen/execute', 'codex/edit']);
  });

  it('a hand-edited file with bad entries keeps the good ones', async () => {
    fs.writeFileSync(
      file,
      JSON.stringify({
        schema: 1,
        version: 3,
        data: {
          rules: [
            { agent: 'codex', kind: 'execute', command: 'ls', addedAt: 'x' },
            { agent: 'codex', kind: 'execute' },
            'junk',
            { agent: 'codex', kind: 'execute', command: '  ' },
          ],
        },
      }),
    );
    const store = new AgentPermissionStore(file);
    expect(await store.list()).toEqual([{ agent: 'codex', kind: 'execute', command: 'ls', addedAt: 'x' }]);
  });
});
