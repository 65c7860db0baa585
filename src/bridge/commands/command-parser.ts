/**
 * Turns one chat message into a chat command. Pure: no I/O, no config — the handlers apply
 * `default_cwd`, directory safety and list snapshots. Channel-neutral, so Feishu and the web console
 * parse exactly alike. `accept()` parses each message once and stores the result with it; the
 * dispatcher runs the command later, in the user's arrival order.
 *
 * Rules:
 * - Only text whose first non-blank character is `/` (or the full-width `／` a Chinese IME types)
 *   is a command; anything else is plain text (`null`). A first word that is not a command-name
 *   shape (`/Users/me/x 是什么`, `/帮助`) is also plain text, so a message that starts with a path
 *   still reaches Claude.
 * - Command names are case-insensitive (`/HELP`, `/listdir`, `/listDir`).
 * - `/new`: the first standalone `--` splits the arguments; the left side is the cwd (all of it,
 *   spaces included, surrounding quotes removed) after taking out `--model <alias>` /
 *   `--model=<alias>` and `--agent <name>` / `--agent=<name>`; the right side is the first prompt
 *   (verbatim, newlines kept). Without `--` everything is the cwd.
 * - `/agent` shows the agents; `/agent <name>` makes `name` the user's default for `/new`
 *   (lower-cased; the handler checks it is configured).
 * - `/switch` and `/resume`: one to three digits are a list-snapshot index; anything else (including
 *   a longer all-digit string, which can only be a UUID prefix such as `81234567`) is a UUID prefix,
 *   lower-cased. A /list page never numbers past a few hundred, while an 8-digit all-numeric id
 *   prefix is a real case, so "digits = index" holds only up to three digits.
 * - `/allow`, `/deny`, `/always` answer a waiting permission prompt by text: an optional one to
 *   three digit index (1 = the oldest prompt, the default). Anything else after the word means the
 *   text is not an answer, and it reads as an unknown command.
 * - `/stop` takes nothing or `all`; `/queue` takes nothing (anything after it is ignored, like
 *   `/status`). Other words after `/stop` read as an unknown command, so nothing is stopped by a typo.
 * - Missing or malformed arguments give the `usage` variant naming the command, never a guess.
 */
export type ChatCommand =
  | { name: 'help' }
  | { name: 'list'; args: string }
  | { name: 'listDir'; path?: string }
  | { name: 'whoami' }
  | { name: 'status' }
  | { name: 'new'; cwd?: string; prompt?: string; model?: string; agent?: string }
  | { name: 'agent'; agent?: string }
  | { name: 'switch'; ref: ListRef }
  | { name: 'resume'; ref: ListRef }
  | { name: 'model'; arg?: { index: number } | { alias: string } | { clear: true } }
  | { name: 'search'; keyword: string }
  | { name: 'cc'; question: string }
  /** A typed answer to the user's `index`-th waiting permission prompt (1 = the oldest). */
  | { name: 'answer'; decision: PromptDecision; index: number }
  /** Stop the running turn of the current session, or (`all`) every running turn of the user. */
  | { name: 'stop'; all: boolean }
  /** What waits, per session. */
  | { name: 'queue' }
  | { name: 'unknown'; raw: string }
  /** A known command with missing or malformed arguments; the reply shows that command's usage. */
  | { name: 'usage'; command: UsageCommand; problem: UsageProblem };

/** A session reference: a number from the last `/list`, or the start of a session UUID. */
export type ListRef = { index: number } | { prefix: string };

/** How a permission prompt can be answered (the same three choices as its buttons). */
export type PromptDecision = 'allow' | 'deny' | 'always';

/** Commands that can be given wrong arguments. */
export type UsageCommand = 'new' | 'switch' | 'resume' | 'model' | 'search' | 'cc';

/** What was wrong, so the reply can say it precisely. */
export type UsageProblem = 'missing-argument' | 'missing-model-alias' | 'missing-agent-name' | 'unknown-option';

const NAMES: Record<string, ChatCommand['name']> = {
  help: 'help',
  list: 'list',
  listdir: 'listDir',
  whoami: 'whoami',
  status: 'status',
  new: 'new',
  switch: 'switch',
  resume: 'resume',
  model: 'model',
  search: 'search',
  cc: 'cc',
  allow: 'answer',
  deny: 'answer',
  always: 'answer',
  stop: 'stop',
  queue: 'queue',
  agent: 'agent',
  agents: 'agent',
};

/** Whether `word` (without its slash, any case) names a chat command: `new`, `stop`, `listDir` … */
export function isChatCommandWord(word: string): boolean {
  return Object.hasOwn(NAMES, word.toLowerCase());
}

/** Ordinary, full-width and no-break spaces all separate words in chat text. */
const SPACE = /[\s\u00a0\u3000]+/;
/** A list or prompt index: one to three digits. */
const INDEX = /^\d{1,3}$/;

/**
 * Parses a chat message. Returns `null` for plain text (to be routed to Claude by the target
 * snapshot), otherwise the command.
 *
 * @example
 *   parseChatCommand('/new ~/Git/x --model sonnet -- 梳理架构')
 *   // → { name: 'new', cwd: '~/Git/x', model: 'sonnet', prompt: '梳理架构' }
 *   parseChatCommand('/switch 2')    // → { name: 'switch', ref: { index: 2 } }
 *   parseChatCommand('/switch 8C4B') // → { name: 'switch', ref: { prefix: '8c4b' } }
 */
export function parseChatCommand(text: string): ChatCommand | null {
  const trimmed = text.replace(/^[\s\u00a0\u3000]+/, '');
  if (!trimmed.startsWith('/') && !trimmed.startsWith('／')) return null;
  const body = trimmed.slice(1);
  const match = /^([^\s\u00a0\u3000]*)([\s\S]*)$/.exec(body);
  const word = match?.[1] ?? '';
  const rest = (match?.[2] ?? '').replace(/^[\s\u00a0\u3000]+|[\s\u00a0\u3000]+$/g, '');
  if (word.length > 0 && !/^[A-Za-z][A-Za-z0-9_-]*$/.test(word)) return null;
  const name = NAMES[word.toLowerCase()];
  switch (name) {
    case 'help':
    case 'whoami':
    case 'status':
    case 'queue':
      return { name };
    case 'stop':
      if (rest === '' || rest.toLowerCase() === 'all') return { name: 'stop', all: rest !== '' };
      break;
    case 'list':
      return { name: 'list', args: rest };
    case 'agent': {
      const first = rest.split(SPACE)[0] ?? '';
      return first ? { name: 'agent', agent: first.toLowerCase() } : { name: 'agent' };
    }
    case 'listDir':
      return rest ? { name: 'listDir', path: unquote(rest) } : { name: 'listDir' };
    case 'new':
      return parseNew(rest);
    case 'switch':
    case 'resume': {
      const first = rest.split(SPACE)[0] ?? '';
      if (!first) return usage(name, 'missing-argument');
      return { name, ref: parseRef(first) };
    }
    case 'model':
      return parseModel(rest);
    case 'search':
      return rest ? { name: 'search', keyword: rest } : usage('search', 'missing-argument');
    case 'cc':
      return rest ? { name: 'cc', question: rest } : usage('cc', 'missing-argument');
    case 'answer':
      if (rest !== '' && !INDEX.test(rest)) break;
      return { name: 'answer', decision: word.toLowerCase() as PromptDecision, index: rest ? Number(rest) : 1 };
    default:
      break;
  }
  return { name: 'unknown', raw: trimmed.trim() };
}

/** `1`…`999` → index; anything else → lower-cased UUID prefix. */
export function parseRef(token: string): ListRef {
  if (INDEX.test(token)) return { index: Number(token) };
  return { prefix: token.toLowerCase() };
}

function parseNew(rest: string): ChatCommand {
  const split = /(^|[\s\u00a0\u3000])--(?=[\s\u00a0\u3000]|$)/.exec(rest);
  const left = split ? rest.slice(0, split.index) : rest;
  const prompt = split ? rest.slice(split.index + split[0].length).trim() : '';
  const tokens = left.split(SPACE).filter((t) => t.length > 0);
  const kept: string[] = [];
  const options: { model?: string; agent?: string } = {};
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as string;
    const option = /^--(model|agent)(?:=(.*))?$/i.exec(token);
    if (option) {
      const key = (option[1] as string).toLowerCase() as 'model' | 'agent';
      const value = option[2] ?? tokens[i + 1];
      if (option[2] === undefined) i += 1;
      if (!value || value.startsWith('--'))
        return usage('new', key === 'model' ? 'missing-model-alias' : 'missing-agent-name');
      options[key] = key === 'agent' ? value.toLowerCase() : value;
    } else if (token.startsWith('--')) {
      return usage('new', 'unknown-option');
    } else {
      kept.push(token);
    }
  }
  // Keep the user's spacing inside the cwd (paths may contain spaces): rebuild from the left side
  // only when an option had to be removed from it.
  const cwdText = options.model === undefined && options.agent === undefined ? left.trim() : kept.join(' ');
  const cwd = unquote(cwdText);
  const command: ChatCommand = { name: 'new' };
  if (cwd) command.cwd = cwd;
  if (prompt) command.prompt = prompt;
  if (options.model !== undefined) command.model = options.model;
  if (options.agent !== undefined) command.agent = options.agent;
  return command;
}

function parseModel(rest: string): ChatCommand {
  const first = rest.split(SPACE)[0] ?? '';
  if (!first) return { name: 'model' };
  if (first.toLowerCase() === '--clear') return { name: 'model', arg: { clear: true } };
  if (first.startsWith('--')) return usage('model', 'unknown-option');
  if (INDEX.test(first)) return { name: 'model', arg: { index: Number(first) } };
  return { name: 'model', arg: { alias: first } };
}

function usage(command: UsageCommand, problem: UsageProblem): ChatCommand {
  return { name: 'usage', command, problem };
}

/** Removes one pair of surrounding straight or curly quotes. */
function unquote(value: string): string {
  const v = value.trim();
  const pairs: Array<[string, string]> = [
    ['"', '"'],
    ["'", "'"],
    ['“', '”'],
    ['‘', '’'],
    ['「', '」'],
  ];
  for (const [open, close] of pairs) {
    if (v.length >= 2 && v.startsWith(open) && v.endsWith(close))
      return v.slice(open.length, v.length - close.length).trim();
  }
  return v;
}
