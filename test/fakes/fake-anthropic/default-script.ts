import type { Reply, ScriptRequest, ScriptToolResult } from './fake-anthropic-types.js';

/** Number of `tickNN ` pieces a `slow:` reply streams. */
export const SLOW_TICKS = 20;

function toolInput(name: string, args: string): object {
  if (args.startsWith('{')) return JSON.parse(args) as object;
  if (name === 'Bash') return { command: args };
  return {};
}

/** The AskUserQuestion input the CLI validates: 1 question, 2–4 options, header ≤ 12 chars. */
export function askUserQuestionInput(question: string, options: string[]): object {
  return {
    questions: [
      {
        question,
        header: 'Question',
        options: options.map((label) => ({ label, description: `Choose ${label}` })),
        multiSelect: false,
      },
    ],
  };
}

/**
 * The answers in the CLI's AskUserQuestion tool_result
 * (`Your questions have been answered: "Q1"="A1", "Q2"="A2". …`), joined with `, `;
 * the whole content when it has none (e.g. `The user did not answer the questions.`).
 */
function answerOf(result: ScriptToolResult): string {
  const answers = Array.from(result.content.matchAll(/"[^"]*"="([^"]*)"/g), (m) => m[1]);
  return answers.length > 0 ? answers.join(', ') : result.content;
}

function afterToolResults(results: ScriptToolResult[]): Reply {
  const lines = results.map((r) => {
    if (r.toolName === 'AskUserQuestion' && !r.is_error) return `answered: ${answerOf(r)}`;
    return `tool-result: ${r.is_error ? 'error' : 'ok'} ${r.content.slice(0, 200)}`;
  });
  return { text: lines.join('\n') };
}

/**
 * The default "model": a tiny command language read from the last user text (see README.md).
 *
 * | user text                        | reply                                                         |
 * |----------------------------------|---------------------------------------------------------------|
 * | `echo: <text>`                   | text `<text>`                                                 |
 * | `tool: Bash <command>`           | tool_use Bash `{command}`; on its result `tool-result: ok|error <first 200 chars>` |
 * | `tool: <Name> {json}`            | tool_use `<Name>` with that JSON input; same result reply     |
 * | `ask: <question> \| opt1 \| opt2` | tool_use AskUserQuestion; on its result `answered: <answer>`  |
 * | `slow: <ms>`                     | text `tick00 tick01 … tick19 ` streamed one tick per `<ms>`  |
 * | `hang: <ms>`                     | silence for `<ms>` before the response starts, then `hung: <ms>` |
 * | `think: <text>`                  | thinking block `<text>`, then text `thought: <text>`          |
 * | `fail: <status> <type> <msg>`    | HTTP `<status>` API error (avoid 429/5xx: the CLI retries them) |
 * | anything else                    | text `ok: <text>`                                             |
 */
export function defaultScript(req: ScriptRequest): Reply {
  if (req.lastUserToolResults.length > 0) return afterToolResults(req.lastUserToolResults);
  const text = req.lastUserText.trim();
  const cmd = /^(echo|tool|ask|slow|hang|think|fail):\s*([\s\S]*)$/.exec(text);
  const arg = cmd?.[2]?.trim() ?? '';
  switch (cmd?.[1]) {
    case 'echo':
      return { text: arg };
    case 'tool': {
      const [, name = '', rest = ''] = /^(\S+)\s*([\s\S]*)$/.exec(arg) ?? [];
      return { toolUse: { name, input: toolInput(name, rest.trim()) } };
    }
    case 'ask': {
      const [question = '', ...options] = arg.split('|').map((s) => s.trim());
      return { toolUse: { name: 'AskUserQuestion', input: askUserQuestionInput(question, options) } };
    }
    case 'slow': {
      const ticks = Array.from({ length: SLOW_TICKS }, (_, i) => `tick${String(i).padStart(2, '0')} `);
      return { text: ticks.join(''), chunkSize: 7, chunkDelayMs: Number(arg) || 100 };
    }
    case 'hang':
      return { text: `hung: ${arg}`, delayMs: Number(arg) || 0 };
    case 'think':
      return { thinking: arg, text: `thought: ${arg}` };
    case 'fail': {
      const [, status = '400', type = 'invalid_request_error', message = 'fake failure'] =
        /^(\d+)\s+(\S+)\s*([\s\S]*)$/.exec(arg) ?? [];
      return { error: { status: Number(status), type, message } };
    }
    default:
      return { text: `ok: ${text}` };
  }
}
