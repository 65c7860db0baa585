import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Plumbing shared by the scripted fake LLM servers: an HTTP server on 127.0.0.1 that records every
 * request, answers each one with the next scripted turn, and notices when a client hangs up early
 * (how tests prove an abort really closed the connection).
 */

/** One request as the fake received it; `body` is parsed JSON when it parses. */
export type RecordedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: unknown };

/**
 * An HTTP error answer. `retry` sets `x-should-retry`, which both SDKs obey (default false, so one
 * scripted error is one request); `retry-after-ms` keeps a retry instant.
 */
export type HttpErrorSpec = { status: number; body: unknown; retry?: boolean };

/** How a turn writes its stream; `hang` resolves once the client has gone. */
export type SseWriter = {
  /** Writes one SSE event: `event: name` (when given) and `data: <json or text>`. */
  send(data: unknown, event?: string): Promise<void>;
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
  /** Streams a turn; `request` is the parsed body of the request it answers. */
  play(turn: Turn, out: SseWriter, request: unknown): Promise<void>;
  /** The error body sent when the script is used up. */
  exhaustedBody: unknown;
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
export async function startScriptedSseServer<Turn>(player: TurnPlayer<Turn>): Promise<ScriptedServer<Turn>> {
  const queue: Turn[] = [];
  const requests: RecordedRequest[] = [];
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
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      if (!player.route(req.method ?? 'GET', path))
        return sendJson(res, 404, { error: { message: `fake-llm: no route ${req.method} ${path}` } });
      const turn = queue.shift();
      if (turn === undefined) return sendJson(res, 500, player.exhaustedBody, { 'x-should-retry': 'false' });
      const failure = player.httpError(turn);
      if (failure) {
        return sendJson(res, failure.status, failure.body, {
          'x-should-retry': failure.retry ? 'true' : 'false',
          'retry-after-ms': '1',
        });
      }
      let finished = false;
      const gone = new Promise<void>((resolve) => res.on('close', () => resolve()));
      res.on('close', () => {
        if (!finished) noteDisconnect();
      });
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      const out: SseWriter = {
        async send(data, event) {
          const payload = typeof data === 'string' ? data : JSON.stringify(data);
          res.write(`${event !== undefined ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
          // Let each event leave in its own write, as a real server streams them.
          await new Promise((r) => setImmediate(r));
        },
        hang: () => gone,
      };
      await player.play(turn, out, body);
      finished = true;
      res.end();
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
