import { describe, expect, it } from 'vitest';
import {
  allowed,
  edges,
  hostileCorpus,
  realCliMismatches,
  writeCommands,
  type DenyCase,
} from '../../test/fixtures/gate-cases.js';
import { ALLOWLIST, type CmdSpec, type RunSpec } from './allowlist.js';
import { gate } from './gate.js';

// The gate's allowed forms and what the real CLI does not have. The hostile corpus is in
// gate-hostile.test.ts, types, ranges, names and characters in gate-limits.test.ts.

describe('gate: allowed forms', () => {
  it.each(allowed)('allows %s', (_title, command, subargs) => {
    const decision = gate(command, subargs);
    expect(decision).toMatchObject({ allow: true, argv: [command, ...(subargs as string[])] });
  });
});

describe('gate: denied', () => {
  const groups: [string, DenyCase[]][] = [
    ['real-CLI mismatch', realCliMismatches],
    ['write command', writeCommands],
  ];
  for (const [group, cases] of groups) {
    it.each(cases)(`denies (${group}) %s`, (_title, command, subargs, reason) => {
      const decision = gate(command, subargs);
      expect(decision.allow).toBe(false);
      if (!decision.allow) expect(decision.reason).toMatch(reason);
    });
  }

  it('has at least 70 table cases', () => {
    expect(
      allowed.length + realCliMismatches.length + writeCommands.length + hostileCorpus.length + edges.length,
    ).toBeGreaterThanOrEqual(70);
  });
});

describe('gate: decisions', () => {
  it('returns the matched path and spec, and argv without the CLI prefix', () => {
    const decision = gate('note', ['list', '-n', '3']);
    const noteList = ALLOWLIST.find((c) => c.name === 'note')?.subcommands?.find((c) => c.name === 'list')?.run;
    expect(decision).toEqual({
      allow: true,
      argv: ['note', 'list', '-n', '3'],
      path: ['note', 'list'],
      spec: noteList,
    });
  });

  it('copies the arguments, so changing the input afterwards cannot change what runs', () => {
    const subargs = ['list'];
    const decision = gate('note', subargs);
    subargs.push('--eval');
    expect(decision.allow && decision.argv).toEqual(['note', 'list']);
  });
});

describe('gate: nested namespaces (a new namespace such as `hub wechat search` is only data)', () => {
  const hubSearch: RunSpec = {
    flags: [{ name: '--limit', short: '-n', type: { kind: 'int', min: 1, max: 50 }, help: 'rows' }],
    positionals: [{ name: 'query', required: true, kind: 'text', maxLen: 100, help: 'query' }],
  };
  const hub: CmdSpec = {
    name: 'hub',
    summary: 'Imported data.',
    subcommands: [
      {
        name: 'wechat',
        summary: 'WeChat.',
        subcommands: [{ name: 'search', summary: 'Search chats.', run: hubSearch }],
      },
    ],
  };
  const both: CmdSpec = {
    name: 'both',
    summary: 'Runnable and a namespace.',
    run: { flags: [], positionals: [{ name: 'word', required: false, kind: 'id', maxLen: 10, help: 'w' }] },
    subcommands: [
      {
        name: 'sub',
        summary: 'Sub.',
        run: { flags: [{ name: '--json', type: { kind: 'bool' }, help: 'json' }], positionals: [] },
      },
    ],
  };
  const list = [...ALLOWLIST, hub, both];

  it('allows a three-word command path', () => {
    expect(gate('hub', ['wechat', 'search', '妈妈', '--limit', '5'], list)).toMatchObject({
      allow: true,
      path: ['hub', 'wechat', 'search'],
      spec: hubSearch,
    });
  });

  it('denies a namespace without its next word, or with a word it does not have', () => {
    expect(gate('hub', ['wechat'], list)).toEqual({ allow: false, reason: "'hub wechat' needs a subcommand: search" });
    expect(gate('hub', ['wechat', 'delete'], list)).toEqual({
      allow: false,
      reason: "unknown subcommand 'delete' for 'hub wechat'; allowed: search",
    });
  });

  it('runs a node that is both runnable and a namespace, descending only on a known word', () => {
    expect(gate('both', [], list)).toMatchObject({ allow: true, path: ['both'] });
    expect(gate('both', ['other'], list)).toMatchObject({ allow: true, path: ['both'] });
    expect(gate('both', ['sub', '--json'], list)).toMatchObject({ allow: true, path: ['both', 'sub'] });
    expect(gate('both', ['other', '--json'], list)).toMatchObject({ allow: false });
  });

  it('fails closed on a data entry that is neither runnable nor a namespace', () => {
    expect(gate('empty', [], [{ name: 'empty', summary: 'Broken entry.' }])).toEqual({
      allow: false,
      reason: "'empty' is not runnable",
    });
  });

  it('does not know the new command with the shipped list', () => {
    expect(gate('hub', ['wechat', 'search', 'x'])).toMatchObject({ allow: false });
  });
});
