import { Command } from 'commander';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionStore } from '../../claude/permission-store.js';
import { setCliRuntime } from '../context/with-context.js';
import { memoryOutput } from '../context/output.js';
import { registerSpec } from '../launcher/register-spec.js';
import { permissionsCommand } from './permissions.js';

let tmp: string;
let env: NodeJS.ProcessEnv;
let file: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-perm-cli-')));
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker'), PATH: process.env.PATH };
  file = path.join(tmp, '.cc-linker', 'permissions.json');
});
afterEach(() => {
  setCliRuntime({});
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function run(...args: string[]) {
  const out = memoryOutput();
  let code = -1;
  setCliRuntime({ env, out, setExitCode: (c) => (code = c) });
  const program = new Command().exitOverride();
  registerSpec(program, permissionsCommand);
  await program.parseAsync(['node', 'cc-linker', 'permissions', ...args]);
  return { out, code };
}

describe('cc-linker permissions', () => {
  it('list: empty, then numbered rules; --json', async () => {
    let r = await run('list');
    expect(r.code).toBe(0);
    expect(r.out.stdout.join('\n')).toContain('没有已保存的“始终允许”规则');
    expect(r.out.stderr.join('\n')).toContain('Read, Grep, Glob');
    const store = new PermissionStore(file);
    await store.add('Bash(npm test:*)', { source: 'Bash: npm test', now: new Date('2026-01-01T00:00:00Z') });
    await store.add('Bash(touch f *)');
    r = await run('list');
    expect(r.out.stdout[0]?.split('\n').slice(1)).toEqual([
      '  1. Bash(npm test:*)  (2026-01-01T00:00:00.000Z · Bash: npm test)',
      expect.stringMatching(/^ {2}2\. Bash\(touch f \*\) {2}\(/),
    ]);
    r = await run('list', '--json');
    expect(JSON.parse(r.out.stdout.join(''))).toMatchObject({
      file,
      rules: [{ rule: 'Bash(npm test:*)' }, { rule: 'Bash(touch f *)' }],
    });
  });

  it('revoke by number or text; an unknown rule exits 1', async () => {
    const store = new PermissionStore(file);
    await store.add('A');
    await store.add('Bash(touch f *)');
    let r = await run('revoke', '2');
    expect(r.code).toBe(0);
    expect(r.out.stdout).toEqual(['已撤销规则：Bash(touch f *)']);
    r = await run('revoke', 'A');
    expect(r.code).toBe(0);
    r = await run('revoke', 'A');
    expect(r.code).toBe(1);
    expect(r.out.stderr.join('\n')).toContain('没有找到规则 A');
    expect(await store.rules()).toEqual([]);
  });
});
