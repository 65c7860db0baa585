import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, FeishuCode, parseJsonString, type ApiReply, type ErrorReply } from './api-reply.js';
import { visibleText } from './card-text.js';
import { CardKitCards, type CardKitOp } from './cardkit-cards.js';
import type { FeishuEventEnvelope } from './event-envelopes.js';
import { FaultInjector, type Fault, type FaultMatcher } from './fault-injector.js';
import { ImMessages, type PatchRecord, type SentMessage } from './im-messages.js';
import {
  LongConnection,
  type AckRecord,
  type PingRecord,
  type PushOptions,
  type PushResult,
} from './long-connection.js';
import { RateWindow } from './rate-window.js';
import { TenantTokens } from './tenant-tokens.js';
import { FakeSpeech } from './speech.js';
import { FakeUploads, type UploadRecord } from './uploads.js';
import type { FakeFeishu, FakeFeishuOptions, RequestRecord, TokenRequest } from './fake-feishu-types.js';

export * from './event-envelopes.js';
export { SPEECH_DENIED, type FakeSpeech, type SpeechRequest } from './speech.js';
export type {
  AckRecord,
  CardKitOp,
  Fault,
  FaultMatcher,
  PatchRecord,
  PingRecord,
  PushOptions,
  PushResult,
  SentMessage,
};

/** Options of {@link startFakeFeishuServer}; every field has a test-friendly default. */
export type { FakeFeishu, FakeFeishuOptions, RequestRecord, TokenRequest } from './fake-feishu-types.js';

const TOKEN_PATH = '/open-apis/auth/v3/tenant_access_token/internal';
const ENDPOINT_PATH = '/callback/ws/endpoint';

type Route = {
  method: string;
  re: RegExp;
  run: (m: string[], query: URLSearchParams, body: Record<string, unknown>, appId: string) => ApiReply;
};

class FakeFeishuServer implements FakeFeishu {
  baseUrl = '';
  readonly appSecret: string;
  readonly tokenRequests: TokenRequest[] = [];
  readonly requests: RequestRecord[] = [];
  private readonly server: Server = createServer((req, res) => {
    this.handle(req, res).catch((error: unknown) => {
      // A fake bug must show up as a failed call in the test, not as an unhandled rejection.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 500, msg: `fake-feishu internal error: ${String(error)}` }));
    });
  });
  private readonly faults = new FaultInjector();
  private readonly ws: LongConnection;
  private readonly im: ImMessages;
  private readonly cards: CardKitCards;
  private readonly clock: () => number;
  private readonly delays = new Set<() => void>();
  private closing = false;
  private readonly tokens: TenantTokens;
  private readonly routes: Route[];
  private readonly files = new FakeUploads();
  readonly speech = new FakeSpeech();

  constructor(private readonly opts: FakeFeishuOptions) {
    this.appSecret = opts.appSecret ?? 'fake-app-secret';
    this.tokens = new TenantTokens(this.appSecret);
    this.clock = opts.clock ?? Date.now;
    const limit = opts.rateLimitReply ?? { status: 429, code: FeishuCode.rateLimited };
    const rateLimitReply: ErrorReply = { msg: 'request trigger frequency limit', ...limit };
    this.cards = new CardKitCards(new RateWindow(10, 1000, this.clock), rateLimitReply, this.clock);
    this.im = new ImMessages(this.cards, new RateWindow(5, 1000, this.clock), rateLimitReply, this.clock);
    this.ws = new LongConnection(
      {
        ...(opts.appId === undefined ? {} : { appId: opts.appId }),
        appSecret: this.appSecret,
        pingIntervalS: opts.pingIntervalS ?? 120,
        reconnectIntervalS: opts.reconnectIntervalS ?? 1,
        reconnectNonceS: opts.reconnectNonceS ?? 0,
        ackTimeoutMs: opts.ackTimeoutMs ?? 5000,
      },
      (env) => this.im.learnInbound(env),
    );
    const id = '([^/]+)';
    const im = '/open-apis/im/v1/messages';
    const ck = '/open-apis/cardkit/v1/cards';
    this.routes = [
      { method: 'POST', re: new RegExp(`^${im}$`), run: (_m, q, b, app) => this.im.create(q, b, app) },
      {
        method: 'POST',
        re: new RegExp(`^${im}/${id}/reply$`),
        run: (m, _q, b, app) => this.im.reply(m[1] ?? '', b, app),
      },
      { method: 'PATCH', re: new RegExp(`^${im}/${id}$`), run: (m, _q, b) => this.im.patch(m[1] ?? '', b) },
      {
        method: 'GET',
        re: new RegExp(`^${im}/${id}/resources/${id}$`),
        run: (m, q) => this.im.resource(m[1] ?? '', m[2] ?? '', q),
      },
      { method: 'POST', re: new RegExp(`^${ck}$`), run: (_m, _q, b) => this.cards.create(b) },
      {
        method: 'PUT',
        re: new RegExp(`^${ck}/${id}/elements/${id}/content$`),
        run: (m, _q, b) => this.cards.content(m[1] ?? '', m[2] ?? '', b),
      },
      {
        method: 'PATCH',
        re: new RegExp(`^${ck}/${id}/settings$`),
        run: (m, _q, b) => this.cards.settings(m[1] ?? '', b),
      },
      { method: 'PUT', re: new RegExp(`^${ck}/${id}$`), run: (m, _q, b) => this.cards.update(m[1] ?? '', b) },
      {
        method: 'POST',
        re: /^\/open-apis\/speech_to_text\/v1\/speech\/file_recognize$/,
        run: (_m, _q, b) => this.speech.recognize(b),
      },
    ];
    this.server.on('upgrade', (req, socket, head: Buffer) => {
      if (!this.ws.handleUpgrade(req, socket, head)) socket.destroy();
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get sent(): readonly SentMessage[] {
    return this.im.sent;
  }
  /** Images and files uploaded (`im.v1.image.create` / `im.v1.file.create`). */
  get uploads(): readonly UploadRecord[] {
    return this.files.uploads;
  }
  get patches(): readonly PatchRecord[] {
    return this.im.patches;
  }
  get cardkit(): readonly CardKitOp[] {
    return this.cards.ops;
  }
  get acks(): readonly AckRecord[] {
    return this.ws.acks;
  }
  get pings(): readonly PingRecord[] {
    return this.ws.pings;
  }
  get connectionCount(): number {
    return this.ws.connectionCount;
  }
  get connectionsOpened(): number {
    return this.ws.connectionsOpened;
  }

  pushEvent(envelope: FeishuEventEnvelope, opts?: PushOptions): Promise<PushResult> {
    return this.ws.pushEvent(envelope, opts);
  }
  repush(eventId: string, opts?: Omit<PushOptions, 'eventId'>): Promise<PushResult> {
    return this.ws.repush(eventId, opts);
  }
  dropConnection(): Promise<void> {
    return this.ws.dropConnection();
  }
  waitForConnection(timeoutMs = 5000): Promise<void> {
    return this.ws.waitForConnection(timeoutMs);
  }
  addImage(messageId: string, key: string, bytes: Uint8Array): void {
    this.im.addResource(messageId, key, bytes);
  }
  addFile(messageId: string, key: string, bytes: Uint8Array, fileName: string): void {
    this.im.addResource(messageId, key, bytes, fileName);
  }
  failNext(matcher: FaultMatcher, fault: Fault): void {
    this.faults.add(matcher, fault);
  }
  messagesTo(openId: string): SentMessage[] {
    return this.im.sent.filter((m) => m.to === openId);
  }
  textOf(message: SentMessage | string): string {
    const id = typeof message === 'string' ? message : message.message_id;
    const current = this.im.current(id);
    if (!current) throw new Error(`fake-feishu: unknown message ${id}`);
    return visibleText(current.msg_type, current.content, (cardId) => this.cards.cardJson(cardId));
  }
  cardJson(cardId: string): Record<string, unknown> | undefined {
    return this.cards.cardJson(cardId);
  }

  waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const tick = setInterval(() => {
        let ok = false;
        try {
          ok = predicate();
        } catch (error) {
          clearInterval(tick);
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        if (ok) {
          clearInterval(tick);
          resolve();
        } else if (Date.now() - started > timeoutMs) {
          clearInterval(tick);
          reject(new Error(`fake-feishu: waitFor timed out after ${timeoutMs} ms`));
        }
      }, 10);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const wake of [...this.delays]) wake();
    await this.ws.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://fake');
    const bytes = await readBody(req);
    const raw = bytes.toString('utf8');
    const fault = this.faults.take(method, url.pathname);
    if (fault && 'resetConnection' in fault) {
      this.requests.push({ method, path: url.pathname, status: 0, at: this.clock() });
      req.socket.destroy();
      return;
    }
    if (fault && 'delayMs' in fault) await this.sleep(fault.delayMs);
    if (this.closing) {
      req.socket.destroy();
      return;
    }
    let reply: ApiReply;
    if (fault && 'status' in fault) {
      reply = apiError(fault.status, fault.code ?? fault.status, fault.msg ?? 'injected fault');
    } else {
      const caller = url.pathname.startsWith('/open-apis/im/v1/') ? this.callerOf(req.headers.authorization) : '';
      const upload =
        typeof caller === 'string'
          ? this.files.route(method, url.pathname, req.headers['content-type'], bytes)
          : caller;
      reply = upload ?? this.route(method, url, raw, req.headers.authorization);
    }
    this.requests.push({ method, path: url.pathname, status: reply.status, ...codeOf(reply), at: this.clock() });
    if ('bytes' in reply) {
      const disposition = reply.contentDisposition ? { 'content-disposition': reply.contentDisposition } : {};
      res.writeHead(reply.status, {
        'content-type': reply.contentType,
        'content-length': reply.bytes.length,
        ...disposition,
      });
      res.end(reply.bytes);
      return;
    }
    const text = JSON.stringify(reply.json);
    res.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  }

  private route(method: string, url: URL, raw: string, authorization: string | undefined): ApiReply {
    let body: Record<string, unknown> = {};
    if (raw !== '') {
      const parsed = parseJsonString(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return apiError(400, FeishuCode.invalidParam, 'request body is not a JSON object');
      }
      body = parsed as Record<string, unknown>;
    }
    if (method === 'POST' && url.pathname === TOKEN_PATH) return this.token(body);
    if (method === 'POST' && url.pathname === ENDPOINT_PATH) {
      return this.ws.endpointReply(body, this.baseUrl.replace(/^http/, 'ws'));
    }
    if (!url.pathname.startsWith('/open-apis/')) return apiError(404, 404, 'fake-feishu: no such path');
    const appId = this.callerOf(authorization);
    if (typeof appId !== 'string') return appId;
    for (const route of this.routes) {
      const m = route.method === method ? route.re.exec(url.pathname) : null;
      if (m)
        return route.run(
          [...m].map((s) => decodeURIComponent(s)),
          url.searchParams,
          body,
          appId,
        );
    }
    return apiError(404, 404, `fake-feishu: no API ${method} ${url.pathname}`);
  }

  /**
   * The app id behind `Authorization: Bearer <tenant token>`, which every `/open-apis/` call needs,
   * or the refusal Feishu answers without a valid one.
   */
  private callerOf(authorization: string | undefined): string | ApiReply {
    if (!authorization) {
      return apiError(
        400,
        FeishuCode.missingToken,
        'Missing access token for authorization. Please make a request with token attached.',
      );
    }
    const appId = this.tokens.appOf(/^Bearer (.+)$/.exec(authorization)?.[1] ?? '');
    if (appId === undefined || !this.appIdOk(appId)) {
      return apiError(
        400,
        FeishuCode.invalidToken,
        'Invalid access token for authorization. Please make a request with token attached.',
      );
    }
    return appId;
  }

  private appIdOk(appId: unknown): appId is string {
    if (typeof appId !== 'string') return false;
    return this.opts.appId === undefined ? /^cli_[0-9a-fA-F]{16}$/.test(appId) : appId === this.opts.appId;
  }

  private token(body: Record<string, unknown>): ApiReply {
    const ok = this.appIdOk(body.app_id) && body.app_secret === this.appSecret;
    this.tokenRequests.push({ app_id: String(body.app_id), ok, at: this.clock() });
    if (!ok) return apiError(400, FeishuCode.appSecretInvalid, 'app secret invalid');
    return {
      status: 200,
      json: { code: 0, msg: 'ok', tenant_access_token: this.tokens.issue(body.app_id as string), expire: 7200 },
    };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.delays.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.delays.add(wake);
    });
  }
}

function codeOf(reply: ApiReply): { code?: number } {
  if (!('json' in reply)) return {};
  const code = (reply.json as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? { code } : {};
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.alloc(0)));
  });
}

/**
 * Starts a fake Feishu/Lark Open Platform on 127.0.0.1 (random port): REST (`/open-apis/…`), the
 * long-connection endpoint and its WebSocket, all on one server. Point the real SDK at it with
 * `domain: fake.baseUrl`. Close it in `afterEach`.
 */
export async function startFakeFeishuServer(opts: FakeFeishuOptions = {}): Promise<FakeFeishu> {
  const fake = new FakeFeishuServer(opts);
  await fake.listen();
  return fake;
}
