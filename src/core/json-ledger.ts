import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDir } from './private-dir.js';
import type { Logger } from './logger.js';

interface Entry<T> {
  value: T;
  at: number;
}

/**
 * A small key → value map kept in one private JSON file (0600 in a 0700 folder), newest
 * `maxEntries` only, written whole through a temporary file and a rename after every change (a
 * reader sees the old or the new file, never half of one). Without `file` it lives in memory.
 * A missing or unreadable file starts empty (logged): what it holds can be rebuilt or expire.
 */
export class JsonLedger<T> {
  private entries = new Map<string, Entry<T>>();
  private loaded: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string | undefined,
    private readonly logger: Logger,
    private readonly maxEntries = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<T | undefined> {
    await this.load();
    return this.entries.get(key)?.value;
  }

  async set(key: string, value: T): Promise<void> {
    await this.load();
    this.entries.delete(key);
    this.entries.set(key, { value, at: this.now() });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    await this.save();
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      if (!this.file) return;
      try {
        const raw = JSON.parse(await fs.readFile(this.file, 'utf8')) as Record<string, Entry<T>>;
        const sorted = Object.entries(raw).sort((a, b) => a[1].at - b[1].at);
        this.entries = new Map(sorted);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          this.logger.warn('ledger file unreadable, starting empty', { file: this.file, err });
      }
    })();
    return this.loaded;
  }

  private save(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const text = JSON.stringify(Object.fromEntries(this.entries));
    this.writing = this.writing.then(async () => {
      await makePrivateDir(path.dirname(file));
      const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      await fs.writeFile(tmp, text, { mode: 0o600 });
      await fs.rename(tmp, file);
    });
    return this.writing;
  }
}
