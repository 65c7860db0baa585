import {
  ALLOWLIST,
  MAX_ARG_LENGTH,
  MAX_SUBARGS,
  listRunnable,
  type CmdSpec,
  type FlagSpec,
  type PositionalSpec,
  type RunnableCommand,
} from './allowlist.js';

/** The name the model calls; the dispatcher answers any other name with exit code 127. */
export const CC_EXEC_TOOL_NAME = 'cc_exec';

/**
 * JSON Schema of the `cc_exec` arguments: `{ command: <enum>, subargs: string[] }`, nothing else.
 * A type alias (not an interface) so it is assignable to index-signature schema types such as the
 * providers' canonical `JSONSchema`.
 */
export type CcExecParametersSchema = {
  readonly type: 'object';
  readonly properties: {
    readonly command: { readonly type: 'string'; readonly enum: string[]; readonly description: string };
    readonly subargs: {
      readonly type: 'array';
      readonly items: { readonly type: 'string'; readonly minLength: 1; readonly maxLength: number };
      readonly maxItems: number;
      readonly description: string;
    };
  };
  readonly required: ['command', 'subargs'];
  readonly additionalProperties: false;
};

/**
 * The canonical, provider-neutral `cc_exec` tool: `{ name, description, parameters }`. One generic tool
 * rather than one per command: cheaper in tokens on every request, and easier for the model to pick.
 * Each provider converts it to its wire shape (OpenAI `function`, Anthropic `input_schema`).
 */
export interface CcExecToolDescriptor {
  readonly name: typeof CC_EXEC_TOOL_NAME;
  readonly description: string;
  readonly parameters: CcExecParametersSchema;
}

/**
 * Builds the `cc_exec` tool from the allowlist data: the `command` enum is the
 * top-level command names and the description lists every runnable command path with its real flags,
 * ranges and injected defaults — generated, never hand-written, so adding a `CmdSpec` (say
 * `hub wechat search`) changes the tool with no prompt edits.
 *
 * @example
 *   buildCcExecTool().parameters.properties.command.enum // ['note', 'search', 'memory', 'skill', 'status', 'session', 'mcp', 'did']
 */
export function buildCcExecTool(allowlist: readonly CmdSpec[] = ALLOWLIST): CcExecToolDescriptor {
  const runnable = listRunnable(allowlist);
  return {
    name: CC_EXEC_TOOL_NAME,
    description: describe(runnable),
    parameters: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          enum: allowlist.map((c) => c.name),
          description: 'The first word of the ChainlessChain command.',
        },
        subargs: {
          type: 'array',
          items: { type: 'string', minLength: 1, maxLength: MAX_ARG_LENGTH },
          maxItems: MAX_SUBARGS,
          description: `The rest of the command, one argument per item: subcommand first, then flags and values${example(runnable)}. Send [] when there is nothing to add.`,
        },
      },
      required: ['command', 'subargs'],
      additionalProperties: false,
    },
  };
}

function describe(runnable: readonly RunnableCommand[]): string {
  const lines = [
    "Run one read-only query of the ChainlessChain CLI on the user's own device and get its output back (exit code, duration, stdout, stderr).",
    'It cannot add, change, delete or install anything. There is no shell: each subargs item is passed as one literal argument, so quoting, globbing, pipes and variables do nothing.',
    'Put subcommand words first, then flags. A flag value is the next item or --flag=value; boolean flags take no value; each flag at most once. Long output is cut to 4 KB.',
    'Allowed commands:',
    ...runnable.map(describeCommand),
    'A call outside this list is not run: it returns exit code 126 with the reason.',
  ];
  return lines.join('\n');
}

function describeCommand(cmd: RunnableCommand): string {
  const usage = [...cmd.path, ...cmd.run.positionals.map(usagePositional), ...cmd.run.flags.map(usageFlag)].join(' ');
  const limit = cmd.run.defaultLimit;
  const added = limit ? ` ${limit.flag.name} ${limit.value} is added when absent.` : '';
  return `- ${usage} — ${cmd.summary}${added}`;
}

function usagePositional(p: PositionalSpec): string {
  return p.required ? `<${p.name}>` : `[<${p.name}>]`;
}

function usageFlag(f: FlagSpec): string {
  const names = f.short ? `${f.short}|${f.name}` : f.name;
  const t = f.type;
  switch (t.kind) {
    case 'bool':
      return `[${names}]`;
    case 'int':
    case 'decimal':
      return `[${names} <${t.min}-${t.max}>]`;
    case 'enum':
      return `[${names} ${t.values.join('|')}]`;
    case 'string':
      return `[${names} <text≤${t.maxLen}>]`;
  }
}

/** `, e.g. ["list","--limit","10"] for command "note"` from the first runnable command, or nothing. */
function example(runnable: readonly RunnableCommand[]): string {
  const first = runnable[0];
  if (!first) return '';
  const limit = first.run.defaultLimit;
  const subargs = [...first.path.slice(1), ...(limit ? [limit.flag.name, String(Math.min(10, limit.value))] : [])];
  return `, e.g. ${JSON.stringify(subargs)} for command "${first.path[0]}"`;
}
