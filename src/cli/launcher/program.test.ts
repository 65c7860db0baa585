import { describe, expect, it } from 'vitest';
import { COMMAND_LOADERS } from './command-loaders.js';
import { buildProgram } from './program.js';

const names = async (...words: string[]) =>
  (await buildProgram(['node', 'cc-linker', ...words])).commands.map((c) => c.name());
const ALL = COMMAND_LOADERS.map(([name]) => name);

describe('buildProgram: which command modules a run loads', () => {
  it('a command named first: that command alone', async () => {
    expect(await names('list', '--json')).toEqual(['list']);
    expect(await names('hook', 'status')).toEqual(['hook']);
  });

  it('-V / --version: none', async () => {
    expect(await names('--version')).toEqual([]);
    expect(await names('-V')).toEqual([]);
  });

  it('help, a typo to correct, an option first or nothing at all: every command, in --help order', async () => {
    for (const words of [['--help'], ['help', 'list'], ['lst'], ['--json', 'list'], []])
      expect(await names(...words), JSON.stringify(words)).toEqual(ALL);
  });

  it('each loader loads the command of its name', async () => {
    for (const [name, load] of COMMAND_LOADERS) expect((await load()).name).toBe(name);
  });
});
