import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OptionValueError, type CommandSpec } from '../commands/command-spec.js';
import { memoryOutput } from '../context/output.js';
import { setCliRuntime } from '../context/with-context.js';
import { registerSpec } from './register-spec.js';

let home: string;
let seen: unknown[] | null;
let code: number;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-register-'));
  seen = null;
  code = -1;
  setCliRuntime({
    env: { HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker') },
    out: memoryOutput(),
    setExitCode: (c) => (code = c),
  });
});
afterEach(() => {
  setCliRuntime({});
  fs.rmSync(home, { recursive: true, force: true });
});

/** An action that records what it was given (after the context) and exits 3. */
const record = async (...values: unknown[]) => {
  seen = values.slice(1);
  return 3;
};

const list: CommandSpec = {
  name: 'list',
  description: 'x',
  options: [
    { flags: '--origin <origin>', description: 'x', choices: ['cli', 'feishu'] },
    {
      flags: '--limit <n>',
      description: 'x',
      default: 20,
      parse: (v) => {
        if (!/^[1-9]\d*$/.test(v)) throw new OptionValueError('must be a positive integer');
        return Number(v);
      },
    },
    { flags: '--json', description: 'x' },
    { flags: '--no-check', description: 'x' },
  ],
  action: record,
};
const ask: CommandSpec = {
  name: 'ask',
  description: 'x',
  args: [{ name: '<question...>', description: 'x' }],
  action: record,
};
const show: CommandSpec = {
  name: 'show',
  description: 'x',
  args: [
    { name: '<id>', description: 'x' },
    { name: '[more]', description: 'x' },
  ],
  action: record,
};
const chat: CommandSpec = {
  name: 'chat',
  description: 'x',
  options: [{ flags: '--provider <name>', description: 'x' }],
  subcommands: [
    { name: 'history', description: 'x', options: [{ flags: '--json', description: 'x' }], action: record },
  ],
  action: record,
};

/** Runs `cc-linker <argv…>` through a program of the specs above: the action's values, or commander's error. */
async function run(...argv: string[]): Promise<{ values: unknown[] | null; code: number } | { error: string }> {
  const program = new Command().name('cc-linker').exitOverride();
  for (const spec of [list, ask, show, chat]) registerSpec(program, spec);
  const silence = (c: Command): void => {
    c.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    c.commands.forEach(silence);
  };
  silence(program);
  try {
    await program.parseAsync(['node', 'cc-linker', ...argv]);
  } catch (err) {
    if (err instanceof CommanderError) return { error: err.code };
    throw err;
  }
  return { values: seen, code };
}

describe('registerSpec', () => {
  it('gives the action the context, then the options object: defaults, camelCase, negation', async () => {
    expect(await run('list')).toEqual({ values: [{ limit: 20, check: true }], code: 3 });
    expect(await run('list', '--json', '--limit', '3', '--origin=feishu', '--no-check')).toEqual({
      values: [{ limit: 3, json: true, origin: 'feishu', check: false }],
      code: 3,
    });
  });

  it('passes positionals in order, a variadic one as an array, a missing optional one as undefined', async () => {
    expect(await run('ask', 'hello', 'there')).toEqual({ values: [['hello', 'there'], {}], code: 3 });
    expect(await run('show', '8c4b')).toEqual({ values: ['8c4b', undefined, {}], code: 3 });
  });

  it("merges a parent command's options into a subcommand's (chat --provider x history)", async () => {
    expect(await run('chat', '--provider', 'x', 'history', '--json')).toEqual({
      values: [{ provider: 'x', json: true }],
      code: 3,
    });
    expect(await run('chat', '--provider', 'x')).toEqual({ values: [{ provider: 'x' }], code: 3 });
  });

  it('leaves every usage error to commander, without running the action', async () => {
    for (const [argv, error] of [
      [['list', '--origin', 'web'], 'commander.invalidArgument'],
      [['list', '--limit', '0'], 'commander.invalidArgument'],
      [['list', '--limit'], 'commander.optionMissingArgument'],
      [['list', '--nope'], 'commander.unknownOption'],
      [['list', 'extra'], 'commander.excessArguments'],
      [['ask'], 'commander.missingArgument'],
      [['show'], 'commander.missingArgument'],
      [['list', '--help'], 'commander.helpDisplayed'],
    ] as const) {
      expect(await run(...argv), JSON.stringify(argv)).toEqual({ error });
      expect(seen).toBeNull();
    }
  });
});
