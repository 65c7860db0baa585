import path from 'node:path';

/** A permission rule in Claude Code's syntax: `Read`, `Bash(npm test:*)`, `Edit(src/**)`. */
export interface ParsedRule {
  tool: string;
  /** What is inside the parentheses; absent = every use of the tool. */
  content?: string;
}

/** One tool call to check against rules. */
export interface ToolCall {
  toolName: string;
  input: Record<string, unknown>;
  /** The run's working directory (relative path rules are relative to it). */
  cwd: string;
  /** For `~/…` path rules. */
  home: string;
}

const RULE = /^([A-Za-z0-9_*-]+)(?:\((.*)\))?$/s;

/**
 * Parses `Tool` or `Tool(content)`; null for anything else (empty, unbalanced, spaces in the name).
 *
 * @example parseRule('Bash(npm test:*)') // { tool: 'Bash', content: 'npm test:*' }
 */
export function parseRule(rule: string): ParsedRule | null {
  const m = RULE.exec(rule.trim());
  if (!m || !m[1]) return null;
  const content = m[2];
  if (content === undefined) return { tool: m[1] };
  if (content.trim().length === 0) return null;
  return { tool: m[1], content };
}

/** The rule string of a parsed rule. */
export function formatRule(rule: ParsedRule): string {
  return rule.content === undefined ? rule.tool : `${rule.tool}(${rule.content})`;
}

/**
 * The "allow" rules a permission prompt suggests, as rule strings, in the order given —
 * `canUseTool`'s `suggestions` hold `{ type: 'addRules', behavior: 'allow', rules: [{ toolName,
 * ruleContent }] }` entries (plus `setMode` / `addDirectories`, which are not rules).
 *
 * @example suggestionRules([{ type: 'addRules', behavior: 'allow', rules: [{ toolName: 'Bash', ruleContent: 'touch f *' }] }]) // ['Bash(touch f *)']
 */
export function suggestionRules(suggestions: unknown): string[] {
  if (!Array.isArray(suggestions)) return [];
  const out: string[] = [];
  for (const s of suggestions) {
    if (typeof s !== 'object' || s === null) continue;
    const { type, behavior, rules } = s as { type?: unknown; behavior?: unknown; rules?: unknown };
    if (type !== 'addRules' || (behavior !== undefined && behavior !== 'allow') || !Array.isArray(rules)) continue;
    for (const r of rules) {
      if (typeof r !== 'object' || r === null) continue;
      const { toolName, ruleContent } = r as { toolName?: unknown; ruleContent?: unknown };
      if (typeof toolName !== 'string' || toolName.length === 0) continue;
      const rule = typeof ruleContent === 'string' && ruleContent.length > 0 ? `${toolName}(${ruleContent})` : toolName;
      if (parseRule(rule) && !out.includes(rule)) out.push(rule);
    }
  }
  return out;
}

/** Shell syntax after which a prefix rule no longer says what will run (`npm test && rm -rf ~`). */
const SHELL_CONTROL = /[;&|`<>\n\r]|\$\(/;

/**
 * Whether `rule` covers `call`, following Claude Code's rule syntax closely enough for an allow
 * list, and erring on "no" (which only means the user is asked):
 * - `Tool` — every use of the tool; `mcp__server` — every tool of that MCP server; `*` in a tool
 *   name is a wildcard;
 * - `Bash(prefix:*)` — the command is `prefix` or starts with `prefix `; `Bash(touch f *)` —
 *   `*` matches anything (a trailing ` *` also matches nothing); other content must equal the
 *   command. Commands with shell control operators (`;`, `&&`, `|`, `>`, `$(`…) match only an
 *   exact rule, never a prefix or a wildcard;
 * - `Read|Edit|Write|NotebookEdit|Glob|Grep(glob)` — the target path against a glob (`**`, `*`,
 *   `?`); `./x` and `x` are relative to the run's cwd, `~/x` to home, `/x` and `//x` absolute;
 * - `WebFetch(domain:example.com)` — that host or its subdomains;
 * - any other content — no match.
 */
export function matchesRule(rule: string | ParsedRule, call: ToolCall): boolean {
  const parsed = typeof rule === 'string' ? parseRule(rule) : rule;
  if (!parsed || !toolMatches(parsed.tool, call.toolName)) return false;
  if (parsed.content === undefined) return true;
  if (call.toolName === 'Bash') return bashMatches(parsed.content, call.input.command);
  if (PATH_TOOLS.has(call.toolName)) return pathMatches(parsed.content, targetPath(call.input), call);
  if (call.toolName === 'WebFetch') return domainMatches(parsed.content, call.input.url);
  return false;
}

/** True when any of `rules` covers the call; returns the first rule that does. */
export function firstMatchingRule(rules: readonly string[], call: ToolCall): string | null {
  return rules.find((r) => matchesRule(r, call)) ?? null;
}

function toolMatches(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true;
  if (ruleTool.includes('*')) return wildcard(ruleTool, false).test(toolName);
  return ruleTool.startsWith('mcp__') && ruleTool.split('__').length === 2 && toolName.startsWith(`${ruleTool}__`);
}

function bashMatches(content: string, command: unknown): boolean {
  if (typeof command !== 'string') return false;
  const cmd = command.trim();
  if (cmd === content.trim()) return true;
  if (SHELL_CONTROL.test(cmd)) return false;
  if (content.endsWith(':*')) {
    const prefix = content.slice(0, -2).trim();
    return prefix.length > 0 && (cmd === prefix || cmd.startsWith(`${prefix} `));
  }
  if (content.includes('*')) return wildcard(content.trim(), true).test(cmd);
  return false;
}

const PATH_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep', 'LS']);

function targetPath(input: Record<string, unknown>): string | undefined {
  for (const key of ['file_path', 'notebook_path', 'path']) {
    const v = input[key];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

function pathMatches(content: string, target: string | undefined, call: ToolCall): boolean {
  if (target === undefined) return false;
  const file = path.resolve(call.cwd, target);
  let pattern: string;
  if (content.startsWith('//')) pattern = content.slice(1);
  else if (content.startsWith('~/')) pattern = path.join(call.home, content.slice(2));
  else if (content.startsWith('/')) pattern = content;
  else pattern = path.join(call.cwd, content);
  return globToRegExp(pattern).test(file);
}

function domainMatches(content: string, url: unknown): boolean {
  if (!content.startsWith('domain:') || typeof url !== 'string') return false;
  const domain = content.slice('domain:'.length).toLowerCase();
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === domain || host.endsWith(`.${domain}`);
  } catch {
    return false;
  }
}

const escapeRe = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** `*` → any characters; with `optionalTail`, a final ` *` also matches nothing. */
function wildcard(pattern: string, optionalTail: boolean): RegExp {
  let body = pattern;
  let tail = '';
  if (optionalTail && body.endsWith(' *')) {
    body = body.slice(0, -2);
    tail = '(?: .*)?';
  }
  return new RegExp(`^${body.split('*').map(escapeRe).join('.*')}${tail}$`, 's');
}

/** A path glob: `**` any depth, `*` within one segment, `?` one character. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      i += 1;
      if (glob[i + 1] === '/') {
        i += 1;
        re += '(?:.*/)?';
      } else {
        re += '.*';
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}
