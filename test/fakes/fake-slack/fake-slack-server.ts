import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BOT_SCOPES } from '../../../src/channels/slack/bot-scopes.js';
import { parseMultipart } from '../fake-telegram/multipart.js';
import { buttonsOf, decodeMrkdwn, messageProblem, mrkdwnProblem, visibleOf, type FakeButton } from './slack-blocks.js';
import { SocketModeHub, type Envelope } from './socket-mode-hub.js';

/**
 * A local Slack on 127.0.0.1 (node:http + ws) that the real Bolt talks to through
 * `clientOptions.slackApiUrl`: the Web API as form-encoded `POST /api/<method>` with the token in
 * `Authorization: Bearer` (the app token for `apps.connections.open`, the bot token for the rest;
 * a wrong one answers `invalid_auth`), errors as HTTP 200 `{ok:false,error}`, 429 with
 * `Retry-After` when switched on; Socket Mode through `SocketModeHub`; `url_private` downloads.
 */
export const FAKE_BOT_TOKEN = 'xoxb-0000-1111-FakeBotTokenForTests';
export const FAKE_APP_TOKEN = 'xapp-1-A0FAKEAPP-2222-FakeAppTokenForTests';
export const BOT_USER_ID = 'U0BOTUSER';
export const BOT_ID = 'B0BOT';
export const TEAM_ID = 'T0FAKE';

export interface FakeSlackMessage {
  channel: string;
  ts: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
  /** What the user sees (blocks' text, entities decoded). */
  visible: string;
  buttons: FakeButton[];
  edits: number;
  /** What the user saw when it was posted (an orphaned copy keeps it) and when Slack answered the post. */
  firstVisible: string;
  sentAt: number;
  /** A shared file (files.uploadV2): its name, title and bytes; `text` is the initial comment. */
  file?: { id: string; name: string; title?: string; bytes: Buffer };
}

export interface ApiCall {
  method: string;
  body: Record<string, unknown>;
}

/** A message event the fake pushed, with its envelope (for `redeliver`). */
export interface PushedEvent {
  event: Record<string, unknown> & { ts: string; channel: string };
  envelope: Envelope;
}

type Reply = Record<string, unknown> & { ok: boolean };

/** An injected Web API failure: HTTP `status` (429 with `Retry-After: retryAfter`), or the connection reset. */
export interface SlackFault {
  status?: number;
  retryAfter?: number;
  reset?: boolean;
  times: number;
}

/** Called in the same tick as the fake wrote its answer to `method`; returning true removes it. */
export type AnswerListener = (method: string) => boolean;

export class FakeSlack {
  readonly botToken: string;
  readonly appToken: string;
  apiUrl = '';
  readonly calls: ApiCall[] = [];
  readonly messages: FakeSlackMessage[] = [];
  /** `chat.postEphemeral`: what one user alone was shown. */
  readonly ephemerals: Array<{ channel: string; user: string; text: string }> = [];
  readonly hub: SocketModeHub;
  /** Files a user shared: id → bytes (downloaded from `url_private` with the bot token). */
  readonly files = new Map<string, { name: string; mimetype: string; bytes: Buffer }>();
  /** Ids of the files fetched from their `url_private` (each fetch once). */
  readonly downloads: string[] = [];
  private base = '';
  private clock = 1_700_000_000_000;
  private nextEvent = 1;
  private readonly rateLimits = new Map<string, { times: number; retryAfter: number }>();
  private readonly faults = new Map<string, SlackFault>();
  private listeners: AnswerListener[] = [];
  /** Answers written per method (injected failures not counted), and how many failures were injected. */
  readonly answered = new Map<string, number>();
  injected = 0;
  /** Methods answered `{ok:false, error}` with this code (e.g. `missing_scope`) until removed. */
  readonly refusals = new Map<string, string>();
  /**
   * The bot token's scopes, sent like Slack in an `x-oauth-scopes` header (comma-separated, no
   * spaces) on every answer to a bot-token call; `undefined` sends no header. Default: all the
   * channel needs.
   */
  scopes: string[] | undefined = Object.keys(BOT_SCOPES);
  /** Uploads in progress (files.getUploadURLExternal → POST → files.completeUploadExternal), by file id. */
  private readonly uploads = new Map<string, { name: string; length: number; bytes?: Buffer }>();
  private readonly server: http.Server;

  constructor(botToken = FAKE_BOT_TOKEN, appToken = FAKE_APP_TOKEN) {
    this.botToken = botToken;
    this.appToken = appToken;
    this.server = http.createServer((req, res) => void this.route(req, res));
    this.hub = new SocketModeHub(this.server);
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.apiUrl = `${this.base}/api/`;
    return this;
  }

  /** The DM channel id between the bot and `user`. */
  dm(user: string): string {
    return `D${user.slice(1)}`;
  }

  /** `user` writes `text` in their DM with the bot (or anywhere, with `over`); returns event + envelope. */
  pushMessage(user: string, text: string, over: Record<string, unknown> = {}): PushedEvent {
    const ts = this.ts();
    const event = {
      type: 'message',
      channel: this.dm(user),
      user,
      text,
      ts,
      event_ts: ts,
      channel_type: 'im',
      ...over,
    } as PushedEvent['event'];
    const payload = {
      token: 'verification-token',
      team_id: TEAM_ID,
      api_app_id: 'A0FAKEAPP',
      type: 'event_callback',
      event_id: `Ev${String(this.nextEvent++).padStart(8, '0')}`,
      event_time: Math.floor(this.clock / 1000),
      authorizations: [{ team_id: TEAM_ID, user_id: BOT_USER_ID, is_bot: true }],
      event,
    };
    return { event, envelope: this.hub.send('events_api', payload) };
  }

  /** Slack sends the same event again (same event_id), as after a missed ack. */
  redeliver(pushed: PushedEvent, attempt = 1): Envelope {
    return this.hub.send('events_api', pushed.envelope.payload, attempt);
  }

  /** `user` clicks `button` on `message`; returns the interactive envelope (its id is what the ack names). */
  pushClick(user: string, message: FakeSlackMessage, button: FakeButton): Envelope {
    return this.hub.send('interactive', {
      type: 'block_actions',
      user: { id: user, username: `user-${user}`, team_id: TEAM_ID },
      api_app_id: 'A0FAKEAPP',
      token: 'verification-token',
      team: { id: TEAM_ID, domain: 'fake' },
      channel: { id: message.channel, name: 'directmessage' },
      container: { type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: false },
      message: { type: 'message', ts: message.ts, text: message.text, blocks: message.blocks ?? [], user: BOT_USER_ID },
      trigger_id: `trig${this.nextEvent++}`,
      response_url: `${this.base}/response/${message.ts}`,
      actions: [
        {
          type: 'button',
          action_id: button.action_id,
          block_id: button.block_id ?? 'b',
          value: button.value,
          text: { type: 'plain_text', text: button.text },
          action_ts: this.ts(),
        },
      ],
    });
  }

  /** A file the user shares; its `url_private_download` needs the bot token. */
  addFile(id: string, name: string, mimetype: string, bytes: Buffer): Record<string, unknown> {
    this.files.set(id, { name, mimetype, bytes });
    const url = `${this.base}/files-pri/${TEAM_ID}-${id}/${encodeURIComponent(name)}`;
    return { id, name, mimetype, size: bytes.length, url_private: url, url_private_download: `${url}?download=1` };
  }

  /** The next `times` calls of `method` answer HTTP 429 with `Retry-After: retryAfter`. */
  rateLimit(method: string, times: number, retryAfter = 1): void {
    this.rateLimits.set(method, { times, retryAfter });
  }

  /**
   * The next `times` calls of `method` (`*`: any method but `apps.connections.open`) fail: HTTP
   * `status` (a 429 with `Retry-After`) or a reset connection (no answer at all).
   */
  failNext(method: string, fault: SlackFault): void {
    this.faults.set(method, { ...fault });
  }

  /** Listens for the fake's answers (see `AnswerListener`). */
  onAnswer(listener: AnswerListener): void {
    this.listeners.push(listener);
  }

  /** Cuts every Socket Mode connection without a goodbye (the client must notice and reconnect). */
  dropConnections(): void {
    for (const ws of this.hub.open()) ws.terminate();
  }

  /** The bot's messages in `channel`, in order. */
  inChannel(channel: string): FakeSlackMessage[] {
    return this.messages.filter((m) => m.channel === channel);
  }

  callsOf(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  async close(): Promise<void> {
    this.hub.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private ts(): string {
    this.clock += 1;
    return `${Math.floor(this.clock / 1000)}.${String((this.clock % 1000) * 1000).padStart(6, '0')}`;
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
    };
    const auth = req.headers.authorization ?? '';
    const file = /^\/files-pri\/[^/]+-([^/]+)\//.exec(url.pathname);
    if (file) {
      const f = this.files.get(file[1] ?? '');
      if (auth !== `Bearer ${this.botToken}`) return send(403, { ok: false, error: 'not_authed' });
      if (!f) return send(404, { ok: false, error: 'file_not_found' });
      this.downloads.push(file[1] ?? '');
      res.writeHead(200, { 'content-type': f.mimetype, 'content-length': String(f.bytes.length) });
      return void res.end(f.bytes);
    }
    const upload = /^\/upload\/([A-Z0-9]+)$/.exec(url.pathname);
    if (upload) {
      const job = this.uploads.get(upload[1] ?? '');
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (!job) return send(404, { ok: false, error: 'file_not_found' });
      const type = req.headers['content-type'] ?? '';
      const raw = Buffer.concat(chunks);
      job.bytes = type.startsWith('multipart/form-data')
        ? (parseMultipart(raw, type)[0]?.data ?? Buffer.alloc(0))
        : raw;
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(`OK - ${job.bytes.length}`);
    }
    const m = /^\/api\/([A-Za-z.]+)$/.exec(url.pathname);
    if (!m || req.method !== 'POST') return send(404, { ok: false, error: 'unknown_method' });
    const method = m[1] ?? '';
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
      body[k] = /^[[{]/.test(v) ? (JSON.parse(v) as unknown) : v;
    this.calls.push({ method, body });
    const limit = this.rateLimits.get(method);
    if (limit && limit.times > 0) {
      limit.times -= 1;
      return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(limit.retryAfter) });
    }
    const fault = [this.faults.get(method), method === 'apps.connections.open' ? undefined : this.faults.get('*')].find(
      (f) => f !== undefined && f.times > 0,
    );
    if (fault && fault.times > 0) {
      fault.times -= 1;
      this.injected += 1;
      if (fault.reset) return void req.socket.destroy();
      const headers: Record<string, string> = fault.retryAfter ? { 'retry-after': String(fault.retryAfter) } : {};
      return send(
        fault.status ?? 500,
        { ok: false, error: fault.status === 429 ? 'ratelimited' : 'fatal_error' },
        headers,
      );
    }
    const token = method === 'apps.connections.open' ? this.appToken : this.botToken;
    if (auth !== `Bearer ${token}`) return send(200, { ok: false, error: 'invalid_auth' });
    const refusal = this.refusals.get(method);
    const reply = refusal ? { ok: false, error: refusal } : this.handle(method, body);
    const granted = method === 'apps.connections.open' ? ['connections:write'] : this.scopes;
    send(200, reply, granted ? { 'x-oauth-scopes': granted.join(',') } : {});
    if (!reply.ok) return;
    this.answered.set(method, (this.answered.get(method) ?? 0) + 1);
    this.listeners = this.listeners.filter((l) => !l(method));
  }

  private handle(method: string, b: Record<string, unknown>): Reply {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://fake.slack.com/',
          team: 'Fake Team',
          user: 'cc-linker',
          team_id: TEAM_ID,
          user_id: BOT_USER_ID,
          bot_id: BOT_ID,
        };
      case 'apps.connections.open':
        return { ok: true, url: `${this.base.replace('http', 'ws')}/link/?ticket=${this.hub.ticket()}` };
      case 'chat.postMessage': {
        const text = typeof b.text === 'string' ? b.text : '';
        const blocks = Array.isArray(b.blocks) ? (b.blocks as unknown[]) : undefined;
        const problem = messageProblem(text, blocks);
        if (problem) return { ok: false, error: problem };
        if (typeof b.channel !== 'string' || !/^[DCG]/.test(b.channel))
          return { ok: false, error: 'channel_not_found' };
        const msg: FakeSlackMessage = {
          channel: b.channel,
          ts: this.ts(),
          text,
          ...(blocks ? { blocks } : {}),
          ...(typeof b.thread_ts === 'string' ? { thread_ts: b.thread_ts } : {}),
          visible: visibleOf(text, blocks),
          buttons: buttonsOf(blocks),
          edits: 0,
          firstVisible: visibleOf(text, blocks),
          sentAt: Date.now(),
        };
        this.messages.push(msg);
        return { ok: true, channel: msg.channel, ts: msg.ts, message: { type: 'message', text, ts: msg.ts } };
      }
      case 'chat.update': {
        const msg = this.messages.find((x) => x.channel === b.channel && x.ts === b.ts);
        if (!msg) return { ok: false, error: 'message_not_found' };
        const text = typeof b.text === 'string' ? b.text : msg.text;
        const blocks = Array.isArray(b.blocks) ? (b.blocks as unknown[]) : msg.blocks;
        const problem = messageProblem(text, blocks);
        if (problem) return { ok: false, error: problem };
        msg.text = text;
        if (blocks) msg.blocks = blocks;
        msg.visible = visibleOf(text, blocks);
        msg.buttons = buttonsOf(blocks);
        msg.edits += 1;
        return { ok: true, channel: msg.channel, ts: msg.ts, text };
      }
      case 'conversations.open':
        // The app's DM with one user is `dm(user)`; the fake knows no group DMs.
        if (typeof b.users !== 'string' || !/^[UW][A-Z0-9]+$/.test(b.users))
          return { ok: false, error: 'user_not_found' };
        return { ok: true, channel: { id: this.dm(b.users) } };
      case 'chat.postEphemeral': {
        if (typeof b.channel !== 'string' || typeof b.user !== 'string' || typeof b.text !== 'string')
          return { ok: false, error: 'invalid_arguments' };
        if (mrkdwnProblem(b.text)) return { ok: false, error: 'invalid_text' };
        this.ephemerals.push({ channel: b.channel, user: b.user, text: decodeMrkdwn(b.text) });
        return { ok: true, message_ts: this.ts() };
      }
      case 'files.getUploadURLExternal': {
        const length = Number(b.length);
        if (typeof b.filename !== 'string' || !Number.isSafeInteger(length) || length <= 0)
          return { ok: false, error: 'invalid_arguments' };
        const id = `F${String(this.uploads.size + 1).padStart(6, '0')}`;
        this.uploads.set(id, { name: b.filename, length });
        return { ok: true, upload_url: `${this.base}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const files = Array.isArray(b.files) ? (b.files as Array<{ id?: string; title?: string }>) : [];
        if (typeof b.channel_id !== 'string') return { ok: false, error: 'invalid_arguments' };
        const done = [];
        for (const f of files) {
          const job = this.uploads.get(f.id ?? '');
          if (!job?.bytes || job.bytes.length !== job.length) return { ok: false, error: 'file_upload_failed' };
          const text = typeof b.initial_comment === 'string' ? b.initial_comment : '';
          this.messages.push({
            channel: b.channel_id,
            ts: this.ts(),
            text,
            visible: visibleOf(text, undefined),
            buttons: [],
            edits: 0,
            firstVisible: visibleOf(text, undefined),
            sentAt: Date.now(),
            file: { id: f.id ?? '', name: job.name, ...(f.title ? { title: f.title } : {}), bytes: job.bytes },
          });
          done.push({ id: f.id, name: job.name, title: f.title });
        }
        return { ok: true, files: done };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}

export async function startFakeSlack(botToken?: string, appToken?: string): Promise<FakeSlack> {
  return new FakeSlack(botToken, appToken).listen();
}
