import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { parseJsonText } from '../../store/read-json-file.js';
import { deliveryUuid } from './message-key.js';
import type { Spool } from './spool.js';

/** One outbound piece of a reply: chunk 0 is usually the streamed card, the rest text that did not fit in it. */
export interface DeliveryChunk {
  index: number;
  /** `sending`: the request was made (the platform may or may not have it); `sent`: confirmed. */
  status: 'sending' | 'sent';
  requestUuid: string;
  platformMessageId?: string;
  streaming?: boolean;
  sentAt?: string;
  /**
   * For a streamed chunk 0: the part of the answer that did not fit in the card, recorded in the
   * same atomic write that marks the chunk sent, so a crash cannot lose the rest of the answer.
   */
  overflow?: string;
}

export interface DeliveryRecord {
  messageId: string;
  status: 'sending' | 'sent';
  chunks: DeliveryChunk[];
  updatedAt: string;
}

/**
 * Per-chunk delivery receipts under `spool/deliveries/`. The rule they enforce: once a chunk is
 * `sent` it is never sent again; a chunk left `sending` is retried with the SAME request uuid, so
 * the platform's idempotency turns the retry into a no-op if the first attempt got through.
 */
export class Deliveries {
  constructor(private readonly spool: Spool) {}

  async get(messageId: string): Promise<DeliveryRecord | null> {
    const file = this.spool.pathOf('deliveries', messageId);
    try {
      return parseJsonText<DeliveryRecord>(file, await fs.readFile(file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async save(record: DeliveryRecord): Promise<void> {
    record.updatedAt = new Date().toISOString();
    await writeFileAtomic(this.spool.pathOf('deliveries', record.messageId), JSON.stringify(record));
  }

  /** The record for a message, created empty when there is none yet. */
  async load(messageId: string): Promise<DeliveryRecord> {
    return (
      (await this.get(messageId)) ?? { messageId, status: 'sending', chunks: [], updatedAt: new Date().toISOString() }
    );
  }

  /** The chunk entry for `index`, created (status `sending`, stable uuid) when missing. */
  static chunk(record: DeliveryRecord, index: number, streaming = false): DeliveryChunk {
    let chunk = record.chunks.find((c) => c.index === index);
    if (!chunk) {
      chunk = { index, status: 'sending', requestUuid: deliveryUuid(record.messageId, index), streaming };
      record.chunks.push(chunk);
      record.chunks.sort((a, b) => a.index - b.index);
    }
    return chunk;
  }

  /** True when the message's reply was confirmed delivered in full. */
  async isFullySent(messageId: string): Promise<boolean> {
    return (await this.get(messageId))?.status === 'sent';
  }
}
