import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { FakeAiCards } from './fake-ai-cards.js';
import { FakeMediaStore } from './fake-media-store.js';
import { callName, OpenApiFaults, type AnswerListener } from './openapi-faults.js';

/**
 * A local DingTalk on 127.0.0.1 (node:http + ws) for the real `dingtalk-stream` client and our
 * OpenAPI calls: the Stream gateway (`POST /v1.0/gateway/connections/open` checks the client id
 * and secret and hands out a one-time ticket, checked on the WebSocket upgrade), SYSTEM pings,
 * CALLBACK pushes that wait for an ack by `messageId` and are pushed again when none comes within
 * `ackTimeoutMs`, the OAuth token (401 for a bad or expired token on every other call), robot
 * `batchSend`, `messageFiles/download` + the file, a `sessionWebhook`, and AI cards
 * (createAndDeliver once per outTrackId into a robot single chat, streaming, instances update),
 * and the legacy `POST /media/upload` (`media`, `FakeMediaStore`). `failNext` answers the next calls with 429 / 5xx;
 * `faults` aims 429 / 5xx / resets / flow control at one call and counts the answers (`openapi-faults.ts`).
 */
export const FAKE_CLIENT_ID = 'dingfakeclientid0001';
export const FAKE_CLIENT_SECRET = 'fake-dingtalk-secret-0123456789abcdefXYZ';

/** Longest markdown text the fake takes (the figure the channel keeps under; DingTalk names none). */
export const MAX_MARKDOWN = 5_000;

export interface SentMessage {
  userId: string;
  msgKey: string;
  title: string;
  text: string;
  processQueryKey: string;
  /** The whole `msgParam` (a file message's `mediaId`, `fileName`, `fileType`). */
  param: Record<string, unknown>;
  /** When DingTalk answered the send. */
  sentAt: number;
}

export interface Push {
  messageId: string;
  data: Record<string, unknown>;
  /** Times pushed (1 = never re-pushed). */
  pushes: number;
  acked: boolean;
  ackBody?: unknown;
}

export interface FakeDingTalkOptions {
  clientId?: string;
  clientSecret?: string;
  /** Re-push a CALLBACK not acked within this time (default 2 s) … */
  ackTimeoutMs?: number;
  /** … at most this many times (default 3). */
  maxRepushes?: number;
}

type Json = Record<string, unknown>;
/** Marks a batchSend answered "flow controlled" (nothing delivered: not counted as answered). */
const FLOW_CONTROLLED = 'x-fake-flow-controlled';

export class FakeDingTalk {
  apiBase = '';
  readonly clientId: string;
  readonly clientSecret: string;
  readonly sent: SentMessage[] = [];
  readonly pushes = new Map<string, Push>();
  readonly webhook: Json[] = [];
  /** AI cards (`fake-ai-cards.ts`). */
  readonly aiCards = new FakeAiCards();
  get cardCalls(): FakeAiCards['calls'] {
    return this.aiCards.calls;
  }
  get cards(): FakeAiCards['cards'] {
    return this.aiCards.cards;
  }
  readonly gatewayCalls: Json[] = [];
  /** `media/upload`: the uploads (`media.uploads`) and the size cap (`media.maxBytes`). */
  readonly media = new FakeMediaStore();
  /** SYSTEM ping answers the client sent back. */
  readonly pongs: Json[] = [];
  tokenCalls = 0;
  /** Stream connections opened so far. */
  connectionsOpened = 0;
  /** OpenAPI requests served (gateway, webhook and file downloads not counted). */
  requests = 0;
  /** Fault switches per call, answers per call and their listeners. */
  readonly faults = new OpenApiFaults();
  /** When true the gateway answers 503 and open sockets are closed (an outage). */
  down = false;
  /** When true open sockets stop answering WebSocket pings (a half-open connection). */
  silent = false;
  private readonly tokens = new Set<string>();
  private readonly tickets = new Set<string>();
  private readonly files = new Map<string, { bytes: Buffer; type: string }>();
  private readonly sockets = new Set<WebSocket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextMsg = 1;
  private readonly server: http.Server;
  private readonly wss: WebSocketServer;

  constructor(private readonly o: FakeDingTalkOptions = {}) {
    this.clientId = o.clientId ?? FAKE_CLIENT_ID;
    this.clientSecret = o.clientSecret ?? FAKE_CLIENT_SECRET;
    this.server = http.createServer((req, res) => void this.route(req, res));
    this.wss = new WebSocketServer({ noServer: true, autoPong: false });
    this.server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const ticket = url.searchParams.get('ticket') ?? '';
      if (url.pathname !== '/connect' || this.down || !this.tickets.delete(ticket)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onSocket(ws));
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.apiBase = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Open Stream connections. */
  get connections(): number {
    return [...this.sockets].filter((s) => s.readyState === s.OPEN).length;
  }

  /** A robot message `data` in the single chat of `staffId` (defaults filled in; `over` wins). */
  robotMessage(staffId: string, text: string, over: Json = {}): Json {
    const msgId = `msg${this.nextMsg++}${randomBytes(3).toString('hex')}`;
    return {
      conversationId: `cid-${staffId}`,
      conversationType: '1',
      msgId,
      msgtype: 'text',
      text: { content: ` ${text}` },
      senderStaffId: staffId,
      senderId: `$:LWCP_v1:$${staffId}`,
      senderNick: staffId,
      chatbotUserId: 'bot',
      robotCode: this.clientId,
      sessionWebhook: `${this.apiBase}/robot/sendBySession?session=${staffId}`,
      sessionWebhookExpiredTime: Date.now() + 90 * 60_000,
      createAt: Date.now(),
      ...over,
    };
  }

  /** Pushes `data` as a CALLBACK on the open connection; re-pushed (same messageId) until acked. */
  push(data: Json, topic = '/v1.0/im/bot/messages/get'): Push {
    const messageId = `frame-${randomBytes(6).toString('hex')}`;
    const entry: Push = { messageId, data, pushes: 0, acked: false };
    this.pushes.set(messageId, entry);
    const send = () => {
      if (entry.acked) return;
      if (entry.pushes > (this.o.maxRepushes ?? 3)) return;
      entry.pushes += 1;
      this.sendFrame(entry, topic);
      this.later(send, this.o.ackTimeoutMs ?? 2_000);
    };
    send();
    return entry;
  }

  /** A SYSTEM ping on every connection (the SDK answers it with the same data). */
  ping(): void {
    const frame = {
      specVersion: '1.0',
      type: 'SYSTEM',
      headers: { contentType: 'application/json', messageId: `ping-${this.nextMsg++}`, topic: 'ping', time: '0' },
      data: JSON.stringify({ opaque: 'p' }),
    };
    for (const s of this.sockets) s.send(JSON.stringify(frame));
  }

  /** Sends `text` as it is on every connection (e.g. a malformed frame). */
  sendRaw(text: string): void {
    for (const s of this.sockets) s.send(text);
  }

  /** A file `messageFiles/download` hands out for `downloadCode`. */
  addFile(downloadCode: string, bytes: Buffer, type = 'image/png'): void {
    this.files.set(downloadCode, { bytes, type });
  }

  /** Every access token handed out so far stops working (401), as after its expiry. */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** The next `times` OpenAPI calls (not the gateway) answer `status`. */
  failNext(status: number, times: number): void {
    this.faults.failNext('*', { status, times });
  }

  /** Listens for successful OpenAPI answers (see `AnswerListener`). */
  onAnswer(listener: AnswerListener): void {
    this.faults.onAnswer(listener);
  }

  /** Successful answers per call name (`batchSend`, `accessToken`, …). */
  get answered(): Map<string, number> {
    return this.faults.answered;
  }

  /** Pushes an already acked CALLBACK again, same frame (DingTalk's re-push when it missed the ack). */
  redeliver(push: Push, topic = '/v1.0/im/bot/messages/get'): void {
    push.pushes += 1;
    this.sendFrame(push, topic);
  }

  private sendFrame(push: Push, topic: string): void {
    const { messageId } = push;
    const headers = { appId: this.clientId, connectionId: 'c', contentType: 'application/json', messageId, topic };
    const data = JSON.stringify(push.data);
    const frame = { specVersion: '1.0', type: 'CALLBACK', headers: { ...headers, time: `${Date.now()}` }, data };
    for (const s of this.sockets) if (s.readyState === s.OPEN) s.send(JSON.stringify(frame));
  }

  /** Closes every Stream connection (the client reconnects through the gateway). */
  dropConnections(): void {
    for (const s of this.sockets) s.terminate();
  }

  messagesTo(userId: string): SentMessage[] {
    return this.sent.filter((m) => m.userId === userId);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private later(fn: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private onSocket(ws: WebSocket): void {
    this.sockets.add(ws);
    this.connectionsOpened += 1;
    ws.on('ping', (data) => {
      if (!this.silent) ws.pong(data);
    });
    ws.on('close', () => this.sockets.delete(ws));
    ws.on('message', (raw) => {
      let msg: Json;
      try {
        msg = JSON.parse(String(raw)) as Json;
      } catch {
        return;
      }
      const headers = (msg.headers ?? {}) as Json;
      const id = typeof headers.messageId === 'string' ? headers.messageId : '';
      if (headers.topic === 'ping') this.pongs.push(msg);
      const push = this.pushes.get(id);
      if (push && msg.code === 200) {
        push.acked = true;
        push.ackBody = typeof msg.data === 'string' ? JSON.parse(msg.data) : msg.data;
      }
    });
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/media/upload') return this.upload(req, res, bytes, url);
    const raw = bytes.toString('utf8');
    let body: Json = {};
    try {
      body = raw ? (JSON.parse(raw) as Json) : {};
    } catch {
      return this.answer(res, 400, { code: 'InvalidJson', message: 'body is not JSON' });
    }
    const p = url.pathname;
    if (req.method === 'GET' && p.startsWith('/files/')) {
      const file = this.files.get(decodeURIComponent(p.slice('/files/'.length)));
      if (!file) return this.answer(res, 404, { code: 'NotFound' });
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length });
      return void res.end(file.bytes);
    }
    if (p === '/v1.0/gateway/connections/open') return this.gateway(res, body);
    if (p === '/robot/sendBySession') {
      this.webhook.push({ session: url.searchParams.get('session'), ...body });
      return this.answer(res, 200, { errcode: 0, errmsg: 'ok' });
    }
    const call = callName(p);
    this.requests += 1;
    const fault = this.faults.take(call, (f) => !f.flowControlled);
    if (fault?.reset) return void req.socket.destroy();
    if (fault) {
      if (fault.retryAfter) res.setHeader('retry-after', String(fault.retryAfter));
      return this.answer(res, fault.status ?? 500, { code: 'Throttling', message: 'fake failure' });
    }
    this.openApi(req, res, p, body);
    if (res.writableEnded && res.statusCode === 200 && !res.hasHeader(FLOW_CONTROLLED)) this.faults.answeredNow(call);
  }

  private openApi(req: http.IncomingMessage, res: http.ServerResponse, p: string, body: Json): void {
    if (p === '/v1.0/oauth2/accessToken') {
      this.tokenCalls += 1;
      if (body.appKey !== this.clientId || body.appSecret !== this.clientSecret)
        return this.answer(res, 400, { code: 'invalidClientIdOrSecret', message: '无效的clientId或者clientSecret' });
      const token = `tok-${randomBytes(8).toString('hex')}`;
      this.tokens.add(token);
      return this.answer(res, 200, { accessToken: token, expireIn: 7200 });
    }
    const token = req.headers['x-acs-dingtalk-access-token'];
    if (typeof token !== 'string' || !this.tokens.has(token))
      return this.answer(res, 401, { code: 'InvalidAuthentication', message: '不合法的access_token' });
    if (p === '/v1.0/robot/oToMessages/batchSend') return this.batchSend(res, body);
    if (p === '/v1.0/robot/messageFiles/download') {
      if (body.robotCode !== this.clientId) return this.answer(res, 400, { code: 'invalidRobotCode' });
      const code = String(body.downloadCode);
      if (!this.files.has(code)) return this.answer(res, 400, { code: 'invalidDownloadCode' });
      return this.answer(res, 200, { downloadUrl: `${this.apiBase}/files/${encodeURIComponent(code)}` });
    }
    if (p.startsWith('/v1.0/card/')) return this.card(res, `${req.method} ${p}`, body);
    return this.answer(res, 404, { code: 'NotFound', message: p });
  }

  private async upload(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer, url: URL): Promise<void> {
    if (req.method !== 'POST') return this.answer(res, 405, { errcode: 43002, errmsg: '需要POST请求' });
    const fault = this.faults.take('upload', (f) => !f.flowControlled);
    if (fault?.reset) return void req.socket.destroy();
    if (fault) return this.answer(res, fault.status ?? 500, { errcode: 90018, errmsg: 'fake failure' });
    const [status, body] = await this.media.upload(
      req.headers['content-type'] ?? '',
      raw,
      url.searchParams,
      this.tokens,
    );
    this.answer(res, status, body);
  }

  private gateway(res: http.ServerResponse, body: Json): void {
    this.gatewayCalls.push({ ...body, clientSecret: body.clientSecret === this.clientSecret ? 'ok' : 'wrong' });
    if (this.down) return this.answer(res, 503, { code: 'ServiceUnavailable' });
    if (body.clientId !== this.clientId || body.clientSecret !== this.clientSecret)
      return this.answer(res, 401, { code: 'InvalidAuthentication', message: 'clientId or clientSecret invalid' });
    const ticket = randomBytes(12).toString('hex');
    this.tickets.add(ticket);
    this.answer(res, 200, { endpoint: `${this.apiBase.replace('http', 'ws')}/connect`, ticket });
  }

  /** AI cards: created once per outTrackId into a robot single chat, then streamed / updated. */
  private card(res: http.ServerResponse, call: string, body: Json): void {
    const [status, answer] = this.aiCards.handle(call, body, this.clientId);
    this.answer(res, status, answer);
  }

  private batchSend(res: http.ServerResponse, body: Json): void {
    const users = Array.isArray(body.userIds) ? body.userIds.map(String) : [];
    if (body.robotCode !== this.clientId || users.length === 0 || typeof body.msgParam !== 'string')
      return this.answer(res, 400, { code: 'invalidParameter', message: 'robotCode, userIds and msgParam required' });
    const param = JSON.parse(body.msgParam) as Json;
    if (String(param.text ?? '').length > MAX_MARKDOWN)
      return this.answer(res, 400, { code: 'invalidParameter', message: 'msgParam.text too long' });
    const refused = this.media.refuse(String(body.msgKey), param);
    if (refused) return this.answer(res, 400, { code: 'invalidParameter', message: refused });
    const processQueryKey = `pqk-${randomBytes(6).toString('hex')}`;
    // Flow control: answered 200, the users listed, nothing delivered.
    if (this.faults.take('batchSend', (f) => f.flowControlled === true))
      return this.answer(res.setHeader(FLOW_CONTROLLED, '1'), 200, {
        processQueryKey,
        invalidStaffIdList: [],
        flowControlledStaffIdList: users,
      });
    for (const userId of users)
      this.sent.push({
        userId,
        msgKey: String(body.msgKey),
        title: String(param.title ?? ''),
        text: String(param.text ?? param.content ?? ''),
        processQueryKey,
        param,
        sentAt: Date.now(),
      });
    this.answer(res, 200, { processQueryKey, invalidStaffIdList: [], flowControlledStaffIdList: [] });
  }

  private answer(res: http.ServerResponse, status: number, body: Json): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

export async function startFakeDingTalk(o: FakeDingTalkOptions = {}): Promise<FakeDingTalk> {
  return new FakeDingTalk(o).listen();
}
