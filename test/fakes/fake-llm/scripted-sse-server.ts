import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Plumbing shared by the scripted fake LLM servers: an HTTP server on 127.0.0.1 that records every
 * request, answers each one with the next scripted turn (or, once the queue is empty, with what the
 * server's `script` decides from the request), and notices when a client hangs up early (how tests
 * prove an abort really closed the connection).
 */

/** One request as the fake received it; `body` is parsed JSON when it parses; `query` has no `?`. */
export type RecordedRequest = {
  method: string;
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: unknown;
};

/** Decides the turn for a request when no queued turn is left; a throw is answered with HTTP 400. */
export type TurnScript<Turn> = (request: RecordedRequest) => Turn | Promise<Turn>;

/**
 * An HTTP error answer. `retry` sets `x-should-retry`, which both SDKs obey (default false, so one
 * scripted error is one request); `retry-after-ms` keeps a retry instant.
 */
export type HttpErrorSpec = { status: number; body: unknown; retry?: boolean };

/**
 * How a turn writes its answer; `hang` resolves once the client has gone. The status line is sent
 * with the first write: `send` makes the answer an SSE stream, `json` one JSON body instead.
 */
export type SseWriter = {
  /** Writes one SSE event: `event: name` (when given) and `data: <json or text>`; nothing once the client left. */
  send(data: unknown, event?: string): Promise<void>;
  /** Answers with one JSON body (a non-streamed request); only before any `send`. */
  json(body: unknown, status?: number): void;
  /** Waits `ms`, or less if the client leaves meanwhile (slow streams that a cancel cuts). */
  pause(ms: number): Promise<void>;
  /** Has the client closed the connection? */
  gone(): boolean;
  /** Holds the response open until the client disconnects. */
  hang(): Promise<void>;
};

/** What a fake server offers a test. */
export type ScriptedServer<Turn> = {
  /** `http://127.0.0.1:<port>`; each fake documents the path prefix its SDK expects. */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  enqueue(...turns: Turn[]): void;
  /** Turns not yet played (a test can assert the script was used up). */
  pending(): number;
  /** Errors the `script` threw (each was answered with HTTP 400), in order. */
  readonly scriptErrors: unknown[];
  /** How many responses the client closed before they finished, so far. */
  disconnects(): number;
  /** Resolves once `n` responses in total were closed by the client before they finished. */
  waitForDisconnects(n: number): Promise<void>;
  close(): Promise<void>;
};

/** What makes a scripted server speak one API: its route, its error turns and how a turn streams. */
export type TurnPlayer<Turn> = {
  /** Does this method + path belong to the fake's API? */
  route(method: string, path: string): boolean;
  /** Picks the error answer of a turn, if it is one. */
  httpError(turn: Turn): HttpErrorSpec | undefined;
  /** Streams a turn; `request` is the parsed body of the request it answers, `recorded` all of it. */
  play(turn: Turn, out: SseWriter, request: unknown, recorded: RecordedRequest): Promise<void>;
  /** The error body sent when the script is used up. */
  exhaustedBody: unknown;
  /** The body of an HTTP 400 for a `script` that threw `message`. */
  scriptErrorBody?(message: string): unknown;
};

/** Options shared by the scripted servers. */
export type ScriptedServerOptions<Turn> = {
  /** Answers every request the queue does not (a fake "model" that reads the request). */
  script?: TurnScript<Turn>;
};

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      try {
        resolve(text === '' ? undefined : JSON.parse(text));
      } catch {
        resolve(text);
      }
    });
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts a scripted server on an ephemeral 127.0.0.1 port. */
export async function startScriptedSseServer<Turn>(
  player: TurnPlayer<Turn>,
  options: ScriptedServerOptions<Turn> = {},
): Promise<ScriptedServer<Turn>> {
  const queue: Turn[] = [];
  const requests: RecordedRequest[] = [];
  const scriptErrors: unknown[] = [];
  let disconnects = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const noteDisconnect = (): void => {
    disconnects += 1;
    for (const w of waiters.filter((x) => disconnects >= x.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const [path = '/', query = ''] = (req.url ?? '/').split('?', 2);
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path, query, headers: req.headers, body };
      requests.push(recorded);
      if (!player.route(recorded.method, path))
        return sendJson(res, 404, { error: { message: `fake-llm: no route ${req.method} ${path}` } });
      let turn = queue.shift();
      if (turn === undefined && options.script) {
        try {
          turn = await options.script(recorded);
        } catch (err) {
          scriptErrors.push(err);
          const message = `fake-llm script threw: ${err instanceof Error ? err.message : String(err)}`;
          const errorBody = player.scriptErrorBody?.(message) ?? { error: { message, type: 'invalid_request_error' } };
          return sendJson(res, 400, errorBody, { 'x-should-retry': 'false' });
        }
      }
      if (turn === undefined) return sendJson(res, 500, player.exhaustedBody, { 'x-should-retry': 'false' });
      const failure = player.httpError(turn);
      if (failure) {
        return sendJson(res, failure.status, failure.body, {
          'x-should-retry': failure.retry ? 'true' : 'false',
          'retry-after-ms': '1',
        });
      }
      let finished = false;
      let closed = false;
      const gone = new Promise<void>((resolve) => res.on('close', () => resolve()));
      res.on('close', () => {
        closed = true;
        if (!finished) noteDisconnect();
      });
      const startStream = (): void => {
        if (res.headersSent) return;
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
      };
      const out: SseWriter = {
        async send(data, event) {
          if (closed) return;
          startStream();
          const payload = typeof data === 'string' ? data : JSON.stringify(data);
          res.write(`${event !== undefined ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
          // Let each event leave in its own write, as a real server streams them.
          await new Promise((r) => setImmediate(r));
        },
        json(jsonBody, status = 200) {
          if (res.headersSent) throw new Error('fake-llm: json() after the stream started');
          finished = true;
          sendJson(res, status, jsonBody);
        },
        pause: (ms) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, ms);
            void gone.then(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
        gone: () => closed,
        hang: () => gone,
      };
      await player.play(turn, out, body, recorded);
      finished = true;
      if (!res.writableEnded && !closed) {
        startStream();
        res.end();
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake-llm crashed: ${String(err)}` } });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    scriptErrors,
    enqueue: (...turns) => void queue.push(...turns),
    pending: () => queue.length,
    disconnects: () => disconnects,
    waitForDisconnects: (n) =>
      disconnects >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
