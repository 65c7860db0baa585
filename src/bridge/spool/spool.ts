import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { renameDurable } from '../../store/durable-rename.js';
import { ensurePrivateDir } from '../../store/private-dir.js';
import { parseJsonText } from '../../store/read-json-file.js';
import { messageFileName } from './message-key.js';
import { SPOOL_STATES, type SpoolRecord, type SpoolState } from './spool-record.js';

/**
 * The durable message queue on disk (see docs/design.md#spool-states-and-delivery). A message lives as one JSON file in exactly one
 * state directory (`pending/ processing/ replied/ done/ failed/ cancelled/`); moves are atomic renames, so after
 * a crash the directory a file is in *is* its state. `receipts/` remembers every accepted message id
 * (the de-duplication source of truth across restarts) and `deliveries/` records outbound chunks.
 * Any in-memory structure elsewhere is only a cache of this.
 */
export class Spool {
  readonly dir: string;
  /**
   * Writes and moves of one message run one after another, in the order they were asked for: two
   * parts of the bridge may save the same record at once (a stop and the run's outcome), and a
   * later write must never be overtaken by an earlier one, nor recreate a file a move took away.
   */
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Creates the directory layout (0700). */
  async init(): Promise<void> {
    for (const sub of [...SPOOL_STATES, 'receipts', 'deliveries']) await ensurePrivateDir(path.join(this.dir, sub));
  }

  pathOf(state: SpoolState | 'receipts' | 'deliveries', messageId: string): string {
    return path.join(this.dir, state, messageFileName(messageId));
  }

  /** The state a message is in, or null if the spool has never seen it (receipts aside). */
  async locate(messageId: string): Promise<SpoolState | null> {
    for (const state of SPOOL_STATES) {
      if (await exists(this.pathOf(state, messageId))) return state;
    }
    return null;
  }

  async hasReceipt(messageId: string): Promise<boolean> {
    return exists(this.pathOf('receipts', messageId));
  }

  /**
   * Persists a newly accepted message: the message file first (temp + fsync + rename into
   * `pending/`), then its receipt. A crash between the two leaves the message in `pending/`, which
   * `locate` still finds, so a re-push is recognised either way (and the restart runs it). A
   * receipt that cannot be written (a full disk) removes the message file again before the error
   * goes up: nothing queued it, so the platform's re-push must find nothing and be accepted.
   */
  async enqueue(record: SpoolRecord): Promise<void> {
    const pending = this.pathOf('pending', record.message.id);
    await writeFileAtomic(pending, JSON.stringify(record));
    try {
      await this.writeReceipt(record.message.id, record.message.channel, record.acceptedAt);
    } catch (err) {
      await fs.rm(pending, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Records that a message was accepted. Not fsynced: while the message file exists (fsynced, and
   * kept for a day in `done/`), `locate` recognises a re-push on its own; the receipt only has to
   * outlive it, which a page-cache write does long before retention removes the message.
   */
  async writeReceipt(messageId: string, channel: string, acceptedAt: string): Promise<void> {
    await writeFileAtomic(this.pathOf('receipts', messageId), JSON.stringify({ messageId, channel, acceptedAt }), {
      durable: false,
    });
  }

  async read(state: SpoolState, messageId: string): Promise<SpoolRecord | null> {
    return readRecord(this.pathOf(state, messageId));
  }

  /**
   * Rewrites a record in place (e.g. progress inside `processing/`). `durable: false` skips the
   * fsyncs: the write survives a crash of the process (not a power cut) — for a step that must not
   * wait for the disk, whose record a durable write follows soon.
   */
  async write(state: SpoolState, record: SpoolRecord, options: { durable?: boolean } = {}): Promise<void> {
    const text = JSON.stringify(record);
    await this.inTurn(record.message.id, () =>
      writeFileAtomic(this.pathOf(state, record.message.id), text, options.durable === false ? { durable: false } : {}),
    );
  }

  /**
   * Moves a message between states. Moves into `replied/`, `done/` and `failed/` skip the directory
   * fsyncs: if a power cut loses one, the file is found in `processing/` again and the reconciler
   * finalizes it from its delivery record, which was made durable before — so only the moves that
   * decide what runs next (`pending ↔ processing`) pay for durability.
   */
  async move(messageId: string, from: SpoolState, to: SpoolState): Promise<void> {
    const final = to === 'replied' || to === 'done' || to === 'failed' || to === 'cancelled';
    await this.inTurn(messageId, () =>
      renameDurable(this.pathOf(from, messageId), this.pathOf(to, messageId), { sync: !final }),
    );
  }

  /** Runs `step` after every write or move of `messageId` asked for before it has settled. */
  private async inTurn<T>(messageId: string, step: () => Promise<T>): Promise<T> {
    const before = this.chains.get(messageId) ?? Promise.resolve();
    const mine = before.then(step, step);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(messageId, settled);
    try {
      return await mine;
    } finally {
      if (this.chains.get(messageId) === settled) this.chains.delete(messageId);
    }
  }

  /**
   * All records in a state, in arrival order: by `seq`, which `accept()` counts up and a start
   * continues from the highest one in `pending/` (the wall clock may jump back; `acceptedAt` only
   * breaks ties). Unreadable files are reported in `broken` (with their path) instead of stopping
   * the caller.
   */
  async list(state: SpoolState): Promise<{ records: SpoolRecord[]; broken: string[] }> {
    const dir = path.join(this.dir, state);
    let names: string[] = [];
    try {
      names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    } catch {
      return { records: [], broken: [] };
    }
    const records: SpoolRecord[] = [];
    const broken: string[] = [];
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        const r = await readRecord(file);
        if (r) records.push(r);
      } catch {
        broken.push(file);
      }
    }
    records.sort((a, b) => a.seq - b.seq || (a.acceptedAt < b.acceptedAt ? -1 : a.acceptedAt > b.acceptedAt ? 1 : 0));
    return { records, broken };
  }

  /**
   * Deletes temp files (`.<name>.<pid>.<random>.tmp`) that an atomic write left behind when the
   * process was killed mid-write. Only safe while no other writer runs (under the owner lock).
   */
  async removeTempFiles(): Promise<number> {
    let removed = 0;
    for (const sub of [...SPOOL_STATES, 'receipts', 'deliveries']) {
      const dir = path.join(this.dir, sub);
      let names: string[] = [];
      try {
        names = await fs.readdir(dir);
      } catch {
        continue;
      }
      for (const name of names.filter((n) => n.startsWith('.') && n.endsWith('.tmp'))) {
        await fs.rm(path.join(dir, name), { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  /** Number of files in a state directory (for overload checks and `/status`). */
  async count(state: SpoolState): Promise<number> {
    try {
      return (await fs.readdir(path.join(this.dir, state))).filter((n) => n.endsWith('.json') && !n.startsWith('.'))
        .length;
    } catch {
      return 0;
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

async function readRecord(file: string): Promise<SpoolRecord | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return parseJsonText<SpoolRecord>(file, text);
}
