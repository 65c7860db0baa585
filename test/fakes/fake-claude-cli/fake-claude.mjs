#!/usr/bin/env node
// A small stand-in for the `claude` CLI, for the engine's unit tests (the real binary is exercised
// in test/e2e/claude-*.test.ts). It speaks `-p --output-format json` (the prompt is all of stdin)
// and `--print --input-format stream-json --output-format stream-json --verbose` (each stdin line is
// a user message, answered by init … result; it stays alive until stdin ends, like the real CLI),
// writes a session JSONL under $HOME/.claude/projects/<encoded cwd>/, and appends what each turn
// was called with to $FAKE_CLAUDE_RECORD (one JSON line: argv, cwd, stdin = the prompt, env names, pid).
//
// The prompt picks the behaviour (first word):
//   (anything)      success, result text "echo: <prompt>"
//   is-error        an is_error result ("API Error: 400 fake"), exit 1
//   exit3           no stdout; stderr "boom" + a key-shaped secret; exit 3
//   garbage         stdout "this is not json", exit 0
//   noise           stream-json only: hook lines, an invalid line, unknown types around the reply
//   tool            stream-json only: a Bash tool_use, its tool_result, then text
//   hang            prints init (stream-json) and then nothing, forever
//   hang-group      like hang, plus a grandchild in the same group; both ignore SIGTERM
//   slow            stream-json: 40 text deltas, one every 50 ms
//   quiet-writer    no output for 1.5 s while appending to its JSONL every 100 ms, then success
//   nojsonl         success without writing a session file
//   vanish          exits at once: no output, nothing written to the session file
// `--resume dead…` → "No conversation found with session ID: …", exit 1 (as the real CLI).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const argv = process.argv.slice(2);
// `--name value` or `--name=value`, as the real CLI's parser takes them.
const flag = (name) => {
  const joined = argv.find((a) => a.startsWith(`${name}=`));
  if (joined) return joined.slice(name.length + 1);
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const format = flag('--output-format') ?? 'text';
const streamInput = flag('--input-format') === 'stream-json';
const resume = flag('--resume');
const record = (stdin) => {
  if (!process.env.FAKE_CLAUDE_RECORD) return;
  const entry = { argv, cwd: process.cwd(), stdin, envNames: Object.keys(process.env).sort(), pid: process.pid };
  fs.appendFileSync(process.env.FAKE_CLAUDE_RECORD, `${JSON.stringify(entry)}\n`);
};

const out = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);
const sessionId = resume ?? flag('--session-id') ?? randomUUID();
const stream = format === 'stream-json';

const projectDir = path.join(
  process.env.CLAUDE_CONFIG_DIR ?? path.join(process.env.HOME ?? '/nonexistent', '.claude'),
  'projects',
  process.cwd().replace(/[^A-Za-z0-9]/g, '-'),
);
const jsonl = path.join(projectDir, `${sessionId}.jsonl`);
const appendJsonl = (obj) => {
  fs.mkdirSync(projectDir, { recursive: true });
  fs.appendFileSync(jsonl, `${JSON.stringify({ ...obj, sessionId, cwd: process.cwd() })}\n`);
};
const result = (text, extra = {}) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: text,
  session_id: sessionId,
  num_turns: 1,
  duration_ms: 5,
  total_cost_usd: 0.0012,
  stop_reason: 'end_turn',
  permission_denials: [],
  modelUsage: { 'fake-model-1': {} },
  ...extra,
});
const init = () =>
  out({
    type: 'system',
    subtype: 'init',
    session_id: sessionId,
    model: 'fake-model-1',
    cwd: process.cwd(),
    tools: ['Bash'],
  });
const assistant = (id, block) =>
  out({
    type: 'assistant',
    message: { id, model: 'fake-model-1', role: 'assistant', content: [block] },
    parent_tool_use_id: null,
    session_id: sessionId,
  });
// The end of a successful turn: the next stdin line (stream-json input), else the process's end.
let endTurn = () => process.exit(0);
const finish = (text, extra) => {
  if (stream) {
    init();
    assistant('msg_1', { type: 'text', text });
  }
  out(result(text, extra));
  endTurn();
};
const sleepForever = () => setInterval(() => {}, 1000);

/** One turn: the prompt's first word picks the behaviour (see the top of this file). */
function turn(prompt) {
  const word = prompt.trim().split(/\s+/)[0] ?? '';
  record(prompt);
  if (resume && resume.startsWith('dead')) {
    if (stream)
      out({
        type: 'result',
        subtype: 'error_during_execution',
        is_error: true,
        session_id: resume,
        num_turns: 0,
        errors: [`No conversation found with session ID: ${resume}`],
      });
    process.stderr.write(`No conversation found with session ID: ${resume}\n`);
    process.exit(1);
  }
  if (word === 'vanish') process.exit(0);
  if (word !== 'nojsonl') appendJsonl({ type: 'user', message: { role: 'user', content: prompt } });
  switch (word) {
    case 'is-error':
      if (stream) init();
      out(result('API Error: 400 fake', { is_error: true, api_error_status: 400 }));
      process.exit(1);
      break;
    case 'exit3':
      process.stderr.write('starting\nboom: key sk-ant-abcdefghijklmnopqrstu leaked\n');
      process.exit(3);
      break;
    case 'garbage':
      process.stdout.write('this is not json\n');
      process.exit(0);
      break;
    case 'noise':
      out({ type: 'system', subtype: 'hook_started', hook: 'SessionStart', output: 'x'.repeat(2000) });
      init();
      process.stdout.write('{ not json\n');
      out({ type: 'rate_limit_event', whatever: true });
      out({ type: 'system', subtype: 'hook_response', output: 'noise' });
      assistant('msg_1', { type: 'text', text: 'clean reply' });
      out({
        type: 'assistant',
        parent_tool_use_id: 'toolu_sub',
        message: { id: 'msg_sub', content: [{ type: 'text', text: 'SUBAGENT TEXT' }] },
      });
      out({ type: 'brand_new_type_2099' });
      out(result('clean reply'));
      endTurn();
      break;
    case 'tool':
      init();
      assistant('msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi' } });
      out({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi', is_error: false }],
        },
        parent_tool_use_id: null,
      });
      assistant('msg_2', { type: 'text', text: 'ran it' });
      out(result('ran it', { num_turns: 2 }));
      endTurn();
      break;
    case 'hang':
      if (stream) init();
      sleepForever();
      break;
    case 'hang-group': {
      process.on('SIGTERM', () => {});
      const gc = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"], {
        stdio: 'ignore',
      });
      fs.writeFileSync(path.join(process.cwd(), 'grandchild.pid'), String(gc.pid));
      if (stream) init();
      else process.stderr.write('working\n');
      sleepForever();
      break;
    }
    case 'slow': {
      init();
      let i = 0;
      const t = setInterval(() => {
        assistant(`msg_${i}`, { type: 'text', text: `t${i} ` });
        i += 1;
        if (i === 40) {
          clearInterval(t);
          out(result('slow done'));
          endTurn();
        }
      }, 50);
      break;
    }
    case 'quiet-writer': {
      // One line of activity once started, so the idle timer measures the silence, not Node's start-up.
      process.stderr.write('started\n');
      let n = 0;
      const t = setInterval(() => {
        appendJsonl({ type: 'progress', n });
        n += 1;
        if (n === 15) {
          clearInterval(t);
          finish('wrote quietly');
        }
      }, 100);
      break;
    }
    default:
      finish(`echo: ${prompt}`);
  }
}

if (streamInput) {
  const lines = readline.createInterface({ input: process.stdin });
  const pending = [];
  let busy = false;
  let closed = false;
  const next = () => {
    const line = pending.shift();
    if (line === undefined) {
      busy = false;
      if (closed) process.exit(0);
      return;
    }
    busy = true;
    const message = JSON.parse(line);
    turn(typeof message.message?.content === 'string' ? message.message.content : '');
  };
  endTurn = next;
  lines.on('line', (line) => {
    if (line.trim().length === 0) return;
    pending.push(line);
    if (!busy) next();
  });
  lines.on('close', () => {
    closed = true;
    if (!busy) process.exit(0);
  });
} else {
  turn(fs.readFileSync(0, 'utf8'));
}
