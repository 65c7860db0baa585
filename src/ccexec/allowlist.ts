/**
 * The cc_exec allowlist, as data: which read-only ChainlessChain CLI commands the model may run, with
 * exactly the subcommands, flags and positionals the real CLI (0.165.x) has. The gate (`gate.ts`),
 * `applyDefaults` and the tool descriptor are all derived from this list, so adding a command is adding
 * one entry here — no prompt text or parser changes.
 *
 * It follows the real CLI, not the early design it started from: that design listed `search --limit`,
 * `note view`, `--id` and `--json=true`, which the CLI rejects with exit 1 (commander's
 * `error: unknown option` / `unknown command`).
 *
 * Caps chosen here (documented for the model in the generated tool description):
 * - `--limit` / `-n`: 1..100 (the CLI default is 20; `0` would silently become 20). Injected default: 20.
 * - `search --top-k`: 1..50 (CLI default 10). Injected default: 5 — search snippets are long and the
 *   hybrid mode ranks every note, so a small default keeps the 4 KB model view useful.
 * - `search --threshold`: decimal 0..100 (BM25 scores exceed 1; RRF and cosine scores stay below 1).
 * - free-text flag values (`--category`, `--tag`, `--scope`): at most 64 characters.
 * - positionals: a note id prefix ≤ 64, a DID ≤ 128 (both `id` tokens), a search query ≤ 200 characters.
 */

/** The value a flag takes. `bool` flags take none: `--json=true` is denied, as the CLI rejects it. */
export type FlagType =
  | { readonly kind: 'bool' }
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'decimal'; readonly min: number; readonly max: number }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'string'; readonly maxLen: number };

/** One flag of one runnable command: long name (`--limit`), optional short alias (`-n`), value type. */
export interface FlagSpec {
  /** Long form with its dashes, ASCII lower-case kebab: `--top-k`. */
  readonly name: string;
  /** Single-letter alias with its dash, when the CLI has one: `-n`. */
  readonly short?: string;
  readonly type: FlagType;
  /** One short English phrase for the generated tool description. */
  readonly help: string;
}

/**
 * One positional argument. `id` accepts one token of ASCII letters, digits, `.`, `:` and `-` (note ids,
 * DIDs; no `%`/`_`, which the CLI's `LIKE` prefix match would treat as wildcards); `text` accepts free
 * text (spaces, CJK) minus the gate's forbidden characters.
 */
export interface PositionalSpec {
  readonly name: string;
  readonly required: boolean;
  readonly kind: 'id' | 'text';
  readonly maxLen: number;
  readonly help: string;
}

/** The flag `applyDefaults` adds when the model did not pass it, and the value it adds. */
export interface LimitDefault {
  /** Must be one of the same `RunSpec.flags` (an `int` flag). */
  readonly flag: FlagSpec;
  readonly value: number;
}

/** What a runnable command path (`note list`, `search`, later `hub wechat search`) accepts. */
export interface RunSpec {
  readonly flags: readonly FlagSpec[];
  /** In order; required ones first. */
  readonly positionals: readonly PositionalSpec[];
  readonly defaultLimit?: LimitDefault;
}

/**
 * One word of a command path. A node is runnable when it has `run`, a namespace when it has
 * `subcommands`; nesting is unbounded, so `hub` → `wechat` → `search` is three nested `CmdSpec`s.
 * Top-level nodes are the `command` enum of the tool; deeper words go first in `subargs`.
 */
export interface CmdSpec {
  /** ASCII lower-case kebab (`^[a-z][a-z0-9-]*$`). */
  readonly name: string;
  /** One short English sentence for the generated tool description. */
  readonly summary: string;
  readonly run?: RunSpec;
  readonly subcommands?: readonly CmdSpec[];
}

/** Most `subargs` one call may carry; checked before anything else is looked at. */
export const MAX_SUBARGS = 12;
/** Longest single argument, in UTF-16 code units: no real query, id or flag value comes near it. */
export const MAX_ARG_LENGTH = 256;

const JSON_FLAG: FlagSpec = { name: '--json', type: { kind: 'bool' }, help: 'JSON output' };
const LIMIT_FLAG: FlagSpec = {
  name: '--limit',
  short: '-n',
  type: { kind: 'int', min: 1, max: 100 },
  help: 'maximum rows',
};
const CATEGORY_FLAG: FlagSpec = {
  name: '--category',
  type: { kind: 'string', maxLen: 64 },
  help: 'filter by category',
};
const TAG_FLAG: FlagSpec = { name: '--tag', type: { kind: 'string', maxLen: 64 }, help: 'filter by tag' };
const TOP_K_FLAG: FlagSpec = { name: '--top-k', type: { kind: 'int', min: 1, max: 50 }, help: 'number of results' };
const LIMIT_20: LimitDefault = { flag: LIMIT_FLAG, value: 20 };

const MEMORY_RUN: RunSpec = { flags: [LIMIT_FLAG, CATEGORY_FLAG, JSON_FLAG], positionals: [], defaultLimit: LIMIT_20 };

/** The shipped allowlist: the read-only commands of the real CLI 0.165.x, nothing else. */
export const ALLOWLIST: readonly CmdSpec[] = [
  {
    name: 'note',
    summary: 'Notes in the knowledge base.',
    subcommands: [
      {
        name: 'list',
        summary: 'List notes, newest first (id prefix, title, tags, date).',
        run: { flags: [LIMIT_FLAG, CATEGORY_FLAG, TAG_FLAG, JSON_FLAG], positionals: [], defaultLimit: LIMIT_20 },
      },
      {
        name: 'show',
        summary: "Show one note's full content by id or id prefix (from note list or search).",
        run: {
          flags: [JSON_FLAG],
          positionals: [{ name: 'id-prefix', required: true, kind: 'id', maxLen: 64, help: 'note id or its prefix' }],
        },
      },
    ],
  },
  {
    name: 'search',
    summary:
      'Search notes by relevance (BM25 + vector hybrid by default); hybrid ranks every note even without a match, bm25 returns only matches.',
    run: {
      flags: [
        { name: '--mode', type: { kind: 'enum', values: ['bm25', 'vector', 'hybrid'] }, help: 'ranking method' },
        TOP_K_FLAG,
        { name: '--threshold', type: { kind: 'decimal', min: 0, max: 100 }, help: 'minimum score' },
        JSON_FLAG,
      ],
      positionals: [
        { name: 'query', required: true, kind: 'text', maxLen: 200, help: 'the whole query as one argument' },
      ],
      defaultLimit: { flag: TOP_K_FLAG, value: 5 },
    },
  },
  {
    name: 'memory',
    summary: 'Saved memory entries.',
    subcommands: [
      { name: 'show', summary: 'List memory entries.', run: MEMORY_RUN },
      { name: 'list', summary: 'Same as memory show.', run: MEMORY_RUN },
    ],
  },
  {
    name: 'skill',
    summary: 'Installed AI skills.',
    subcommands: [
      {
        name: 'list',
        summary: 'List skills by category (exit code 1 with "No skills found" when there are none).',
        run: {
          flags: [
            CATEGORY_FLAG,
            TAG_FLAG,
            { name: '--runnable', type: { kind: 'bool' }, help: 'only skills that can run headless' },
            {
              name: '--source',
              type: { kind: 'enum', values: ['bundled', 'marketplace', 'managed', 'workspace'] },
              help: 'filter by source layer',
            },
            JSON_FLAG,
          ],
          positionals: [],
        },
      },
    ],
  },
  {
    name: 'status',
    summary: 'ChainlessChain status: version and which local services are up.',
    run: {
      flags: [JSON_FLAG, { name: '--deep', type: { kind: 'bool' }, help: 'also probe local service ports' }],
      positionals: [],
    },
  },
  {
    name: 'session',
    summary: 'Saved ChainlessChain chat/agent sessions.',
    subcommands: [
      {
        name: 'list',
        summary: 'List saved sessions.',
        run: { flags: [LIMIT_FLAG, JSON_FLAG], positionals: [], defaultLimit: LIMIT_20 },
      },
    ],
  },
  {
    name: 'mcp',
    summary: 'Configured MCP servers.',
    subcommands: [
      {
        name: 'list',
        summary: 'List configured MCP servers.',
        run: {
          flags: [
            JSON_FLAG,
            {
              name: '--mode',
              type: { kind: 'enum', values: ['local', 'lan', 'hosted'] },
              help: 'runtime mode to check against',
            },
            { name: '--scope', type: { kind: 'string', maxLen: 64 }, help: 'configuration scope' },
            { name: '--all-scopes', type: { kind: 'bool' }, help: 'every scope' },
          ],
          positionals: [],
        },
      },
    ],
  },
  {
    name: 'did',
    summary: 'Decentralized identities (public data only).',
    subcommands: [
      { name: 'list', summary: 'List DID identities.', run: { flags: [JSON_FLAG], positionals: [] } },
      {
        name: 'show',
        summary: 'Show one DID identity (public key and document; never a private key).',
        run: {
          flags: [JSON_FLAG],
          positionals: [{ name: 'did', required: true, kind: 'id', maxLen: 128, help: 'DID or its prefix' }],
        },
      },
    ],
  },
];

/** A runnable node of an allowlist with its full word path (`['note', 'list']`), depth-first in list order. */
export interface RunnableCommand {
  readonly path: readonly string[];
  readonly summary: string;
  readonly run: RunSpec;
}

/** Every runnable command path of `allowlist`, for the tool description and for tests. */
export function listRunnable(allowlist: readonly CmdSpec[] = ALLOWLIST): RunnableCommand[] {
  const out: RunnableCommand[] = [];
  const walk = (node: CmdSpec, parents: readonly string[]): void => {
    const path = [...parents, node.name];
    if (node.run) out.push({ path, summary: node.summary, run: node.run });
    for (const child of node.subcommands ?? []) walk(child, path);
  };
  for (const node of allowlist) walk(node, []);
  return out;
}
