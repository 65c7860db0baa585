#!/usr/bin/env node
// The chaos run's fast fake engine: a stand-in for the `claude` CLI in `-p --output-format json`
// mode (the shape pinned in test/fakes/fake-anthropic/README.md), cheap enough for hundreds of
// runs on two cores. The chaos script copies it into its sandbox as `<root>/bin/claude`, so every
// run's command line names the sandbox and the run can find (and SIGKILL) exactly its children.
//
// - prompt from stdin (as cc-linker sends it); answer `echo: <prompt>` (after cc-linker's continue
//   instruction, `echo: <the interrupted prompt>`);
// - `sleep=<ms>` anywhere in the prompt delays the answer (kills then land mid-run);
// - `--resume <id>` whose session file does not exist fails like the real CLI (exit 1, stderr
//   `No conversation found with session ID: <id>`, no stdout); `--session-id <id>` names a new
//   session (both flags also as `--flag=<id>`);
// - an empty stdin fails like the real CLI in print mode (exit 1, nothing written to the session);
// - writes the session JSONL under $HOME/.claude/projects/<encoded cwd>/<id>.jsonl before the
//   delay (the real CLI writes it at start), so the bridge's registry and scanner see the session;
//   the answer's line carries `stop_reason: end_turn`, so recovery can tell a finished turn;
// - appends `start` / `end` records to $HOME/.chaos/claude-calls.jsonl: the run's ground truth
//   of which prompt ran in which session and when.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
// `--name value` and `--name=value` (cc-linker passes `--resume=<id>` and `--session-id=<id>`).
const flag = (name) => {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
};
const format = flag('--output-format') ?? 'text';
const resume = flag('--resume');
const chosenId = flag('--session-id');
const prompt = fs.readFileSync(0, 'utf8');
const home = process.env.HOME ?? '/nonexistent';
const claudeDir = process.env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude');
const projectDir = path.join(claudeDir, 'projects', process.cwd().replace(/[^A-Za-z0-9]/g, '-'));
const sessionId = resume ?? chosenId ?? randomUUID();
const jsonl = path.join(projectDir, `${sessionId}.jsonl`);
const logFile = path.join(home, '.chaos', 'claude-calls.jsonl');

const log = (event, extra = {}) => {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.appendFileSync(
    logFile,
    `${JSON.stringify({ event, at: Date.now(), pid: process.pid, sessionId, resume: resume ?? null, cwd: process.cwd(), prompt, ...extra })}\n`,
  );
};

// Like the real CLI in print mode: no prompt (stdin closed before cc-linker wrote it, e.g. the bridge
// was SIGKILLed right after the spawn) is an error before anything reaches the session's transcript.
// An empty user line there would become "the interrupted prompt" of a later continue instruction.
if (prompt.trim() === '') {
  log('no-input');
  process.stderr.write(
    'Error: Input must be provided either through stdin or as a prompt argument when using --print\n',
  );
  process.exit(1);
}
if (resume && !fs.existsSync(jsonl)) {
  log('no-session');
  process.stderr.write(`No conversation found with session ID: ${resume}\n`);
  process.exit(1);
}
log('start');
const line = (obj) =>
  fs.appendFileSync(
    jsonl,
    `${JSON.stringify({ ...obj, sessionId, cwd: process.cwd(), timestamp: new Date().toISOString() })}\n`,
  );
fs.mkdirSync(projectDir, { recursive: true });
// cc-linker's continue instruction after an interrupted turn: like a model, carry on with the
// interrupted prompt (the last user line of the session) and answer it.
const continued = prompt.startsWith('(cc-linker) ') && fs.existsSync(jsonl) ? lastUserPrompt(jsonl) : undefined;
if (!resume) line({ type: 'queue-operation', operation: 'enqueue', content: prompt });
line({ type: 'user', message: { role: 'user', content: prompt }, uuid: randomUUID() });

const delay = Number(/sleep=(\d+)/.exec(prompt)?.[1] ?? '0');
setTimeout(() => {
  const text = `echo: ${continued ?? prompt}`;
  line({
    type: 'assistant',
    // `stop_reason` as the real CLI writes it on the message that ends the turn: without it, a
    // finished run looked cut to cc-linker's recovery, which continued it instead of delivering it.
    message: {
      id: `msg_${randomUUID()}`,
      role: 'assistant',
      model: 'fake-model-1',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
    },
    uuid: randomUUID(),
  });
  const result = {
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: text,
    session_id: sessionId,
    num_turns: 1,
    duration_ms: delay,
    duration_api_ms: delay,
    total_cost_usd: 0.0012,
    stop_reason: 'end_turn',
    terminal_reason: 'completed',
    permission_denials: [],
    usage: { input_tokens: 10, output_tokens: 5 },
    modelUsage: { 'fake-model-1': {} },
  };
  if (format === 'stream-json') {
    process.stdout.write(
      `${JSON.stringify({ type: 'system', subtype: 'init', session_id: sessionId, model: 'fake-model-1', cwd: process.cwd(), tools: [] })}\n`,
    );
    process.stdout.write(
      `${JSON.stringify({ type: 'assistant', message: { id: 'msg_1', model: 'fake-model-1', role: 'assistant', content: [{ type: 'text', text }] }, parent_tool_use_id: null, session_id: sessionId })}\n`,
    );
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  log('end');
}, delay);

function lastUserPrompt(file) {
  let last;
  for (const l of fs.readFileSync(file, 'utf8').split('\n')) {
    try {
      const o = JSON.parse(l);
      const text = o.type === 'user' ? o.message?.content : undefined;
      // An earlier continue instruction is not the task: the prompt before it is.
      if (typeof text === 'string' && !text.startsWith('(cc-linker) ')) last = text;
    } catch {
      // a torn last line
    }
  }
  return last;
}
