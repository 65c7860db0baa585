import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ChannelOutbox, ReplyStream } from '../../bridge/channel.js';
import type { ReplyTarget } from '../../bridge/inbound-message.js';
import type { CardAction, CardButton, CardReply, FileReply, Reply } from '../../bridge/reply-model.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { ensurePrivateDir } from '../../store/private-dir.js';
import { WebError } from './http/web-error.js';
import { renderReply, renderSentFile, renderStreamState } from './render-reply.js';
import type { SentFile, SentFiles } from './sent-files.js';
import {
  creationRecord,
  fileOf,
  filesOf,
  tagsOf,
  type AttachedFile,
  type LogRecord,
  type WebMessage,
  type WebMessageView,
} from './web-outbox-records.js';

export type { AttachedFile, WebMessage, WebMessageView } from './web-outbox-records.js';

/** How the outbox is opened: the page's language, the log, who hears of changes, where sent files are copied. */
export interface WebOutboxOptions {
  lang: Language;
  logger: Logger;
  onChange?: (view: WebMessageView) => void;
  /** The folder of the agent's sent files; absent, a sent file shows as one text line. */
  sentFiles?: SentFiles;
}

/** Messages kept in memory and in the file after a compaction (the page history). */
export const OUTBOX_KEEP = 2000;
/** Longest text the bridge sends in one message here (the page has no platform limit; this only bounds one bubble). */
export const WEB_MAX_TEXT_CHUNK = 50_000;
const STREAM_PUBLISH_MS = 100;

/**
 * The web console's `ChannelOutbox`, durable: every send, stream start, update and finish is
 * appended (and fdatasync'd) to `~/.cc-linker/web/outbox.jsonl` (0600) BEFORE the call returns, and
 * the file is replayed on start. So a repeated idempotency key returns the same message id even
 * after a restart (the bridge retries a chunk left `sending` with the same key), a restarted stream
 * re-opens its message by id, and the page history survives restarts. Live stream states are not
 * persisted (only their final card). A torn last line is skipped; the file is compacted on open to
 * one record per message, keeping the newest `OUTBOX_KEEP`.
 */
export class WebOutbox implements ChannelOutbox {
  readonly maxTextChunk = WEB_MAX_TEXT_CHUNK;
  private readonly messages = new Map<string, WebMessage>();
  private readonly byKey = new Map<string, WebMessage>();
  private readonly persisted = new Map<string, Promise<void>>();
  private readonly files = new Map<string, SentFile>();
  private handle: fs.FileHandle | null = null;
  private chain: Promise<void> = Promise.resolve();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  private constructor(
    readonly file: string,
    private readonly o: WebOutboxOptions & { onChange: (view: WebMessageView) => void },
  ) {}

  /** Opens (creating 0700/0600 as needed), replays and compacts the log. */
  static async open(file: string, o: WebOutboxOptions): Promise<WebOutbox> {
    const box = new WebOutbox(file, { ...o, onChange: o.onChange ?? (() => undefined) });
    await ensurePrivateDir(path.dirname(file));
    const { lines, clean } = await box.replay();
    // A torn last line (crash mid-append) must not swallow the next record: rewrite the file.
    if (!clean || lines > box.messages.size + 100 || box.messages.size > OUTBOX_KEEP) await box.compact();
    box.handle = await fs.open(file, 'a', 0o600);
    await box.handle.chmod(0o600);
    return box;
  }

  /** Records a message the page sent (in session `sessionId`'s view, when given), so the history shows both sides. */
  async recordUser(id: string, text: string, sessionId?: string, files?: AttachedFile[]): Promise<WebMessageView> {
    const existing = this.messages.get(id);
    if (existing) return this.view(existing);
    const at = new Date().toISOString();
    const m: WebMessage = { id, kind: 'user', text, at, ...tagsOf({ sessionId }), ...filesOf({ files }) };
    this.add(m);
    await this.persist(m.id, { op: 'user', id, text, at: m.at, ...tagsOf(m), ...filesOf(m) });
    return this.emit(m);
  }

  async send(
    target: ReplyTarget,
    reply: Reply,
    idempotencyKey: string,
    keep?: () => Promise<SentFile>,
  ): Promise<{ messageId: string }> {
    const existing = this.byKey.get(idempotencyKey);
    if (existing) {
      await this.persisted.get(existing.id);
      return { messageId: existing.id };
    }
    const at = new Date().toISOString();
    const m: WebMessage = { id: newId(), kind: 'reply', key: idempotencyKey, reply, at, ...tagsOf(target) };
    this.add(m);
    const file = keep ? keep() : undefined;
    const kept = (async () => {
      if (file) m.file = await file;
      if (m.file) this.files.set(m.file.id, m.file);
      await this.append({ op: 'send', id: m.id, key: idempotencyKey, reply, at, ...tagsOf(m), ...fileOf(m) });
    })();
    this.persisted.set(m.id, kept);
    try {
      await kept;
    } catch (err) {
      this.drop(m);
      throw err;
    }
    this.emit(m);
    return { messageId: m.id };
  }

  /**
   * A file the agent sent: copied now into the private sent folder (`SentFiles`), then shown as a
   * file card with a download link (an image inline); the text line is what a console without the
   * folder shows. A repeated key returns the first message and copies nothing again.
   */
  sendFile(target: ReplyTarget, file: FileReply, idempotencyKey: string): Promise<{ messageId: string }> {
    const line = `📎 ${file.name} (${file.size} B)${file.caption ? ` — ${file.caption}` : ''}`;
    const sent = this.o.sentFiles;
    return this.send(target, { kind: 'text', text: line }, idempotencyKey, sent && (() => sent.keep(file)));
  }

  /** The file the agent sent under `id`, when this outbox wrote it (the download route serves only these). */
  sentFile(id: string): SentFile | undefined {
    return this.files.get(id);
  }

  async update(messageId: string, reply: Reply): Promise<void> {
    const m = this.require(messageId);
    m.reply = reply;
    m.streaming = false;
    delete m.live;
    delete m.liveButtons;
    await this.append({ op: 'update', id: messageId, reply, at: new Date().toISOString() });
    this.emit(m);
  }

  async openStream(
    target: ReplyTarget,
    idempotencyKey: string,
    options: { existingMessageId?: string; buttons?: CardButton[] } = {},
  ): Promise<ReplyStream> {
    let m =
      (options.existingMessageId ? this.messages.get(options.existingMessageId) : undefined) ??
      this.byKey.get(idempotencyKey);
    if (m) {
      await this.persisted.get(m.id);
      // A card sent before the run (a "Queued" card) becomes the stream: live updates show again.
      if (options.existingMessageId && !m.streaming) {
        m.streaming = true;
        delete m.reply;
      }
    } else {
      const at = new Date().toISOString();
      m = { id: newId(), kind: 'reply', key: idempotencyKey, at, streaming: true, ...tagsOf(target) };
      this.add(m);
      await this.persist(m.id, { op: 'stream', id: m.id, key: idempotencyKey, at: m.at, ...tagsOf(m) });
      this.emit(m);
    }
    const msg = m;
    if (options.buttons?.length) msg.liveButtons = options.buttons;
    else delete msg.liveButtons;
    return {
      messageId: msg.id,
      update: (state) => {
        if (!msg.streaming) return;
        msg.live = { ...state };
        this.schedule(msg);
      },
      finish: async (final: CardReply) => {
        this.cancelTimer(msg.id);
        msg.reply = final;
        msg.streaming = false;
        delete msg.live;
        delete msg.liveButtons;
        await this.append({ op: 'finish', id: msg.id, reply: final, at: new Date().toISOString() });
        this.emit(msg);
        return { overflow: '' };
      },
    };
  }

  /** A new session's reply learns the session's id (the engine reported it after the card opened). */
  async sessionKnown(messageId: string, sessionId: string): Promise<void> {
    const m = this.messages.get(messageId);
    if (!m || m.sessionId === sessionId) return;
    m.sessionId = sessionId;
    await this.append({ op: 'session', id: messageId, sessionId, at: new Date().toISOString() });
    this.emit(m);
  }

  /** The newest `limit` messages, oldest first, as the page renders them. */
  history(limit = 200): WebMessageView[] {
    return [...this.messages.values()].slice(-limit).map((m) => this.view(m));
  }

  /** The action of button `index` on a stored reply, or null — a click can only trigger what was rendered. */
  buttonAction(messageId: string, index: number): CardAction | null {
    const m = this.messages.get(messageId);
    if (!Number.isInteger(index)) return null;
    if (m?.streaming) return m.liveButtons?.[index]?.action ?? null;
    const reply = m?.reply;
    if (!reply || reply.kind !== 'card') return null;
    return reply.buttons?.[index]?.action ?? null;
  }

  /** Renders one message for the page. */
  view(m: WebMessage): WebMessageView {
    const base = { id: m.id, kind: m.kind, at: m.at, streaming: m.streaming === true, ...tagsOf(m) };
    if (m.kind === 'user') return { ...base, text: m.text ?? '', ...filesOf(m) };
    const live = m.live ?? { phase: 'processing' as const, text: '', thinking: '', toolCount: 0, elapsedMs: 0 };
    return {
      ...base,
      html: m.file
        ? renderSentFile(m.file, this.o.lang)
        : m.reply && !m.streaming
          ? renderReply(m.reply)
          : renderStreamState(live, this.o.lang, m.liveButtons),
    };
  }

  async close(): Promise<void> {
    for (const id of [...this.timers.keys()]) this.cancelTimer(id);
    await this.chain;
    await this.handle?.close();
    this.handle = null;
  }

  private add(m: WebMessage): void {
    this.messages.set(m.id, m);
    if (m.key) this.byKey.set(m.key, m);
    if (m.file) this.files.set(m.file.id, m.file);
  }

  /** Forgets a message whose creation record could not be written (a failed copy, a failed append). */
  private drop(m: WebMessage): void {
    this.messages.delete(m.id);
    if (m.key && this.byKey.get(m.key) === m) this.byKey.delete(m.key);
    this.persisted.delete(m.id);
  }

  private require(messageId: string): WebMessage {
    const m = this.messages.get(messageId);
    if (!m || m.kind !== 'reply') throw new WebError('WEB_UNKNOWN_MESSAGE', { messageId }, this.o.lang);
    return m;
  }

  private emit(m: WebMessage): WebMessageView {
    const v = this.view(m);
    try {
      this.o.onChange(v);
    } catch (err) {
      this.o.logger.warn('publishing a console message failed', { err });
    }
    return v;
  }

  private schedule(m: WebMessage): void {
    if (this.timers.has(m.id)) return;
    const timer = setTimeout(() => {
      this.timers.delete(m.id);
      if (m.streaming) this.emit(m);
    }, STREAM_PUBLISH_MS);
    timer.unref();
    this.timers.set(m.id, timer);
  }

  private cancelTimer(id: string): void {
    const t = this.timers.get(id);
    if (t) clearTimeout(t);
    this.timers.delete(id);
  }

  /** Appends the creation record; concurrent callers with the same key wait on the same promise. */
  private persist(id: string, record: LogRecord): Promise<void> {
    const p = this.append(record);
    this.persisted.set(id, p);
    return p;
  }

  private append(record: LogRecord): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    const run = this.chain.then(async () => {
      if (!this.handle) throw new Error('web outbox is closed');
      await this.handle.appendFile(line, 'utf8');
      await this.handle.datasync();
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async replay(): Promise<{ lines: number; clean: boolean }> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: 0, clean: true };
      throw err;
    }
    const lines = text.split('\n').filter((l) => l.trim());
    let bad = 0;
    for (const line of lines) {
      let r: LogRecord;
      try {
        r = JSON.parse(line) as LogRecord;
      } catch {
        bad += 1;
        continue;
      }
      if (!r || typeof r !== 'object' || typeof r.id !== 'string') continue;
      if (r.op === 'user') this.add({ id: r.id, kind: 'user', text: r.text, at: r.at, ...tagsOf(r), ...filesOf(r) });
      else if (r.op === 'send')
        this.add({ id: r.id, kind: 'reply', key: r.key, reply: r.reply, at: r.at, ...tagsOf(r), ...fileOf(r) });
      else if (r.op === 'stream')
        this.add({ id: r.id, kind: 'reply', key: r.key, at: r.at, streaming: true, ...tagsOf(r) });
      else if (r.op === 'session') {
        const m = this.messages.get(r.id);
        if (m && typeof r.sessionId === 'string') m.sessionId = r.sessionId;
      } else if (r.op === 'update' || r.op === 'finish') {
        const m = this.messages.get(r.id);
        if (m) {
          m.reply = r.reply;
          m.streaming = false;
        }
      }
    }
    if (bad > 0) this.o.logger.warn('skipped unreadable lines in the web outbox', { file: this.file, lines: bad });
    return { lines: lines.length, clean: bad === 0 && (text === '' || text.endsWith('\n')) };
  }

  /** Rewrites the log as one record per message (newest `OUTBOX_KEEP`), atomically. */
  private async compact(): Promise<void> {
    const kept = [...this.messages.values()].slice(-OUTBOX_KEEP);
    this.messages.clear();
    this.byKey.clear();
    const out: string[] = [];
    for (const m of kept) {
      this.add(m);
      out.push(JSON.stringify(creationRecord(m)));
    }
    await writeFileAtomic(this.file, out.length ? `${out.join('\n')}\n` : '', { mode: 0o600 });
  }
}

function newId(): string {
  return `wm_${randomUUID()}`;
}
