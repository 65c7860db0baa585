import { describe, expect, it } from 'vitest';
import { ALLOWLIST, MAX_SUBARGS, type CmdSpec, type RunSpec } from './allowlist.js';
import { gate, quoteForReason } from './gate.js';

type Case = readonly [title: string, command: string, subargs: unknown];
type DenyCase = readonly [title: string, command: string, subargs: unknown, reason: RegExp];

/** Every allowed command form of the real CLI (shared/reference/chainlesschain-cli.md). */
const allowed: Case[] = [
  ['note list', 'note', ['list']],
  ['note list --limit 10', 'note', ['list', '--limit', '10']],
  ['note list --limit=10', 'note', ['list', '--limit=10']],
  ['note list -n 10 (short alias, split)', 'note', ['list', '-n', '10']],
  ['note list --limit 1 (lower bound)', 'note', ['list', '--limit', '1']],
  ['note list --limit 100 (upper bound)', 'note', ['list', '--limit', '100']],
  ['note list with every filter', 'note', ['list', '--category', 'work', '--tag', 'design', '--json']],
  ['note list --category=<CJK>', 'note', ['list', '--category=工作笔记']],
  ['note list flags in any order', 'note', ['list', '--json', '--limit', '5']],
  ['note show <prefix>', 'note', ['show', 'd4f0']],
  ['note show <uuid> --json', 'note', ['show', 'd4f00559-9d26-42cf-b666-33a796817eb4', '--json']],
  ['note show --json <prefix> (flag first)', 'note', ['show', '--json', 'd4f0']],
  ['search <query>', 'search', ['RAG']],
  ['search <CJK query with spaces>', 'search', ['我的 RAG 笔记']],
  ['search with every flag', 'search', ['RAG', '--mode', 'bm25', '--top-k', '50', '--threshold', '0.5', '--json']],
  ['search --top-k=1 <query> (flag first)', 'search', ['--top-k=1', 'gateway']],
  ['search --threshold=12.25', 'search', ['x', '--threshold=12.25']],
  ['search --mode vector', 'search', ['x', '--mode', 'vector']],
  ['search query with quotes and glob stays a literal', 'search', ['"quoted" n*te?']],
  ['search query that looks like a path stays a literal', 'search', ['/etc/passwd']],
  ['search query with = and :', 'search', ['a=b: c']],
  ['memory show', 'memory', ['show']],
  ['memory list -n 5 --category general --json', 'memory', ['list', '-n', '5', '--category', 'general', '--json']],
  ['skill list', 'skill', ['list']],
  [
    'skill list with every flag (9 args)',
    'skill',
    ['list', '--runnable', '--source', 'bundled', '--category', 'dev', '--tag', 'git', '--json'],
  ],
  ['status', 'status', []],
  ['status --json --deep', 'status', ['--json', '--deep']],
  ['session list', 'session', ['list']],
  ['session list -n 100 --json', 'session', ['list', '-n', '100', '--json']],
  ['mcp list', 'mcp', ['list']],
  ['mcp list with every flag', 'mcp', ['list', '--json', '--mode', 'local', '--scope', 'project', '--all-scopes']],
  ['did list', 'did', ['list']],
  ['did list --json', 'did', ['list', '--json']],
  ['did show <did>', 'did', ['show', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK']],
  ['did show <prefix> --json', 'did', ['show', 'did:chain', '--json']],
];

/** The seed's V1 allowlist got these wrong; the real CLI rejects them with exit 1 (README item 3). */
const realCliMismatches: DenyCase[] = [
  [
    'search --limit (search has --top-k)',
    'search',
    ['RAG', '--limit', '5'],
    /unknown flag --limit for 'search'; allowed: --mode, --top-k, --threshold, --json/,
  ],
  ['search --limit=5', 'search', ['RAG', '--limit=5'], /unknown flag --limit/],
  ['search -n 5', 'search', ['RAG', '-n', '5'], /unknown flag -n/],
  [
    'note view (no such subcommand)',
    'note',
    ['view', 'abc'],
    /unknown subcommand 'view' for 'note'; allowed: list, show/,
  ],
  ['note show --id (no such flag)', 'note', ['show', '--id', 'abc'], /unknown flag --id for 'note show'/],
  ['note list --id', 'note', ['list', '--id', 'abc'], /unknown flag --id/],
  ['note list --json=true (bool takes no value)', 'note', ['list', '--json=true'], /flag --json takes no value/],
  ['status --json=false', 'status', ['--json=false'], /takes no value/],
  ['skill list --limit (no limit flag)', 'skill', ['list', '--limit', '5'], /unknown flag --limit for 'skill list'/],
  ['mcp list --limit (no limit flag)', 'mcp', ['list', '--limit', '5'], /unknown flag --limit/],
  ['mcp list -n 5', 'mcp', ['list', '-n', '5'], /unknown flag -n/],
  ['did show without its required argument', 'did', ['show'], /'did show' needs <did>/],
  ['did show (seed form) with no did', 'did', ['show', '--json'], /needs <did>/],
  ['memory show <id> (the CLI ignores it; we refuse)', 'memory', ['show', 'mem-1796'], /takes no positional arguments/],
  ['memory without a subcommand', 'memory', [], /'memory' needs a subcommand: show, list/],
  ['note list <extra positional>', 'note', ['list', 'extra'], /takes no positional arguments/],
  ['status list', 'status', ['list'], /'status' takes no positional arguments/],
];

/** Write commands of the reference that must never pass. */
const writeCommands: DenyCase[] = [
  ['note add', 'note', ['add', 'x'], /unknown subcommand 'add'/],
  ['note delete --all', 'note', ['delete', '--all'], /unknown subcommand 'delete'/],
  ['note revert', 'note', ['revert', 'x', '1'], /unknown subcommand 'revert'/],
  ['memory add', 'memory', ['add', 'x'], /unknown subcommand 'add'/],
  ['memory clear', 'memory', ['clear'], /unknown subcommand 'clear'/],
  ['skill install', 'skill', ['install', 'x'], /unknown subcommand 'install'/],
  ['did create', 'did', ['create'], /unknown subcommand 'create'/],
  ['mcp add', 'mcp', ['add', 'x'], /unknown subcommand 'add'/],
  ['mcp servers (alias not allowlisted)', 'mcp', ['servers'], /unknown subcommand 'servers'/],
  [
    'ask',
    'ask',
    ['hi'],
    /command 'ask' is not allowed; allowed: note, search, memory, skill, status, session, mcp, did/,
  ],
  ['chat', 'chat', [], /command 'chat' is not allowed/],
  ['agent', 'agent', [], /not allowed/],
  ['ui', 'ui', [], /not allowed/],
];

const NUL = String.fromCharCode(0);

/** shared/reference/llm-providers.md: the starter corpus of hostile arguments, one case each. */
const hostileCorpus: DenyCase[] = [
  ['--output=/etc/passwd', 'note', ['list', '--output=/etc/passwd'], /unknown flag --output/],
  [
    '-c core.pager=sh',
    'note',
    ['list', '-c', 'core.pager=sh'],
    /'-c' starts with '-' but is not a flag|unknown flag -c/,
  ],
  ['--pre=sh', 'search', ['x', '--pre=sh'], /unknown flag --pre/],
  ['-exec rm {} ;', 'search', ['-exec', 'rm', '{}', ';'], /forbidden character ';'/],
  ['x;id', 'search', ['x;id'], /forbidden character ';'/],
  ['x&&id', 'search', ['x&&id'], /forbidden character '&'/],
  ['x|id', 'search', ['x|id'], /forbidden character '\|'/],
  ['a newline inside an argument', 'search', ['x\nid'], /forbidden character U\+000A/],
  ['a carriage return inside an argument', 'search', ['x\rid'], /forbidden character U\+000D/],
  ['$(id)', 'search', ['$(id)'], /forbidden character '\$'/],
  ['a backtick pair', 'search', ['`id`'], /forbidden character '`'/],
  ['> redirection', 'search', ['x>/tmp/y'], /forbidden character '>'/],
  ['< redirection', 'search', ['x</etc/passwd'], /forbidden character '<'/],
  ['quoted command name "note"', '"note"', ['list'], /command '"note"' is not ASCII lower-case kebab \(U\+0022 at 1\)/],
  ['globbed command name n*te', 'n*te', ['list'], /not ASCII lower-case kebab/],
  ['path-qualified ./note', './note', ['list'], /not ASCII lower-case kebab/],
  ['path-qualified /tmp/x/note', '/tmp/x/note', ['list'], /not ASCII lower-case kebab/],
  ['--eval', 'note', ['list', '--eval', 'process.exit()'], /unknown flag --eval/],
  ['-e', 'note', ['list', '-e', 'x'], /-e/],
  ['--config /tmp/x', 'note', ['list', '--config', '/tmp/x'], /unknown flag --config/],
  ['--base-url http://x', 'search', ['x', '--base-url', 'http://x'], /unknown flag --base-url/],
  ['a positional value starting with -', 'note', ['show', '-d4f0'], /starts with '-' but is not a flag/],
  ['-- followed by a flag', 'note', ['list', '--', '--json'], /bare '--' is not allowed/],
  ['-- before a positional', 'search', ['--', '-x'], /bare '--'/],
  ['homoglyph command nоte (Cyrillic о)', 'n\u043ete', ['list'], /U\+043E at 2/],
  [
    'homoglyph flag --lіmit (Cyrillic і)',
    'note',
    ['list', '--l\u0456mit', '5'],
    /flag '--l\u0456mit' is not ASCII lower-case kebab \(U\+0456 at 4\)/,
  ],
  ['homoglyph subcommand lіst', 'note', ['l\u0456st'], /subcommand 'l\u0456st' is not ASCII/],
  ['fullwidth command ｎｏｔｅ', '\uff4e\uff4f\uff54\uff45', ['list'], /not ASCII lower-case kebab \(U\+FF4E at 1\)/],
  ['zero-width space in the command', 'no\u200bte', ['list'], /U\+200B/],
  ['zero-width joiner in an argument', 'search', ['RA\u200dG'], /forbidden character U\+200D/],
  ['BiDi override in an argument', 'search', ['abc\u202Etxt.exe'], /forbidden character U\+202E/],
  ['BiDi isolate in an argument', 'search', ['\u2066x\u2069'], /forbidden character U\+2066/],
  ['fullwidth －－limit', 'note', ['list', '\uff0d\uff0dlimit', '5'], /non-ASCII dash \(U\+FF0D\)/],
  ['fullwidth －－limit as a search query', 'search', ['\uff0d\uff0dlimit'], /non-ASCII dash/],
  ['--limit=-1', 'note', ['list', '--limit=-1'], /--limit expects a whole number from 1 to 100, got '-1'/],
  ['--limit -1 (split)', 'note', ['list', '--limit', '-1'], /expects a whole number/],
  ['--limit=1e9', 'note', ['list', '--limit=1e9'], /got '1e9'/],
  ['--limit=0x10', 'note', ['list', '--limit=0x10'], /got '0x10'/],
  ['--limit= 5', 'note', ['list', '--limit= 5'], /leading or trailing whitespace/],
  [
    '--limit 5 with trailing space',
    'note',
    ['list', '--limit', '5 '],
    /subargs\[2\] has leading or trailing whitespace/,
  ],
  ['-n5 (attached short value)', 'note', ['list', '-n5'], /write -n and its value as two arguments/],
  ['-n=5', 'note', ['list', '-n=5'], /two arguments/],
  [
    'a repeated flag whose second value is out of range',
    'note',
    ['list', '--limit', '5', '--limit', '500'],
    /flag --limit is given more than once/,
  ],
  ['a repeated flag via its short alias', 'note', ['list', '-n', '5', '--limit', '6'], /given more than once/],
  ['a repeated bool flag', 'note', ['list', '--json', '--json'], /given more than once/],
  ['trailing spaces', 'note', ['list '], /has leading or trailing whitespace/],
  ['a trailing tab', 'search', ['RAG\t'], /forbidden character U\+0009/],
  ['a leading space', 'search', [' RAG'], /leading or trailing whitespace/],
  ['a trailing ideographic space', 'search', ['RAG\u3000'], /leading or trailing whitespace/],
  ['$OPENAI_API_KEY', 'search', ['$OPENAI_API_KEY'], /forbidden character '\$'/],
  ['a NUL byte', 'search', [`x${NUL}y`], /forbidden character U\+0000/],
  ['a 10 kB argument', 'search', ['a'.repeat(10_240)], /too long \(10240 > 256 characters\)/],
  [
    'one argument over the maximum count',
    'skill',
    Array.from({ length: MAX_SUBARGS + 1 }, () => 'list'),
    /too many arguments \(13 > 12\)/,
  ],
  ['subargs sent as a string', 'note', 'list --limit 10', /subargs must be an array of strings, got string/],
  ['subargs sent as a JSON string of an array', 'note', '["list"]', /must be an array/],
];

/** More edges of types, ranges, names and characters. */
const edges: DenyCase[] = [
  ['subargs null', 'note', null, /got null/],
  ['subargs an object', 'note', { 0: 'list' }, /got object/],
  ['subargs a number', 'status', 3, /got number/],
  ['subargs with a number item', 'note', ['list', '--limit', 10], /subargs\[2\] must be a string, got number/],
  ['subargs with a nested array', 'note', [['list']], /subargs\[0\] must be a string, got an array/],
  ['an empty argument', 'note', ['list', ''], /subargs\[1\] is empty/],
  ['--limit=', 'note', ['list', '--limit='], /--limit needs a value/],
  ['--limit at the end without its value', 'note', ['list', '--limit'], /--limit needs a value/],
  ['--limit followed by a flag', 'note', ['list', '--limit', '--json'], /expects a whole number/],
  ['--limit 0 (the CLI would turn it into 20)', 'note', ['list', '--limit', '0'], /from 1 to 100/],
  ['--limit 101', 'note', ['list', '--limit', '101'], /from 1 to 100, got '101'/],
  ['--limit 05 (not canonical)', 'note', ['list', '--limit', '05'], /got '05'/],
  ['--limit 5.0', 'note', ['list', '--limit', '5.0'], /got '5.0'/],
  ['--limit +5', 'note', ['list', '--limit', '+5'], /got '\+5'/],
  ['--limit with a huge number', 'note', ['list', '--limit', '99999999999999999999'], /expects a whole number/],
  ['--limit with fullwidth digits', 'note', ['list', '--limit', '\uff15'], /expects a whole number/],
  ['--top-k 51', 'search', ['x', '--top-k', '51'], /--top-k expects a whole number from 1 to 50/],
  ['--threshold 1e-3', 'search', ['x', '--threshold', '1e-3'], /--threshold expects a number from 0 to 100/],
  ['--threshold .5', 'search', ['x', '--threshold', '.5'], /got '\.5'/],
  ['--threshold 101', 'search', ['x', '--threshold', '101'], /from 0 to 100/],
  ['--threshold=-0.5', 'search', ['x', '--threshold=-0.5'], /from 0 to 100/],
  [
    '--mode outside the enum',
    'search',
    ['x', '--mode', 'fuzzy'],
    /--mode must be one of bm25, vector, hybrid, got 'fuzzy'/,
  ],
  ['--mode in the wrong case', 'search', ['x', '--mode', 'BM25'], /must be one of/],
  [
    '--source outside the enum',
    'skill',
    ['list', '--source', 'internet'],
    /--source must be one of bundled, marketplace, managed, workspace/,
  ],
  [
    '--category value too long',
    'note',
    ['list', '--category', 'c'.repeat(65)],
    /value of --category is too long \(65 > 64\)/,
  ],
  [
    '--category value starting with -',
    'note',
    ['list', '--category', '-x'],
    /value of --category must not start with a dash/,
  ],
  ['--category=--json', 'note', ['list', '--category=--json'], /must not start with a dash/],
  ['--tag value with an em dash first', 'note', ['list', '--tag', '\u2014x'], /must not start with a dash/],
  [
    'search with two positionals',
    'search',
    ['RAG', 'notes'],
    /takes <query> only \(extra 'notes'\); put a whole query in one argument/,
  ],
  ['search without a query', 'search', ['--json'], /'search' needs <query>/],
  ['search query over 200 characters', 'search', ['q'.repeat(201)], /<query> is too long \(201 > 200\)/],
  ['note show id with a LIKE wildcard', 'note', ['show', '%'], /<id-prefix> must be one token/],
  ['note show id with a space', 'note', ['show', 'a b'], /must be one token/],
  ['note show id in CJK', 'note', ['show', '笔记'], /must be one token/],
  ['uppercase command', 'Note', ['list'], /\(U\+004E at 1\)/],
  ['uppercase subcommand', 'note', ['LIST'], /subcommand 'LIST' is not ASCII/],
  ['uppercase flag', 'note', ['list', '--JSON'], /flag '--JSON' is not ASCII lower-case kebab/],
  ['an unknown short flag', 'note', ['list', '-x'], /unknown flag -x for 'note list'/],
  ['combined short flags -nj', 'note', ['list', '-nj'], /two arguments/],
  ['a lone dash', 'search', ['-'], /'-' starts with '-' but is not a flag/],
  ['---triple dash', 'note', ['list', '---json'], /not ASCII lower-case kebab/],
  ['--=x', 'note', ['list', '--=x'], /not ASCII lower-case kebab/],
  ['a negated flag --no-json', 'note', ['list', '--no-json'], /unknown flag --no-json/],
  ['--help', 'note', ['list', '--help'], /unknown flag --help/],
  [
    'a flag before the subcommand',
    'note',
    ['--json', 'list'],
    /needs its subcommand first \(list, show\), before any flag/,
  ],
  ['an empty command', '', ['list'], /command '' is not ASCII/],
  ['a command with a trailing space', 'note ', ['list'], /not ASCII lower-case kebab/],
  ['a command over 64 characters', 'a'.repeat(65), [], /not ASCII lower-case kebab/],
  ['a line separator U+2028', 'search', ['a\u2028b'], /U\+2028/],
  ['a paragraph separator U+2029', 'search', ['a\u2029b'], /U\+2029/],
  ['the replacement character U+FFFD', 'search', ['a\ufffdb'], /U\+FFFD/],
  ['a lone surrogate', 'search', ['a\ud800'], /U\+D800/],
  ['a private-use character', 'search', ['a\ue000'], /U\+E000/],
  ['a tag character (Cf, astral)', 'search', ['a\u{E0041}'], /U\+E0041/],
  ['the Arabic letter mark (Cf)', 'search', ['a\u061cb'], /U\+061C/],
  ['a byte-order mark (Cf)', 'search', ['\ufeffRAG'], /U\+FEFF/],
  ['DEL (Cc)', 'search', ['a\u007fb'], /U\+007F/],
  ['a C1 control NEL (Cc)', 'search', ['a\u0085b'], /U\+0085/],
  ['an escape sequence', 'search', ['\u001b[31mred'], /U\+001B/],
];

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
    ['hostile corpus', hostileCorpus],
    ['edge', edges],
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

  it('never expands $OPENAI_API_KEY: the reason carries the literal, not the value', () => {
    const secret = 'sk-test-value-that-must-not-appear';
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = secret;
    try {
      const decision = gate('search', ['$OPENAI_API_KEY']);
      expect(decision.allow).toBe(false);
      expect(JSON.stringify(decision)).not.toContain(secret);
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  it('denies a non-string command instead of throwing', () => {
    expect(gate(42 as unknown as string, [])).toEqual({ allow: false, reason: 'command must be a string, got number' });
  });

  it('denies when reading the arguments throws (a hostile getter)', () => {
    const hostile = new Proxy(['list'], {
      get(target, key, receiver) {
        if (key === '0') throw new Error('boom');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(gate('note', hostile)).toEqual({ allow: false, reason: 'arguments could not be read' });
  });

  it('checks the argument count before looking at any argument', () => {
    const decision = gate(
      'note',
      Array.from({ length: MAX_SUBARGS + 1 }, () => 'a'.repeat(10_000)),
    );
    expect(decision.allow === false && decision.reason).toMatch(/too many arguments/);
  });

  it('quotes reasons with invisible characters escaped and long values cut', () => {
    expect(quoteForReason('a\u202eb\nc')).toBe("'a\\u{202E}b\\u{000A}c'");
    expect(quoteForReason('x'.repeat(50))).toBe(`'${'x'.repeat(40)}…'`);
    const decision = gate('search', [`-${'\u200b'.repeat(3)}`]);
    expect(decision.allow).toBe(false);
    if (!decision.allow) expect(decision.reason).not.toMatch(/[\u200b]/);
  });
});

describe('gate: nested namespaces (forward compatibility, seed §0.4)', () => {
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
