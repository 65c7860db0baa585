import { describe, expect, it } from 'vitest';
import { ALLOWLIST, listRunnable, type CmdSpec } from './allowlist.js';
import type { ToolSpec } from './providers/canonical.js';
import { buildCcExecTool } from './tool-descriptor.js';

const hub: CmdSpec = {
  name: 'hub',
  summary: 'Imported data.',
  subcommands: [
    {
      name: 'wechat',
      summary: 'WeChat.',
      subcommands: [
        {
          name: 'search',
          summary: 'Search imported WeChat chats.',
          run: {
            flags: [{ name: '--since', type: { kind: 'string', maxLen: 10 }, help: 'date' }],
            positionals: [{ name: 'query', required: true, kind: 'text', maxLen: 100, help: 'q' }],
          },
        },
      ],
    },
  ],
};

describe('buildCcExecTool', () => {
  it('is the canonical cc_exec tool with a strict {command, subargs} schema', () => {
    const tool = buildCcExecTool();
    expect(tool.name).toBe('cc_exec');
    expect(tool.parameters.type).toBe('object');
    expect(tool.parameters.required).toEqual(['command', 'subargs']);
    expect(tool.parameters.additionalProperties).toBe(false);
    expect(tool.parameters.properties.subargs).toMatchObject({
      type: 'array',
      items: { type: 'string' },
      maxItems: 12,
    });
  });

  it("is assignable to the providers' canonical ToolSpec (checked by tsc)", () => {
    const spec: ToolSpec = buildCcExecTool();
    expect(spec.parameters.type).toBe('object');
  });

  it('generates the command enum from the allowlist, in its order', () => {
    expect(buildCcExecTool().parameters.properties.command.enum).toEqual(ALLOWLIST.map((c) => c.name));
    expect(buildCcExecTool().parameters.properties.command.enum).toEqual([
      'note',
      'search',
      'memory',
      'skill',
      'status',
      'session',
      'mcp',
      'did',
    ]);
  });

  it('changes its enum and description when a spec entry is added (no hand-listed commands)', () => {
    const before = buildCcExecTool();
    const after = buildCcExecTool([...ALLOWLIST, hub]);
    expect(before.parameters.properties.command.enum).not.toContain('hub');
    expect(after.parameters.properties.command.enum).toEqual([...ALLOWLIST.map((c) => c.name), 'hub']);
    expect(before.description).not.toContain('hub wechat search');
    expect(after.description).toContain(
      '- hub wechat search <query> [--since <text≤10>] — Search imported WeChat chats.',
    );
  });

  it('drops a command from the enum and description when its spec entry is removed', () => {
    const tool = buildCcExecTool(ALLOWLIST.filter((c) => c.name !== 'did'));
    expect(tool.parameters.properties.command.enum).not.toContain('did');
    expect(tool.description).not.toContain('did show');
  });

  it('describes every runnable command with every one of its flags and its injected default', () => {
    const { description } = buildCcExecTool();
    for (const cmd of listRunnable()) {
      const line = description.split('\n').find((l) => l.startsWith(`- ${cmd.path.join(' ')} `));
      expect(line, cmd.path.join(' ')).toBeDefined();
      for (const flag of cmd.run.flags) expect(line).toContain(flag.name);
      if (cmd.run.defaultLimit)
        expect(line).toContain(`${cmd.run.defaultLimit.flag.name} ${cmd.run.defaultLimit.value} is added when absent`);
    }
  });

  it('shows the real interface: search has --top-k and no --limit; note show takes an id; bools take no value', () => {
    const { description } = buildCcExecTool();
    const search = description.split('\n').find((l) => l.startsWith('- search '));
    expect(search).toContain('[--top-k <1-50>]');
    expect(search).not.toContain('--limit');
    expect(description).toContain('- note show <id-prefix> [--json]');
    expect(description).toContain('- note list [-n|--limit <1-100>]');
    expect(description).not.toMatch(/note view|--id\b|--json=true/);
    expect(description).toContain('boolean flags take no value');
  });

  it('takes its subargs example from the data', () => {
    expect(buildCcExecTool().parameters.properties.subargs.description).toContain(
      '["list","--limit","10"] for command "note"',
    );
    expect(buildCcExecTool([hub]).parameters.properties.subargs.description).toContain(
      '["wechat","search"] for command "hub"',
    );
  });
});
