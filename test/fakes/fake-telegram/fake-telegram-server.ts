import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMultipart } from './multipart.js';
import type { FakeMessage, InjectedFault } from './fake-telegram-types.js';
import { FakeWebhook, type WebhookDeliveryOptions } from './fake-webhook.js';
import { parseTelegramHtml } from './telegram-html.js';

export type { FakeMessage, InjectedFault } from './fake-telegram-types.js';

/**
 * A local Telegram Bot API on 127.0.0.1 (node:http only) that the real grammY talks to through
 * `client.apiRoot`. Every call is `POST /bot<token>/<method>` (JSON), answered `{ok, result}` or
 * `{ok:false, error_code, description, parameters?}` as Telegram does; a wrong token is 401.
 * Long polling: updates get ids from 1, `getUpdates` holds until one arrives or `timeout`
 * seconds pass, and an `offset` confirms (drops) every update below it.
 */
export const FAKE_BOT_TOKEN = '123456789:AAFakeTokenForTests_0123456789abcdef';
export const MAX_TEXT = 4096;

export interface BotApiCall {
  method: string;
  body: Record<string, unknown>;
}

export type Update = Record<string, unknown> & { update_id: number };
type Reply =
  { ok: true; result: unknown } | { ok: false; error_code: number; description: string; parameters?: unknown };

const bad = (description: string): Reply => ({
  ok: false,
  error_code: 400,
  description: `Bad Request: ${description}`,
});
export const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

export class FakeTelegram {
  readonly token: string;
  apiRoot = '';
  readonly calls: BotApiCall[] = [];
  readonly messages: FakeMessage[] = [];
  /** Files `getFile` knows: file_id → bytes. */
  readonly files = new Map<string, Buffer>();
  /** Answers of answerCallbackQuery, by query id. */
  readonly answers = new Map<string, string | undefined>();
  /** How many getUpdates calls confirmed something, and the latest offset. */
  confirmedOffset = 0;
  private updates: Update[] = [];
  private nextUpdateId = 1;
  private nextMessageId = 1;
  private readonly polls = new Set<() => void>();
  private readonly rateLimits = new Map<string, { times: number; retryAfter: number }>();
  private readonly faults: Array<{ method: string; fault: InjectedFault }> = [];
  /** Calls answered with an injected fault (`rateLimit`, `failNext`). */
  injected = 0;
  /** Successful answers per method. */
  readonly answered = new Map<string, number>();
  /** How many times each update was handed out by `getUpdates`. */
  readonly deliveries = new Map<number, number>();
  private readonly answerListeners = new Set<(method: string) => void>();
  private readonly pendingQueries = new Set<string>();
  private readonly server: http.Server;
  /** Webhook mode (`fake-webhook.ts`): set, pending updates are POSTed to it and `getUpdates` is a 409. */
  readonly webhook: FakeWebhook;

  constructor(token = FAKE_BOT_TOKEN, webhook: WebhookDeliveryOptions = {}) {
    this.token = token;
    const first = () => [...this.updates].sort((a, b) => a.update_id - b.update_id)[0];
    const confirm = (id: number) => (this.updates = this.updates.filter((u) => u.update_id !== id));
    this.webhook = new FakeWebhook({ next: first, confirm, count: () => this.pending() }, webhook);
    this.server = http.createServer((req, res) => void this.route(req, res));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.apiRoot = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The user `from` writes `text` (or sends `photo`) in their private chat; returns the update. */
  pushMessage(from: number, text: string, over: Record<string, unknown> = {}): Update {
    const message_id = this.nextMessageId++;
    const chat = { id: from, type: 'private', first_name: `user${from}` };
    return this.push({
      message: {
        message_id,
        date: 1_700_000_000,
        chat,
        from: { id: from, is_bot: false, first_name: chat.first_name },
        text,
        ...over,
      },
    });
  }

  /** The user clicks the button carrying `data` on `message`; returns the update (its query id). */
  pushCallback(from: number, message: FakeMessage, data: string): Update & { callback_query: { id: string } } {
    const id = `cbq${this.nextUpdateId}`;
    this.pendingQueries.add(id);
    const chat = { id: message.chat_id, type: 'private' };
    return this.push({
      callback_query: {
        id,
        from: { id: from, is_bot: false, first_name: `user${from}` },
        chat_instance: 'ci1',
        data,
        message: { message_id: message.message_id, date: 1_700_000_000, chat, text: message.visible },
      },
    }) as Update & { callback_query: { id: string } };
  }

  /** Queues any update again with its original id (Telegram re-delivering an unconfirmed one). */
  redeliver(update: Update): void {
    this.updates.push(update);
    this.wake();
  }

  /** The next `times` calls of `method` get 429 with `retry_after` seconds. */
  rateLimit(method: string, times: number, retryAfter = 1): void {
    this.rateLimits.set(method, { times, retryAfter });
  }

  /**
   * The next `times` calls of `method` (`*` = any but `getUpdates`) fail: a status (429 carries
   * `retry_after`) or, with `reset`, the connection is destroyed before the call is carried out.
   */
  failNext(method: string, fault: InjectedFault): void {
    this.faults.push({ method, fault: { ...fault } });
  }

  /** Calls `listener(method)` right after each successful answer is written (until it returns true). */
  onAnswer(listener: (method: string) => boolean | void): void {
    const wrapped = (method: string) => {
      if (listener(method) === true) this.answerListeners.delete(wrapped);
    };
    this.answerListeners.add(wrapped);
  }

  /** Destroys every open connection (pending long polls and requests in flight); the server keeps listening. */
  dropConnections(): void {
    for (const wake of this.polls) wake();
    this.server.closeAllConnections();
  }

  /** Messages in `chat`, in order. */
  chat(chatId: number): FakeMessage[] {
    return this.messages.filter((m) => m.chat_id === chatId);
  }

  callsOf(method: string): BotApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Updates not yet confirmed by an offset. */
  pending(): number {
    return this.updates.length;
  }

  async close(): Promise<void> {
    this.webhook.close();
    for (const wake of this.polls) wake();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private push(body: Record<string, unknown>): Update {
    const update = { update_id: this.nextUpdateId++, ...body };
    this.updates.push(update);
    this.wake();
    return update;
  }

  private wake(): void {
    this.webhook.kick();
    for (const wake of [...this.polls]) wake();
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
    };
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file) {
      const bytes = file[1] === this.token ? this.files.get(decodeURIComponent(file[2] ?? '')) : undefined;
      if (!bytes) return send(404, { ok: false, error_code: 404, description: 'Not Found' });
      return send(200, bytes, 'application/octet-stream');
    }
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!m || m[1] !== this.token) return send(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = m[2] ?? '';
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBytes = Buffer.concat(chunks);
    const raw = rawBytes.toString('utf8');
    let body: Record<string, unknown> = {};
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('multipart/form-data')) {
      for (const part of parseMultipart(rawBytes, type)) {
        if (part.filename !== undefined) body[part.name] = { filename: part.filename, bytes: part.data };
        else {
          const text = part.data.toString('utf8');
          body[part.name] = /^[[{]/.test(text) ? (JSON.parse(text) as unknown) : text;
        }
      }
    } else {
      try {
        body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
      } catch {
        return send(400, bad('invalid JSON'));
      }
    }
    this.calls.push({ method, body });
    const i = this.faults.findIndex((f) => f.method === method || (f.method === '*' && method !== 'getUpdates'));
    const fault = i >= 0 ? this.faults[i]?.fault : undefined;
    if (fault) {
      fault.times -= 1;
      if (fault.times <= 0) this.faults.splice(i, 1);
      this.injected += 1;
      if (fault.reset) return void req.socket.destroy();
      const status = fault.status ?? 500;
      const retry = status === 429 ? { parameters: { retry_after: fault.retryAfter ?? 1 } } : {};
      return send(status, { ok: false, error_code: status, description: `injected ${status}`, ...retry });
    }
    const limit = this.rateLimits.get(method);
    if (limit && limit.times > 0) {
      limit.times -= 1;
      this.injected += 1;
      const retry_after = limit.retryAfter;
      return send(429, {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${retry_after}`,
        parameters: { retry_after },
      });
    }
    const reply =
      method === 'getUpdates'
        ? (this.webhook.conflict() ?? (await this.getUpdates(body, req)))
        : (this.webhook.call(method, body) ?? this.handle(method, body));
    send(reply.ok ? 200 : reply.error_code, reply);
    if (reply.ok) {
      this.answered.set(method, (this.answered.get(method) ?? 0) + 1);
      for (const listener of [...this.answerListeners]) listener(method);
    }
  }

  private async getUpdates(body: Record<string, unknown>, req: http.IncomingMessage): Promise<Reply> {
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    if (offset > 0) {
      this.updates = this.updates.filter((u) => u.update_id >= offset);
      this.confirmedOffset = Math.max(this.confirmedOffset, offset);
    }
    const limit = typeof body.limit === 'number' ? body.limit : 100;
    const timeout = typeof body.timeout === 'number' ? body.timeout : 0;
    if (this.updates.length === 0 && timeout > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.polls.delete(done);
          req.off('close', done);
          resolve();
        };
        const timer = setTimeout(done, timeout * 1000);
        this.polls.add(done);
        req.on('close', done);
      });
    }
    const batch = [...this.updates].sort((a, b) => a.update_id - b.update_id).slice(0, limit);
    for (const u of batch) this.deliveries.set(u.update_id, (this.deliveries.get(u.update_id) ?? 0) + 1);
    return { ok: true, result: batch };
  }

  private handle(method: string, b: Record<string, unknown>): Reply {
    const me = {
      id: 999,
      is_bot: true,
      first_name: 'cc-linker test',
      username: 'cc_linker_test_bot',
      can_join_groups: false,
    };
    switch (method) {
      case 'getMe':
        return { ok: true, result: me };
      case 'sendMessage': {
        const checked = this.checkText(b);
        if ('error' in checked) return checked.error;
        const msg: FakeMessage = {
          message_id: this.nextMessageId++,
          chat_id: Number(b.chat_id),
          text: String(b.text),
          visible: checked.visible,
          edits: 0,
          firstVisible: checked.visible,
          sentAt: Date.now(),
          ...(typeof b.parse_mode === 'string' ? { parse_mode: b.parse_mode } : {}),
          ...(b.reply_markup ? { reply_markup: b.reply_markup as FakeMessage['reply_markup'] } : {}),
          ...(isObj(b.reply_parameters) ? { reply_to: Number(b.reply_parameters.message_id) } : {}),
        };
        this.messages.push(msg);
        return { ok: true, result: this.asMessage(msg, me) };
      }
      case 'editMessageText': {
        const msg = this.messages.find((x) => x.chat_id === Number(b.chat_id) && x.message_id === Number(b.message_id));
        if (!msg) return bad('message to edit not found');
        const checked = this.checkText(b);
        if ('error' in checked) return checked.error;
        const markup = b.reply_markup as FakeMessage['reply_markup'] | undefined;
        if (msg.text === String(b.text) && JSON.stringify(msg.reply_markup) === JSON.stringify(markup))
          return bad(NOT_MODIFIED);
        msg.text = String(b.text);
        msg.visible = checked.visible;
        msg.edits += 1;
        if (markup) msg.reply_markup = markup;
        else delete msg.reply_markup;
        return { ok: true, result: this.asMessage(msg, me) };
      }
      case 'answerCallbackQuery': {
        const id = String(b.callback_query_id);
        if (!this.pendingQueries.delete(id))
          return bad('query is too old and response timeout expired or query ID is invalid');
        this.answers.set(id, typeof b.text === 'string' ? b.text : undefined);
        return { ok: true, result: true };
      }
      case 'sendPhoto':
      case 'sendDocument': {
        const kind = method === 'sendPhoto' ? 'photo' : 'document';
        // grammY names the file part and points the field at it: `photo: "attach://<part name>"`.
        const ref = b[kind];
        const upload = (typeof ref === 'string' && ref.startsWith('attach://') ? b[ref.slice(9)] : ref) as
          { filename?: string; bytes?: Buffer } | undefined;
        if (!upload?.bytes || upload.bytes.length === 0) return bad(`there is no ${kind} in the request`);
        if (kind === 'photo' && upload.bytes.length > 10 * 1024 * 1024) return bad('PHOTO_INVALID_DIMENSIONS');
        const msg: FakeMessage = {
          message_id: this.nextMessageId++,
          chat_id: Number(b.chat_id),
          text: '',
          visible: '',
          edits: 0,
          firstVisible: '',
          sentAt: Date.now(),
          file: { kind, bytes: upload.bytes, ...(upload.filename ? { name: upload.filename } : {}) },
          ...(isObj(b.reply_parameters) ? { reply_to: Number(b.reply_parameters.message_id) } : {}),
        };
        this.messages.push(msg);
        return { ok: true, result: this.asMessage(msg, me) };
      }
      case 'getFile': {
        const id = String(b.file_id);
        const bytes = this.files.get(id);
        if (!bytes) return bad('invalid file_id');
        // The Bot API hands bots files up to 20 MB only.
        if (bytes.length > 20 * 1024 * 1024) return bad('file is too big');
        return { ok: true, result: { file_id: id, file_unique_id: `u${id}`, file_size: bytes.length, file_path: id } };
      }
      default:
        return { ok: false, error_code: 404, description: 'Not Found: method not found' };
    }
  }

  private checkText(b: Record<string, unknown>): { visible: string } | { error: Reply } {
    const text = typeof b.text === 'string' ? b.text : '';
    let visible = text;
    if (b.parse_mode === 'HTML') {
      const parsed = parseTelegramHtml(text);
      if (!parsed.ok) return { error: { ok: false, error_code: 400, description: parsed.description } };
      visible = parsed.visible;
    }
    if (visible.trim() === '') return { error: bad('message text is empty') };
    if (visible.length > MAX_TEXT) return { error: bad('message is too long') };
    for (const row of (b.reply_markup as FakeMessage['reply_markup'])?.inline_keyboard ?? [])
      for (const button of row)
        if (
          button.callback_data !== undefined &&
          !(Buffer.byteLength(button.callback_data) >= 1 && Buffer.byteLength(button.callback_data) <= 64)
        )
          return { error: bad('BUTTON_DATA_INVALID') };
    return { visible };
  }

  private asMessage(m: FakeMessage, me: Record<string, unknown>): Record<string, unknown> {
    return {
      message_id: m.message_id,
      date: 1_700_000_000,
      chat: { id: m.chat_id, type: 'private' },
      from: me,
      text: m.visible,
      ...(m.reply_markup ? { reply_markup: m.reply_markup } : {}),
    };
  }
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

export async function startFakeTelegram(token?: string, webhook?: WebhookDeliveryOptions): Promise<FakeTelegram> {
  return new FakeTelegram(token, webhook).listen();
}
