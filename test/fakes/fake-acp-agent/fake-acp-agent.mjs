#!/usr/bin/env node
// A small ACP agent over stdio for the ACP engine's tests (real agents are exercised by the
// end-to-end tests). It uses the SDK's agent app, so the wire format is the real one; a few
// behaviours write raw JSON-RPC lines to show what a broken agent does.
//
// Environment:
//   FAKE_ACP_RECORD    append one JSON line per received request/notification ({pid, method, params})
//   FAKE_ACP_NO_LOAD   =1: advertise loadSession false
//   FAKE_ACP_NO_IMAGE  =1: advertise promptCapabilities.image false
//   FAKE_ACP_NO_MODELS =1: session/new without a model list
//
// The prompt's first word picks the behaviour:
//   (anything)     text "echo: <prompt>" in two chunks; stopReason end_turn; response usage
//   think          a thought chunk, then text
//   plan           a plan update (3 entries), then text
//   usage          a usage_update, then text; the response carries no usage
//   tool           tool_call (execute, "echo hi") → request_permission (allow_once, allow_always,
//                  reject_once) → tool_call_update completed/failed → text "outcome: <optionId|cancelled>"
//   tool-noalways  the same with only allow_once and reject_once offered
//   tool-noreject  the same with only allow_once offered
//   tool-twice     two permission requests for the same command in one turn
//   crash          a text chunk, a stderr line with a key-shaped secret, then exit 3 mid-prompt
//   malformed      broken session/update notifications and an unknown kind, then text "after malformed"
//   slow           a text chunk every 100 ms for 30 s, with a grandchild `sleep` in the group; a
//                  session/cancel ends the turn with stopReason cancelled
//   hang-cancel    one chunk, then never answers (session/cancel ignored)
//   blocks         text describing the prompt's content blocks (type[:mimeType]) one per line
//   save-late      text, then records `saved` 300 ms AFTER the prompt response (as Qwen Code writes
//                  its session file); the end of stdin ends the process at once, unsaved (as Qwen's)
//   linger         text; then the process ignores the end of stdin and stays until killed
//   late-update    text; then an agent_message_chunk "LATE-UPDATE" 100 ms AFTER the prompt response
//   mcp-send <json> starts the session's stdio MCP server `cc-linker` (as offered in session/new or
//                  session/load) with the official MCP client, calls `send_file` with <json>, and
//                  answers text "mcp: ok|error <the tool's text>" ("mcp: none" when not offered)
// session/load replays history: an agent_message_chunk "REPLAYED-OLD-ANSWER" and a
// user_message_chunk before the response, and "REPLAYED-LATE" 50 ms after it (as Gemini does).
// Loading a session id starting with "gone" fails with -32002 (resource not found).
// `session/set_model` (the older unstable method) accepts the listed model ids.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const env = process.env;
const record = (method, params) => {
  if (!env.FAKE_ACP_RECORD) return;
  fs.appendFileSync(env.FAKE_ACP_RECORD, `${JSON.stringify({ pid: process.pid, method, params })}\n`);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Raw JSON-RPC straight to stdout (what the SDK would refuse to build). */
const raw = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

let linger = false;
const mcpServers = new Map(); // sessionId → the mcpServers of its session/new or session/load
const cancelled = new Map(); // sessionId → resolve of the running turn's cancel wait
const MODELS = {
  availableModels: [
    { modelId: 'fake-large', name: 'Fake Large' },
    { modelId: 'fake-small', name: 'Fake Small', description: 'cheaper' },
  ],
  currentModelId: 'fake-large',
};

async function turn(client, sessionId, prompt) {
  const text = prompt.find((b) => b.type === 'text')?.text ?? '';
  const word = text.trim().split(/\s+/)[0] ?? '';
  const update = (u) => client.notify(acp.methods.client.session.update, { sessionId, update: u });
  const say = (t) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
  const usage = { inputTokens: 11, outputTokens: 7, totalTokens: 18 };

  if (word === 'think')
    await update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'pondering' } });
  if (word === 'plan')
    await update({
      sessionUpdate: 'plan',
      entries: [
        { content: 'read the code', priority: 'high', status: 'completed' },
        { content: 'write the fix', priority: 'medium', status: 'in_progress' },
        { content: 'run the tests', priority: 'low', status: 'pending' },
      ],
    });
  if (word === 'usage') await update({ sessionUpdate: 'usage_update', used: 1234, size: 200000 });
  if (word === 'save-late') void sleep(300).then(() => record('saved', { sessionId }));
  if (word === 'linger') linger = true;
  if (word === 'late-update')
    void sleep(100).then(() =>
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'LATE-UPDATE' } }),
    );
  if (word.startsWith('tool')) {
    const rounds = word === 'tool-twice' ? 2 : 1;
    const outcomes = [];
    for (let i = 0; i < rounds; i++) {
      const toolCallId = `call-${i}`;
      const toolCall = {
        toolCallId,
        title: 'echo hi',
        kind: 'execute',
        status: 'pending',
        rawInput: { command: 'echo hi' },
      };
      await update({ sessionUpdate: 'tool_call', ...toolCall });
      const options = [{ optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' }];
      if (word !== 'tool-noalways' && word !== 'tool-noreject')
        options.push({ optionId: 'proceed_always', name: 'Always allow', kind: 'allow_always' });
      if (word !== 'tool-noreject') options.push({ optionId: 'cancel', name: 'Reject', kind: 'reject_once' });
      const answer = await client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall,
        options,
      });
      const outcome = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
      outcomes.push(outcome);
      const ok = outcome.startsWith('proceed');
      await update({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: ok ? 'completed' : 'failed',
        content: [{ type: 'content', content: { type: 'text', text: ok ? 'hi\n' : 'rejected by the user' } }],
      });
    }
    await say(`outcome: ${outcomes.join(',')}`);
    return { stopReason: 'end_turn' };
  }
  if (word === 'mcp-send') {
    await say(await mcpSend(sessionId, text));
    return { stopReason: 'end_turn' };
  }
  if (word === 'crash') {
    await say('starting...');
    await sleep(50);
    process.stderr.write('fatal: the model broke (key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA)\n');
    process.exit(3);
  }
  if (word === 'malformed') {
    raw({
      method: 'session/update',
      params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: 42 } },
    });
    raw({ method: 'session/update', params: { sessionId, update: 'not an object' } });
    raw({ method: 'session/update', params: { sessionId } });
    raw({ method: 'session/update', params: { sessionId, update: { sessionUpdate: 'mystery_update', foo: 1 } } });
    raw({ method: 'session/update', params: { sessionId, update: { sessionUpdate: 'mystery_update', foo: 2 } } });
    raw({ method: 'session/update', params: { sessionId, update: { sessionUpdate: 'tool_call_update' } } });
    raw({ method: 'session/update', params: { sessionId, update: { sessionUpdate: 'plan', entries: 'nope' } } });
    await say('after malformed');
    return { stopReason: 'end_turn' };
  }
  if (word === 'slow' || word === 'hang-cancel') {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' }); // a grandchild in our group
    record('grandchild', { pid: child.pid });
    await say('working');
    if (word === 'hang-cancel') return new Promise(() => undefined);
    let stop = false;
    const wait = new Promise((resolve) => cancelled.set(sessionId, resolve)).then(() => (stop = true));
    for (let i = 0; i < 300 && !stop; i++) {
      await Promise.race([sleep(100), wait]);
      if (!stop) await say('.');
    }
    child.kill();
    return { stopReason: stop ? 'cancelled' : 'end_turn' };
  }
  if (word === 'blocks') {
    await say(
      prompt
        .map((b) => (b.type === 'image' ? `image:${b.mimeType}:${b.data.length > 0}` : `${b.type}:${b.text ?? ''}`))
        .join('\n'),
    );
    return { stopReason: 'end_turn' };
  }
  const reply = `echo: ${text}`;
  const half = Math.ceil(reply.length / 2);
  await say(reply.slice(0, half));
  await say(reply.slice(half));
  return { stopReason: 'end_turn', ...(word === 'usage' ? {} : { usage }) };
}

/** One `send_file` call through the session's `cc-linker` stdio server; the line the turn answers. */
async function mcpSend(sessionId, text) {
  const server = (mcpServers.get(sessionId) ?? []).find((s) => s.name === 'cc-linker');
  if (!server) return 'mcp: none';
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: {
      PATH: env.PATH ?? '',
      HOME: env.HOME ?? '',
      ...Object.fromEntries(server.env.map((e) => [e.name, e.value])),
    },
  });
  const client = new Client({ name: 'fake-acp-agent', version: '0.0.1' });
  await client.connect(transport);
  try {
    const args = JSON.parse(text.trim().slice('mcp-send'.length));
    const r = await client.callTool({ name: 'send_file', arguments: args });
    return `mcp: ${r.isError ? 'error' : 'ok'} ${r.content.map((c) => c.text).join('')}`;
  } finally {
    await client.close();
  }
}

const app = acp
  .agent({ name: 'fake-acp-agent' })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    record('initialize', params);
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: env.FAKE_ACP_NO_LOAD !== '1',
        promptCapabilities: { image: env.FAKE_ACP_NO_IMAGE !== '1', audio: false, embeddedContext: false },
      },
      authMethods: [],
      agentInfo: { name: 'fake-acp-agent', version: '0.0.1' },
    };
  })
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    record('session/new', params);
    const sessionId = `fake-${randomUUID()}`;
    mcpServers.set(sessionId, params.mcpServers);
    return { sessionId, ...(env.FAKE_ACP_NO_MODELS === '1' ? {} : { models: MODELS }) };
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    record('session/load', params);
    if (params.sessionId.startsWith('gone')) throw acp.RequestError.resourceNotFound(params.sessionId);
    const { sessionId } = params;
    mcpServers.set(sessionId, params.mcpServers);
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'an old question' } },
    });
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'REPLAYED-OLD-ANSWER' } },
    });
    setTimeout(() => {
      void client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'REPLAYED-LATE' } },
      });
    }, 50);
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, ({ params, client }) => {
    record('session/prompt', params);
    return turn(client, params.sessionId, params.prompt);
  })
  .onRequest(
    'session/set_model',
    (raw) => raw,
    ({ params }) => {
      record('session/set_model', params);
      if (!MODELS.availableModels.some((m) => m.modelId === params.modelId)) throw acp.RequestError.invalidParams();
      return {};
    },
  )
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    record('session/cancel', params);
    cancelled.get(params.sessionId)?.();
  });

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const connection = app.connect(stream);
await connection.closed;
if (linger) setInterval(() => undefined, 1000);
else process.exit(0);
