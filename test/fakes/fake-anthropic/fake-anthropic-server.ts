import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { defaultScript } from './default-script.js';
import { toScriptRequest } from './script-request.js';
import type { RecordedRequest, Reply, Script } from './fake-anthropic-types.js';

export type {
  RecordedRequest,
  Reply,
  ReplyError,
  Script,
  ScriptRequest,
  ScriptToolResult,
} from './fake-anthropic-types.js';

/** A running fake of the Anthropic Messages API (see README.md for the wire details). */
export interface FakeAnthropic {
  /** Base URL for `ANTHROPIC_BASE_URL`, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  port: number;
  /** Every request received, in arrival order (including `/api/hello`, count_tokens, 404s). */
  requests: RecordedRequest[];
  /** Only the `POST /v1/messages` requests (model turns), in arrival order. */
  messageRequests(): RecordedRequest[];
  /** Errors thrown by the script (each also answered as HTTP 400 so the client fails fast). */
  scriptErrors: unknown[];
  /** Replaces the script for later requests (lets one server serve several tests). */
  setScript(script: Script): void;
  /** Stops listening and destroys open connections (in-flight streams are cut). */
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const fakeId = (prefix: string): string => `${prefix}_fake${randomBytes(9).toString('hex')}`;
const approxTokens = (s: string): number => Math.max(1, Math.ceil(s.length / 4));

function chunks(text: string, size: number): string[] {
  const chars = Array.from(text); // never split a surrogate pair
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function stopReasonOf(reply: Reply): string {
  return reply.stopReason ?? (reply.toolUse ? 'tool_use' : 'end_turn');
}

/** The content blocks of a reply, as they appear in a complete (non-stream) message. */
function contentOf(reply: Reply, toolId: string): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  if (reply.thinking !== undefined)
    blocks.push({ type: 'thinking', thinking: reply.thinking, signature: 'fake-signature' });
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  if (reply.toolUse)
    blocks.push({ type: 'tool_use', id: toolId, name: reply.toolUse.name, input: reply.toolUse.input });
  return blocks;
}

function outputTokens(reply: Reply): number {
  return approxTokens((reply.thinking ?? '') + (reply.text ?? '') + JSON.stringify(reply.toolUse?.input ?? ''));
}

function sendJson(res: ServerResponse, status: number, body: unknown, requestId: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId });
  res.end(JSON.stringify(body));
}

/** Streams `reply` as the SSE event sequence of the real API; stops quietly if the client leaves. */
async function streamReply(
  res: ServerResponse,
  reply: Reply,
  model: string,
  inputTokens: number,
  requestId: string,
): Promise<void> {
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  const size = Math.max(1, reply.chunkSize ?? 16);
  const pace = reply.chunkDelayMs ?? 0;
  const send = (event: string, data: Record<string, unknown>): void => {
    if (!gone) res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  };
  const deltas = async (
    index: number,
    parts: string[],
    delta: (p: string) => Record<string, unknown>,
  ): Promise<void> => {
    for (const part of parts) {
      if (gone) return;
      if (pace > 0) await sleep(pace);
      send('content_block_delta', { index, delta: delta(part) });
    }
  };

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': requestId,
  });
  send('message_start', {
    message: {
      id: fakeId('msg'),
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: inputTokens,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        service_tier: 'standard',
      },
    },
  });
  send('ping', {});
  let index = 0;
  if (reply.thinking !== undefined) {
    send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    await deltas(index, chunks(reply.thinking, size), (thinking) => ({ type: 'thinking_delta', thinking }));
    send('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'fake-signature' } });
    send('content_block_stop', { index });
    index++;
  }
  if (reply.text !== undefined) {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    await deltas(index, chunks(reply.text, size), (text) => ({ type: 'text_delta', text }));
    send('content_block_stop', { index });
    index++;
  }
  if (reply.toolUse) {
    send('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: fakeId('toolu'), name: reply.toolUse.name, input: {} },
    });
    await deltas(index, chunks(JSON.stringify(reply.toolUse.input), size), (partial_json) => ({
      type: 'input_json_delta',
      partial_json,
    }));
    send('content_block_stop', { index });
  }
  send('message_delta', {
    delta: { stop_reason: stopReasonOf(reply), stop_sequence: null },
    usage: {
      input_tokens: inputTokens,
      output_tokens: outputTokens(reply),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  });
  send('message_stop', {});
  if (!gone) res.end();
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const raw = Buffer.concat(parts).toString('utf8');
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Starts a fake Anthropic Messages API on 127.0.0.1 (random port) for the real Claude Code CLI
 * and Agent SDK. `POST /v1/messages` answers what `opts.script` (default: {@link defaultScript})
 * decides, as SSE when `stream` is true, else as one JSON message. `HEAD|GET /api/hello` → 200,
 * `POST /v1/messages/count_tokens` → `{input_tokens}`, anything else → 404 with an API error body.
 */
export async function startFakeAnthropic(opts: { script?: Script } = {}): Promise<FakeAnthropic> {
  let script: Script = opts.script ?? defaultScript;
  const requests: RecordedRequest[] = [];
  const scriptErrors: unknown[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const [path = '/', query = ''] = (req.url ?? '/').split('?', 2);
    const body = await readBody(req);
    const record: RecordedRequest = { method: req.method ?? 'GET', path, query, headers: { ...req.headers }, body };
    requests.push(record);
    const requestId = fakeId('req');

    if (path === '/api/hello') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : '{"message":"hello"}');
      return;
    }
    const parsed = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      sendJson(res, 200, { input_tokens: approxTokens(JSON.stringify(parsed.messages ?? '')) }, requestId);
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/messages') {
      sendJson(
        res,
        404,
        {
          type: 'error',
          error: { type: 'not_found_error', message: `fake-anthropic: no route ${req.method} ${path}` },
        },
        requestId,
      );
      return;
    }

    const scriptRequest = toScriptRequest(parsed);
    record.scriptRequest = scriptRequest;
    let reply: Reply;
    try {
      reply = await script(scriptRequest);
    } catch (err) {
      scriptErrors.push(err);
      reply = {
        error: { status: 400, type: 'invalid_request_error', message: `fake-anthropic script threw: ${String(err)}` },
      };
    }
    record.reply = reply;
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.error) {
      sendJson(
        res,
        reply.error.status,
        { type: 'error', error: { type: reply.error.type, message: reply.error.message } },
        requestId,
      );
      return;
    }
    const inputTokens = approxTokens(JSON.stringify(scriptRequest.messages));
    if (parsed.stream === true) {
      await streamReply(res, reply, scriptRequest.model, inputTokens, requestId);
      return;
    }
    sendJson(
      res,
      200,
      {
        id: fakeId('msg'),
        type: 'message',
        role: 'assistant',
        model: scriptRequest.model,
        content: contentOf(reply, fakeId('toolu')),
        stop_reason: stopReasonOf(reply),
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens,
          output_tokens: outputTokens(reply),
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
      requestId,
    );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      scriptErrors.push(err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    scriptErrors,
    messageRequests: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages'),
    setScript: (next) => {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
