// What the web console's server tests share: raw HTTP requests (so Host / Origin / Cookie are exactly
// what a test says), fakes of the gateway, the sessions view and the bridge, and a console started
// on a free port in a temporary home.
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BridgeStatus } from '../../src/bridge/commands/command-context.js';
import type { ConsoleBridge } from '../../src/channels/web/console/api-routes.js';
import type { ConsoleGateway } from '../../src/channels/web/console/console-gateway.js';
import type { ConsoleSessions } from '../../src/channels/web/console/console-sessions.js';
import { startWebConsole, type WebConsole, type WebConsoleOptions } from '../../src/channels/web/start-web-console.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { resolvePaths, type Paths } from '../../src/core/paths.js';

/** Raw HTTP so that Host / Origin / Cookie are exactly what the test says (fetch would rewrite some). */
export function rawRequest(
  port: number,
  p: string,
  o: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: p,
        method: o.method ?? 'GET',
        headers: { Host: `127.0.0.1:${port}`, ...o.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          // SSE never ends: one chunk is enough to see what we got.
          if (String(res.headers['content-type']).startsWith('text/event-stream')) res.destroy();
        });
        res.on('close', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

export const fakeGateway: ConsoleGateway = {
  availability: async () => ({ status: 'available', reason: 'ChainlessChain 0.165.7', version: '0.165.7' }),
  cli: async () => ({ status: 'available', reason: 'ChainlessChain 0.165.7', version: '0.165.7' }),
  providers: () => [{ id: 'openai', label: 'OpenAI', model: 'gpt-test', tools: true }],
  newChat: () => {
    throw new Error('not in this test');
  },
  audit: async () => [],
};

export const fakeSessions: ConsoleSessions = {
  list: async () => [],
  page: async () => ({ sessions: [], total: 0, sparse: 0, nextOffset: null }),
  projects: async () => [],
  get: async () => null,
  recentTurns: async () => [],
};

/** What the fake bridge reports as its status. */
export const fakeStatus: BridgeStatus = {
  pending: 1,
  processing: 0,
  failed: 0,
  running: 0,
  channels: [{ id: 'feishu', connected: false }],
  pendingPrompts: 0,
};

/** A bridge that records the text of every message it accepts in `accepted`. */
export function fakeBridge(accepted: string[]): ConsoleBridge {
  return {
    accept: async (m) => {
      accepted.push(m.text);
      return { status: 'accepted' };
    },
    handleAction: async () => ({ toast: { type: 'success', text: 'ok' } }),
    status: async () => fakeStatus,
  };
}

/** A fresh temporary home (real path) and the paths resolved in it. */
export async function tempHome(): Promise<{ dir: string; paths: Paths }> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-web-')));
  const paths = resolvePaths({
    HOME: dir,
    CC_LINKER_HOME: path.join(dir, '.cc-linker'),
    CLAUDE_CONFIG_DIR: path.join(dir, '.claude'),
  });
  return { dir, paths };
}

/** The options of a console without a bridge, in English, on any free port. */
export function consoleOptions(paths: Paths, config: Config): WebConsoleOptions {
  return { config, paths, lang: 'en', logger: silentLogger, gateway: fakeGateway, sessions: fakeSessions, port: 0 };
}

/** A console with the fake bridge, its token, and the texts the bridge accepted. */
export interface TestConsole {
  dir: string;
  paths: Paths;
  config: Config;
  web: WebConsole;
  token: string;
  accepted: string[];
}

/** Starts a console with the fake bridge; `extra` adds or overrides options (limits, say). */
export async function startTestConsole(extra: Partial<WebConsoleOptions> = {}): Promise<TestConsole> {
  const { dir, paths } = await tempHome();
  const config = defaultConfig();
  const accepted: string[] = [];
  const web = await startWebConsole({ ...consoleOptions(paths, config), bridge: fakeBridge(accepted), ...extra });
  const token = new URL(web.url).searchParams.get('token') as string;
  return { dir, paths, config, web, token, accepted };
}

/** Closes the console (the one in `t.web` now) and removes its home. */
export async function stopTestConsole(t: TestConsole): Promise<void> {
  await t.web.close();
  await fs.rm(t.dir, { recursive: true, force: true });
}

/** Logs in with the start URL and returns the `name=value` of the cookie it sets. */
export async function loginCookie(port: number, token: string): Promise<string> {
  const r = await rawRequest(port, `/?token=${encodeURIComponent(token)}`);
  return String(r.headers['set-cookie']?.[0]).split(';')[0] as string;
}

/** The headers of a same-origin browser POST (what the page's fetch sends), with `cookie`. */
export function sameOriginPost(port: number, cookie: string): Record<string, string> {
  return { Cookie: cookie, Origin: `http://127.0.0.1:${port}`, 'Sec-Fetch-Site': 'same-origin' };
}

/** A raw TCP connection to the console: exactly the bytes a test writes, and everything that came back. */
export interface RawSocket {
  socket: net.Socket;
  /** What the server sent so far. */
  received(): string;
  /** Settles when the connection is closed (by either side), with everything received. */
  closed: Promise<string>;
}

/** Connects to 127.0.0.1:`port` and writes `bytes` once connected (nothing when omitted). */
export function rawSocket(port: number, bytes?: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise<string>((done) => socket.on('close', () => done(data)));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.once('error', (err) => (socket.connecting ? reject(err) : undefined));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      if (bytes !== undefined) socket.write(bytes);
      resolve({ socket, received: () => data, closed });
    });
  });
}

/** An open event stream: its status line and headers, what it received, and how to close it. */
export interface OpenStream {
  status: number;
  body: string;
  /** Resolves when the stream has received `text` (or rejects after `ms`). */
  waitFor(text: string, ms?: number): Promise<void>;
  received(): string;
  /** Settles when the server ends or cuts the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET /api/events` with `cookie` and keeps it open; a refused one comes back with its JSON body. */
export function openStream(port: number, cookie: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/events', headers: { Host: `127.0.0.1:${port}`, Cookie: cookie } },
      (res) => {
        let data = '';
        const waiters: Array<() => void> = [];
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          data += c;
          for (const w of waiters.splice(0)) w();
        });
        res.on('error', () => undefined);
        const ended = new Promise<void>((done) => res.on('close', () => done()));
        const stream: OpenStream = {
          status: res.statusCode ?? 0,
          body: '',
          received: () => data,
          ended,
          close: () => req.destroy(),
          waitFor: (text, ms = 5000) =>
            new Promise<void>((ok, fail) => {
              const timer = setTimeout(() => fail(new Error(`stream did not receive ${text}`)), ms);
              const check = () => {
                if (data.includes(text)) {
                  clearTimeout(timer);
                  ok();
                } else waiters.push(check);
              };
              check();
            }),
        };
        if (res.statusCode === 200) return resolve(stream);
        res.on('end', () => resolve({ ...stream, body: data }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
