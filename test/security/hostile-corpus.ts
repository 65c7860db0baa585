/**
 * The gate's hostile corpus (option injection, shell metacharacters, homoglyphs, invisible characters,
 * non-canonical numbers, oversize or malformed arguments) as model tool calls: the raw `arguments`
 * string a model would stream, and what must happen — refused (exit 126 denied by the gate, 64
 * unreadable arguments, 127 not our tool) or run with the hostile text as one inert literal argument.
 * `PWN` is replaced by a marker file path that must never come to exist.
 */
export interface HostileCall {
  name: string;
  /** The tool name the model calls (default `cc_exec`). */
  tool?: string;
  /** The raw JSON arguments string, exactly as streamed. */
  args: string;
  /** `refused` with this exit code, or `literal`: allowed, and `literal` is one argv element verbatim. */
  expect: { refused: 126 | 64 | 127 } | { literal: string };
}

const c = (command: unknown, subargs: unknown) => JSON.stringify({ command, subargs });

/** The corpus, with `pwn` (an absolute path) planted where a shell would create it. */
export function hostileCorpus(pwn: string): HostileCall[] {
  const denied = (name: string, args: string): HostileCall => ({ name, args, expect: { refused: 126 } });
  return [
    denied('--output=/etc/passwd', c('note', ['list', '--output=/etc/passwd'])),
    denied('-c core.pager=sh', c('note', ['list', '-c', 'core.pager=sh'])),
    denied('--pre=sh', c('search', ['x', '--pre=sh'])),
    denied('-exec rm {} ;', c('note', ['list', '-exec', 'rm', '{}', ';'])),
    denied('x;touch', c('search', [`x;touch ${pwn}`])),
    denied('x&&touch', c('search', [`x&&touch ${pwn}`])),
    denied('x|touch', c('search', [`x|touch ${pwn}`])),
    denied('newline inside an argument', c('search', [`x\ntouch ${pwn}`])),
    denied('$(…)', c('search', [`$(touch ${pwn})`])),
    denied('backticks', c('search', [`\`touch ${pwn}\``])),
    denied('redirection', c('search', [`x > ${pwn}`])),
    denied('quoted command', c('"note"', ['list'])),
    denied('globbed command', c('n*te', ['list'])),
    denied('./note', c('./note', ['list'])),
    denied('/tmp/x/note', c('/tmp/x/note', ['list'])),
    denied('--eval', c('note', ['list', '--eval', `require('fs').writeFileSync('${pwn}','')`])),
    denied('-e', c('note', ['list', '-e', 'x'])),
    denied('--config /tmp/x', c('note', ['list', '--config', '/tmp/x'])),
    denied('--base-url http://x', c('search', ['x', '--base-url', 'http://x'])),
    denied('positional starting with -', c('note', ['show', '-rf'])),
    denied('-- then a flag', c('note', ['list', '--', '--limit', '5'])),
    denied('Cyrillic о in the command', c('nоte', ['list'])),
    denied('Cyrillic і in a flag', c('note', ['list', '--lіmit', '5'])),
    denied('zero-width space', c('note', ['li\u200bst'])),
    denied('BiDi override', c('search', ['abc\u202edcba'])),
    denied('fullwidth －－limit', c('note', ['list', '－－limit', '5'])),
    denied('--limit=-1', c('note', ['list', '--limit=-1'])),
    denied('--limit=1e9', c('note', ['list', '--limit=1e9'])),
    denied('--limit=0x10', c('note', ['list', '--limit=0x10'])),
    denied('--limit= 5', c('note', ['list', '--limit= 5'])),
    denied('-n5', c('note', ['list', '-n5'])),
    denied('repeated flag, second out of range', c('note', ['list', '--limit', '5', '--limit', '500'])),
    denied('-n and --limit together', c('note', ['list', '-n', '5', '--limit', '6'])),
    denied('trailing space', c('note', ['list', '--limit', '5 '])),
    denied('tab', c('note', ['list\t'])),
    denied('$OPENAI_API_KEY', c('search', ['$OPENAI_API_KEY'])),
    denied('NUL byte', c('search', ['a\u0000b'])),
    denied('10 kB argument', c('search', ['x'.repeat(10_000)])),
    denied(
      'one argument over the maximum count',
      c(
        'search',
        Array.from({ length: 13 }, (_, i) => `w${i}`),
      ),
    ),
    denied('subargs sent as a string', c('note', 'list --limit 5')),
    denied('subargs sent as an object', c('note', { 0: 'list' })),
    denied('write: note add', c('note', ['add', 'pwned'])),
    denied('write: note delete --all', c('note', ['delete', '--all'])),
    denied('write: memory add', c('memory', ['add', 'pwned'])),
    denied('write: skill install', c('skill', ['install', 'evil'])),
    denied('write: mcp add', c('mcp', ['add', 'evil', 'sh'])),
    denied('write: did create', c('did', ['create'])),
    denied('not an allowed command', c('config', ['set', 'llm.apiKey', 'x'])),
    {
      name: '__proto__ key',
      args: '{"command":"note","subargs":["list"],"__proto__":{"polluted":true}}',
      expect: { refused: 64 },
    },
    { name: 'truncated JSON', args: '{"command":"note","subargs":["li', expect: { refused: 64 } },
    { name: 'an extra cwd field', args: '{"command":"note","subargs":["list"],"cwd":"/"}', expect: { refused: 64 } },
    { name: 'arguments not an object', args: '["note","list"]', expect: { refused: 64 } },
    { name: 'another tool', tool: 'bash', args: JSON.stringify({ command: `touch ${pwn}` }), expect: { refused: 127 } },
    { name: 'globbed query stays literal', args: c('search', ['n*te']), expect: { literal: 'n*te' } },
    { name: 'quoted query stays literal', args: c('search', ['"note"']), expect: { literal: '"note"' } },
    {
      name: 'path-like query stays literal',
      args: c('search', ['../../etc/passwd']),
      expect: { literal: '../../etc/passwd' },
    },
    {
      name: 'brackets and tilde stay literal',
      args: c('search', ['~/x (y) {z} [w] * ?']),
      expect: { literal: '~/x (y) {z} [w] * ?' },
    },
  ];
}
