import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommandSpecs } from './command-loaders.js';
import { optionShape, type CommandSpec } from './command-spec.js';
import { fastParse } from './fast-parse.js';
import { registerSpec } from './register-spec.js';

/** Every command with an action, with the words that reach it (`['hook', 'status']`). */
function leaves(specs: readonly CommandSpec[], prefix: string[] = []): { path: string[]; spec: CommandSpec }[] {
  return specs.flatMap((spec) => [
    ...(spec.action ? [{ path: [...prefix, spec.name], spec }] : []),
    ...leaves(spec.subcommands ?? [], [...prefix, spec.name]),
  ]);
}

/** What commander makes of `argv`: the action's values, or the usage error. */
async function viaCommander(
  specs: readonly CommandSpec[],
  argv: string[],
): Promise<{ values: unknown[] } | { error: string }> {
  let values: unknown[] | null = null;
  const program = new Command().name('cc-linker').exitOverride();
  const silence = (c: Command): void => {
    c.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    c.commands.forEach(silence);
  };
  for (const spec of specs) registerSpec(program, spec, async (_spec, v) => void (values = v));
  silence(program);
  try {
    await program.parseAsync(['node', 'cc-linker', ...argv]);
  } catch (err) {
    if (err instanceof CommanderError) return { error: err.code };
    throw err;
  }
  return values ? { values } : { error: 'no action' };
}

/** A spread of command lines for one command: well formed, odd and wrong. */
function corpus(spec: CommandSpec): string[][] {
  const args = (spec.args ?? []).map((a) =>
    a.name.endsWith('...>') ? ['two', 'words'] : a.name.startsWith('<') ? ['8c4b'] : [],
  );
  const positional = args.flat();
  const lines: string[][] = [
    positional,
    [...positional, 'extra'],
    positional.slice(1),
    [...positional, '--nope'],
    [...positional, '-h'],
    [...positional, '--help'],
    ['--', ...positional],
  ];
  for (const o of spec.options ?? []) {
    const shape = optionShape(o.flags);
    const flag = `--${shape.long}`;
    if (shape.value === 'none') {
      lines.push([...positional, flag], [flag, ...positional], [...positional, flag, flag]);
      if (shape.short) lines.push([...positional, `-${shape.short}`]);
      continue;
    }
    const good = o.choices?.[1] ?? o.choices?.[0] ?? (o.parse ? '5' : 'some value');
    lines.push(
      [...positional, flag, good],
      [...positional, `${flag}=${good}`],
      [...positional, flag],
      [...positional, flag, '-x'],
      [...positional, flag, 'not-a-choice-0'],
      [...positional, flag, '0'],
      [...positional, flag, good, flag, o.choices?.[0] ?? '7'],
    );
  }
  const flags = (spec.options ?? []).map((o) => optionShape(o.flags)).filter((s) => s.value === 'none');
  if (flags.length > 1) lines.push([...positional, ...flags.map((s) => `--${s.long}`)]);
  return lines;
}

describe('fastParse agrees with commander on every command', async () => {
  const specs = await loadCommandSpecs();
  for (const { path, spec } of leaves(specs)) {
    it(`cc-linker ${path.join(' ')}`, async () => {
      let fast = 0;
      for (const argv of corpus(spec)) {
        const quick = fastParse(spec, argv);
        const full = await viaCommander(specs, [...path, ...argv]);
        if (quick === null) continue;
        fast += 1;
        // Whatever the fast parser accepts, commander accepts with the very same values.
        expect(full, `argv ${JSON.stringify(argv)}`).toEqual({ values: quick });
      }
      // …and it takes the plain, well-formed lines (otherwise it saves nothing).
      if (!spec.subcommands?.length && !(spec.options ?? []).some((o) => /\.\.\.|\[/.test(o.flags)))
        expect(fast).toBeGreaterThan(0);
    });
  }
});

describe('fastParse', () => {
  const list: CommandSpec = {
    name: 'list',
    description: 'x',
    options: [
      { flags: '--origin <origin>', description: 'x', choices: ['cli', 'feishu'] },
      { flags: '--limit <n>', description: 'x', parse: (v) => Number(v), default: 20 },
      { flags: '--json', description: 'x' },
      { flags: '--no-check', description: 'x' },
    ],
    action: async () => {},
  };

  it('gives the options object commander would (defaults, camelCase, negation)', () => {
    expect(fastParse(list, [])).toEqual([{ limit: 20, check: true }]);
    expect(fastParse(list, ['--json', '--limit', '3', '--origin=feishu', '--no-check'])).toEqual([
      { limit: 3, json: true, origin: 'feishu', check: false },
    ]);
  });

  it('declines anything it should not decide: help, unknown options, bad choices, stray values', () => {
    for (const argv of [
      ['--help'],
      ['-h'],
      ['--nope'],
      ['--origin', 'web'],
      ['--limit'],
      ['--limit', '-1'],
      ['extra'],
      ['--', 'x'],
    ])
      expect(fastParse(list, argv), JSON.stringify(argv)).toBeNull();
  });

  it('passes positionals in order, a variadic one as an array', () => {
    const ask: CommandSpec = {
      name: 'ask',
      description: 'x',
      args: [{ name: '<question...>', description: 'x' }],
      action: async () => {},
    };
    expect(fastParse(ask, ['hello', 'there'])).toEqual([['hello', 'there'], {}]);
    expect(fastParse(ask, [])).toBeNull();
    const show: CommandSpec = {
      name: 'show',
      description: 'x',
      args: [
        { name: '<id>', description: 'x' },
        { name: '[more]', description: 'x' },
      ],
      action: async () => {},
    };
    expect(fastParse(show, ['8c4b'])).toEqual(['8c4b', undefined, {}]);
    expect(fastParse(show, [])).toBeNull();
  });
});
