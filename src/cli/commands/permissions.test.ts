import { Command } from 'commander';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentPermissionStore } from '../../agents/acp/agent-permission-store.js';
import { PermissionStore } from '../../claude/permission-store.js';
import { setCliRuntime } from '../context/with-context.js';
import { memoryOutput } from '../context/output.js';
import { registerSpec } from '../launcher/register-spec.js';
import { permissionsCommand } from './permissions.js';

let tmp: string;
let env: NodeJS.ProcessEnv;
let file: string;
let agentFile: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-perm-cli-')));
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker'), PATH: process.env.PATH };
  file = path.join(tmp, '.cc-linker', 'permissions.json');
  agentFile = path.join(tmp, '.cc-linker', 'agent-permissions.json');
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

  it("list: the ACP agents' rules after Claude Code's, numbered on, each naming its agent; --json", async () => {
    const agents = new AgentPermissionStore(agentFile);
    const at = new Date('2026-02-01T00:00:00Z');
    await agents.add({ agent: 'codex', kind: 'execute', command: 'npm test', now: at });
    await agents.add({ agent: 'qwen', kind: 'execute', command: 'ls  -la', now: at });
    await agents.add({ agent: 'mine', kind: 'edit', command: 'src/a.ts', now: at });
    let r = await run('list');
    expect(r.out.stdout).toEqual([
      [
        `ACP 智能体的“始终允许”规则（${agentFile}）：`,
        '  1. [Codex] execute: npm test  (2026-02-01T00:00:00.000Z)',
        '  2. [Qwen Code] execute: ls -la  (2026-02-01T00:00:00.000Z)',
        '  3. [mine] edit: src/a.ts  (2026-02-01T00:00:00.000Z)',
      ].join('\n'),
    ]);
    await new PermissionStore(file).add('Bash(npm test:*)');
    r = await run('list');
    expect(r.out.stdout).toHaveLength(2);
    expect(r.out.stdout[0]).toMatch(/^已保存的“始终允许”规则.*\n {2}1\. Bash\(npm test:\*\)/);
    expect(r.out.stdout[1]?.split('\n').slice(1, 2)).toEqual([
      '  2. [Codex] execute: npm test  (2026-02-01T00:00:00.000Z)',
    ]);
    r = await run('list', '--json');
    expect(JSON.parse(r.out.stdout.join(''))).toMatchObject({
      agent_file: agentFile,
      agent_rules: [
        { number: 2, agent: 'codex', label: 'Codex', kind: 'execute', command: 'npm test' },
        { number: 3, agent: 'qwen', label: 'Qwen Code', command: 'ls -la' },
        { number: 4, agent: 'mine', label: 'mine', kind: 'edit' },
      ],
    });
  });

  it('revoke: an agent rule by its number, by its command, or with --agent when several agents have it', async () => {
    const claude = new PermissionStore(file);
    await claude.add('Bash(npm test:*)');
    const agents = new AgentPermissionStore(agentFile);
    await agents.add({ agent: 'codex', kind: 'execute', command: 'npm test' });
    await agents.add({ agent: 'qwen', kind: 'execute', command: 'npm test' });
    await agents.add({ agent: 'qwen', kind: 'execute', command: 'make' });
    await agents.add({ agent: 'gemini', kind: 'execute', command: 'ls' });

    // 1 is Claude's; 2… are the agents', in list order.
    let r = await run('revoke', '4');
    expect([r.code, r.out.stdout]).toEqual([0, ['已撤销规则：[Qwen Code] execute: make']]);
    r = await run('revoke', 'npm  test');
    expect(r.code).toBe(1);
    expect(r.out.stderr.join('\n')).toContain('规则 npm  test 属于多个智能体（codex, qwen）');
    r = await run('revoke', 'npm test', '--agent', 'Qwen');
    expect([r.code, r.out.stdout]).toEqual([0, ['已撤销规则：[Qwen Code] execute: npm test']]);
    r = await run('revoke', 'ls');
    expect([r.code, r.out.stdout]).toEqual([0, ['已撤销规则：[Gemini CLI] execute: ls']]);
    r = await run('revoke', 'npm test', '--agent', 'gemini');
    expect(r.code).toBe(1);
    expect(r.out.stderr.join('\n')).toContain('没有找到规则 npm test');
    r = await run('revoke', '9');
    expect(r.code).toBe(1);
    r = await run('revoke', 'Bash(npm test:*)', '--agent', 'codex');
    expect(r.code).toBe(1);
    expect((await agents.list()).map((x) => x.agent)).toEqual(['codex']);
    expect(await claude.rules()).toEqual(['Bash(npm test:*)']);
    r = await run('revoke', '1');
    expect([r.code, r.out.stdout]).toEqual([0, ['已撤销规则：Bash(npm test:*)']]);
    r = await run('revoke', '1');
    expect([r.code, r.out.stdout]).toEqual([0, ['已撤销规则：[Codex] execute: npm test']]);
    expect(await agents.list()).toEqual([]);
  });
});
