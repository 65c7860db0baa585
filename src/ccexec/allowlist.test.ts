import { describe, expect, it } from 'vitest';
import { ALLOWLIST, listRunnable, type CmdSpec } from './allowlist.js';

/**
 * The read-only commands of the real CLI (0.165.x), hard-coded here on purpose: the allowlist must not
 * grow or drift without this list being changed too, in a second place a reviewer will see.
 */
const DOCUMENTED = [
  'note list',
  'note show',
  'search',
  'memory show',
  'memory list',
  'skill list',
  'status',
  'session list',
  'mcp list',
  'did list',
  'did show',
];

/** Flags per command, as the real CLI 0.165.x has them. */
const DOCUMENTED_FLAGS: Record<string, string[]> = {
  'note list': ['--limit', '--category', '--tag', '--json'],
  'note show': ['--json'],
  search: ['--mode', '--top-k', '--threshold', '--json'],
  'memory show': ['--limit', '--category', '--json'],
  'memory list': ['--limit', '--category', '--json'],
  'skill list': ['--category', '--tag', '--runnable', '--source', '--json'],
  status: ['--json', '--deep'],
  'session list': ['--limit', '--json'],
  'mcp list': ['--json', '--mode', '--scope', '--all-scopes'],
  'did list': ['--json'],
  'did show': ['--json'],
};

function walk(nodes: readonly CmdSpec[], visit: (node: CmdSpec) => void): void {
  for (const node of nodes) {
    visit(node);
    walk(node.subcommands ?? [], visit);
  }
}

describe('ALLOWLIST', () => {
  it('holds exactly the documented read-only commands', () => {
    expect(listRunnable().map((c) => c.path.join(' '))).toEqual(DOCUMENTED);
  });

  it('gives each command exactly the flags the real CLI has', () => {
    for (const cmd of listRunnable()) {
      expect(cmd.run.flags.map((f) => f.name).sort(), cmd.path.join(' ')).toEqual(
        [...(DOCUMENTED_FLAGS[cmd.path.join(' ')] ?? [])].sort(),
      );
    }
  });

  it('uses only ASCII kebab names, unique at each level', () => {
    walk(ALLOWLIST, (node) => {
      expect(node.name).toMatch(/^[a-z][a-z0-9-]*$/);
      const names = (node.subcommands ?? []).map((c) => c.name);
      expect(new Set(names).size).toBe(names.length);
    });
    expect(new Set(ALLOWLIST.map((c) => c.name)).size).toBe(ALLOWLIST.length);
  });

  it('has well-formed, unique flags and a default limit that is one of its own int flags and in range', () => {
    for (const { path, run } of listRunnable()) {
      const label = path.join(' ');
      for (const flag of run.flags) {
        expect(flag.name, label).toMatch(/^--[a-z][a-z0-9-]*$/);
        if (flag.short !== undefined) expect(flag.short, label).toMatch(/^-[a-zA-Z]$/);
      }
      const names = run.flags.flatMap((f) => (f.short ? [f.name, f.short] : [f.name]));
      expect(new Set(names).size, label).toBe(names.length);
      const limit = run.defaultLimit;
      if (limit) {
        expect(run.flags, label).toContain(limit.flag);
        expect(limit.flag.type.kind, label).toBe('int');
        if (limit.flag.type.kind === 'int') {
          expect(limit.value).toBeGreaterThanOrEqual(limit.flag.type.min);
          expect(limit.value).toBeLessThanOrEqual(limit.flag.type.max);
        }
      }
      const firstOptional = run.positionals.findIndex((p) => !p.required);
      if (firstOptional !== -1)
        expect(
          run.positionals.slice(firstOptional).every((p) => !p.required),
          label,
        ).toBe(true);
    }
  });

  it('injects each command’s real limit flag: --limit where it exists, --top-k for search, nothing elsewhere', () => {
    const limits = Object.fromEntries(
      listRunnable().map((c) => [
        c.path.join(' '),
        c.run.defaultLimit ? `${c.run.defaultLimit.flag.name} ${c.run.defaultLimit.value}` : null,
      ]),
    );
    expect(limits).toEqual({
      'note list': '--limit 20',
      'note show': null,
      search: '--top-k 5',
      'memory show': '--limit 20',
      'memory list': '--limit 20',
      'skill list': null,
      status: null,
      'session list': '--limit 20',
      'mcp list': null,
      'did list': null,
      'did show': null,
    });
  });
});
