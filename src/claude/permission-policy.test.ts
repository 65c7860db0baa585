import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { PermissionPolicy, permissionFlags } from './permission-policy.js';
import { PermissionStore } from './permission-store.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-policy-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const call = (command: string) => ({ toolName: 'Bash', input: { command }, cwd: dir, home: dir });

describe('PermissionPolicy', () => {
  it('deny list wins, then config + persisted allow rules, else ask', async () => {
    const store = new PermissionStore(path.join(dir, 'p.json'));
    await store.add('Bash(npm test:*)');
    const policy = new PermissionPolicy(
      { allowed_tools: ['Read', 'Bash(git status)'], disallowed_tools: ['Bash(rm:*)'] },
      store,
      silentLogger,
    );
    const rules = await policy.ruleSet();
    expect(rules).toEqual({ allowed: ['Read', 'Bash(git status)', 'Bash(npm test:*)'], disallowed: ['Bash(rm:*)'] });
    expect(policy.decide(rules, call('rm -rf x'))).toEqual({ verdict: 'deny', rule: 'Bash(rm:*)' });
    expect(policy.decide(rules, call('npm test'))).toEqual({ verdict: 'allow', rule: 'Bash(npm test:*)' });
    expect(policy.decide(rules, call('git status'))).toEqual({ verdict: 'allow', rule: 'Bash(git status)' });
    expect(policy.decide(rules, call('curl x'))).toEqual({ verdict: 'ask' });
  });

  it('a corrupt permissions file only loses the persisted part', async () => {
    const file = path.join(dir, 'p.json');
    fs.writeFileSync(file, '{ half');
    const policy = new PermissionPolicy(
      { allowed_tools: ['Read'], disallowed_tools: [] },
      new PermissionStore(file),
      silentLogger,
    );
    expect(await policy.ruleSet()).toEqual({ allowed: ['Read'], disallowed: [] });
    await policy.remember('Bash(ls:*)', {}); // logged, not thrown
  });
});

describe('permissionFlags', () => {
  it('one argv element per rule; empty lists are omitted', () => {
    expect(permissionFlags('acceptEdits', { allowed: ['Read', 'Bash(touch f *)'], disallowed: ['WebFetch'] })).toEqual([
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'Read',
      'Bash(touch f *)',
      '--disallowedTools',
      'WebFetch',
    ]);
    expect(permissionFlags('default', { allowed: [], disallowed: [] })).toEqual(['--permission-mode', 'default']);
  });
});
