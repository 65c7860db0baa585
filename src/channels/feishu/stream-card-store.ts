import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../core/logger.js';
import { makePrivateDir } from '../../core/private-dir.js';

/** A CardKit card entity a streamed reply lives in. */
export interface StreamCardRecord {
  /** The delivery's idempotency key (the stream's `uuid`). */
  key: string;
  cardId: string;
  /** The message that shows the card, once sent. */
  messageId?: string;
  /** ms epoch of the card's creation: the base of its CardKit `sequence` numbers. */
  createdAt: number;
  /**
   * Sequence floor set each time a process resumes the card after a restart: the previous
   * process's numbers plus a day's worth of headroom, so a wall clock stepped back meanwhile
   * cannot make the next numbers repeat old ones (Feishu refuses those).
   */
  floor?: number;
}

/** Headroom a resumed card's sequence gets: a day's worth of 10 ms steps. */
export const RESUME_SEQUENCE_HEADROOM = 8_640_000;

/** Card entities live 14 days on Feishu's side; older records are useless. */
export const CARD_MAX_AGE_MS = 14 * 24 * 3600 * 1000;
const MAX_RECORDS = 1_000;

/**
 * Which CardKit card belongs to which delivery key and message, kept in a small JSON file
 * (`~/.cc-linker/runtime/feishu-stream-cards.json`, 0600) so that after a restart the bridge's
 * `openStream(…, {existingMessageId})` resumes the same card entity instead of losing it; without
 * a file it works in memory only.
 *
 * Also hands out CardKit `sequence` numbers: strictly increasing per card, derived from the time
 * since the card was created (in 10 ms steps, fewer than 10 ops/s are ever sent) so a process that
 * resumes a card after a restart continues above the numbers the previous process used.
 */
export class StreamCardStore {
  private records: StreamCardRecord[] | undefined;
  private readonly lastSequence = new Map<string, number>();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string | undefined,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async byKey(key: string): Promise<StreamCardRecord | undefined> {
    return (await this.load()).find((r) => r.key === key);
  }

  async byCardId(cardId: string): Promise<StreamCardRecord | undefined> {
    return (await this.load()).find((r) => r.cardId === cardId);
  }

  async byMessageId(messageId: string): Promise<StreamCardRecord | undefined> {
    return (await this.load()).find((r) => r.messageId === messageId);
  }

  /**
   * Marks a card as resumed by this process (after a restart): its next sequence numbers start
   * above anything the previous process can have used, whatever the wall clock did in between.
   * Persisted, so a second restart keeps climbing.
   */
  async resume(record: StreamCardRecord): Promise<StreamCardRecord> {
    if (this.lastSequence.has(record.cardId)) return record;
    const byTime = Math.floor(Math.max(0, this.now() - record.createdAt) / 10) + 1;
    const resumed = { ...record, floor: Math.max(byTime, record.floor ?? 0) + RESUME_SEQUENCE_HEADROOM };
    await this.save(resumed);
    return resumed;
  }

  /** Adds or replaces the record of `record.key` and persists (errors are logged, not thrown). */
  async save(record: StreamCardRecord): Promise<void> {
    const records = (await this.load()).filter(
      (r) => r.key !== record.key && this.now() - r.createdAt < CARD_MAX_AGE_MS,
    );
    records.push(record);
    this.records = records.slice(-MAX_RECORDS);
    const snapshot = JSON.stringify({ version: 1, cards: this.records });
    this.writing = this.writing
      .then(() => this.write(snapshot))
      .catch((err: unknown) => this.logger.warn('could not persist stream card ids', { err }));
    await this.writing;
  }

  /** The next CardKit `sequence` for `record`'s card (strictly increasing, also across restarts). */
  nextSequence(record: StreamCardRecord): number {
    const byTime = Math.floor(Math.max(0, this.now() - record.createdAt) / 10) + 1;
    const next = Math.max(byTime, record.floor ?? 0, (this.lastSequence.get(record.cardId) ?? 0) + 1);
    this.lastSequence.set(record.cardId, next);
    return next;
  }

  private async load(): Promise<StreamCardRecord[]> {
    if (this.records) return this.records;
    let records: StreamCardRecord[] = [];
    if (this.file) {
      try {
        const parsed = JSON.parse(await fs.readFile(this.file, 'utf8')) as { cards?: unknown };
        records = Array.isArray(parsed.cards) ? parsed.cards.filter(isRecord) : [];
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          this.logger.warn('stream card ids unreadable, starting afresh', { err });
      }
    }
    this.records ??= records;
    return this.records;
  }

  private async write(text: string): Promise<void> {
    if (!this.file) return;
    await makePrivateDir(path.dirname(this.file));
    const tmp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    try {
      await fs.rename(tmp, this.file);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }
}

function isRecord(value: unknown): value is StreamCardRecord {
  const r = value as Partial<StreamCardRecord> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.key === 'string' &&
    typeof r.cardId === 'string' &&
    typeof r.createdAt === 'number' &&
    (r.messageId === undefined || typeof r.messageId === 'string')
  );
}
