import { createHash, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Logger } from '../../../core/logger.js';
import type { Paths } from '../../../core/paths.js';
import { writeFileAtomic } from '../../../store/atomic-write.js';
import { readJsonFile } from '../../../store/read-json-file.js';

/** How long a console login lasts, and how many are kept. */
export interface LoginLimits {
  /** From the login on, whatever happens (the cookie's `Max-Age` too). */
  maxAgeMs: number;
  /** Without a request. */
  idleMs: number;
  /** Logins kept at once; a new one past this ends the least recently used. */
  max: number;
}

/** 30 days from the login, 7 idle days, 32 logins (a phone, a few browsers, and room to spare). */
export const LOGIN_LIMITS: LoginLimits = { maxAgeMs: 30 * 24 * 3600_000, idleMs: 7 * 24 * 3600_000, max: 32 };

/** A request refreshes a login's stored "last seen" at most this often (so browsing writes no file). */
const SEEN_WRITE_MS = 3600_000;
/** Bytes of randomness in a login id (rendered as 43 base64url characters). */
const ID_BYTES = 32;
const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

interface Login {
  /** SHA-256 of the id, hex: what the store and the file know a login by. */
  hash: string;
  created: number;
  seen: number;
  /** `seen` as last written to the file. */
  savedSeen: number;
}

interface LoginFile {
  version: 1;
  /** `tokenTag` of the token the logins were made with; another tag means none of them count. */
  token: string;
  logins: Array<{ hash: string; created: number; seen: number }>;
}

/** `~/.cc-linker/web/logins.json`, where the console keeps its logins (hashes only). */
export function loginStoreFile(paths: Pick<Paths, 'home'>): string {
  return path.join(paths.home, 'web', 'logins.json');
}

/** A tag of the token that says which token a store belongs to and reveals nothing of it. */
export function tokenTag(token: string): string {
  return createHmac('sha256', token).update('cc-linker console logins v1').digest('base64url');
}

/**
 * The console's logins. Logging in makes a random 256-bit id, which only the browser's cookie
 * holds; the store knows each login by the SHA-256 of its id, with its creation time and last
 * request. A login ends at logout, after `maxAgeMs` from its creation, after `idleMs` without a
 * request, when `max` newer logins push it out, and — every one at once — when the token changes.
 *
 * The logins are kept in a private file (0600, written atomically), so a restart of `cc-linker
 * start` does not log every browser out; the file holds hashes, never an id, so reading it gives
 * nobody a working cookie. It is tagged with the token it belongs to (`tokenTag`): a store made
 * under another token counts for nothing, whoever wrote it last.
 *
 * @example
 *   const logins = await LoginSessions.open(loginStoreFile(paths), tokenTag(token), { logger });
 *   const id = await logins.create(); // → the cookie's value
 *   const key = logins.lookup(id); // the login's hash, or null
 */
export class LoginSessions {
  private readonly logins = new Map<string, Login>();
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string | null,
    private tag: string,
    private readonly limits: LoginLimits,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** Loads the logins of `file` made under the token tagged `tag` (`file` null: kept in memory only). */
  static async open(
    file: string | null,
    tag: string,
    opts: { logger: Logger; limits?: LoginLimits; now?: () => number },
  ): Promise<LoginSessions> {
    const store = new LoginSessions(file, tag, opts.limits ?? LOGIN_LIMITS, opts.logger, opts.now ?? Date.now);
    if (file === null) return store;
    try {
      const read = await readJsonFile<LoginFile>(file);
      const doc = read.exists ? read.value : null;
      if (doc?.version === 1 && doc.token === tag && Array.isArray(doc.logins))
        for (const l of doc.logins)
          if (typeof l.hash === 'string' && Number.isFinite(l.created) && Number.isFinite(l.seen))
            store.logins.set(l.hash, { hash: l.hash, created: l.created, seen: l.seen, savedSeen: l.seen });
      store.prune();
      if (read.exists && (doc?.token !== tag || store.logins.size !== doc.logins.length)) await store.save();
    } catch (err) {
      opts.logger.warn('console logins unreadable; starting with none', { err });
      await store.save();
    }
    return store;
  }

  /** How long a login lasts at most (the cookie's `Max-Age`). */
  get maxAgeMs(): number {
    return this.limits.maxAgeMs;
  }

  /** Logins in force. */
  get size(): number {
    this.prune();
    return this.logins.size;
  }

  /** A new login; returns its id (for the cookie, and nowhere else). */
  async create(): Promise<string> {
    this.prune();
    const id = randomBytes(ID_BYTES).toString('base64url');
    const now = this.now();
    this.logins.set(hashOf(id), { hash: hashOf(id), created: now, seen: now, savedSeen: now });
    const byAge = [...this.logins.values()].sort((a, b) => a.seen - b.seen);
    for (const old of byAge.slice(0, Math.max(0, byAge.length - this.limits.max))) this.logins.delete(old.hash);
    await this.save();
    return id;
  }

  /** The key (hash) of the login with this id, when it is in force; notes the request. */
  lookup(id: string | undefined): string | null {
    if (typeof id !== 'string' || !ID_SHAPE.test(id)) return null;
    const login = this.logins.get(hashOf(id));
    const now = this.now();
    if (!login || !this.alive(login, now)) return null;
    login.seen = now;
    if (now - login.savedSeen >= SEEN_WRITE_MS)
      this.save().catch((err: unknown) => this.logger.warn('could not save console logins', { err }));
    return login.hash;
  }

  /** Ends the login with this key (logout). */
  async end(key: string): Promise<void> {
    if (this.logins.delete(key)) await this.save();
  }

  /** Ends every login (in memory before this returns): the token is now the one tagged `tag`. */
  reset(tag: string): Promise<void> {
    this.tag = tag;
    this.logins.clear();
    return this.save();
  }

  /** Resolves when every write started so far is done (a lookup saves in the background). */
  settled(): Promise<void> {
    return this.saving;
  }

  private alive(login: Login, now: number): boolean {
    return now - login.created < this.limits.maxAgeMs && now - login.seen < this.limits.idleMs;
  }

  private prune(): void {
    const now = this.now();
    for (const login of this.logins.values()) if (!this.alive(login, now)) this.logins.delete(login.hash);
  }

  /** Writes the logins as they are when the write starts; writes run one after another. */
  private save(): Promise<void> {
    const file = this.file;
    if (file === null) return Promise.resolve();
    const run = this.saving.then(async () => {
      const logins = [...this.logins.values()].map((login) => ({ login, seen: login.seen }));
      const doc: LoginFile = {
        version: 1,
        token: this.tag,
        logins: logins.map(({ login, seen }) => ({ hash: login.hash, created: login.created, seen })),
      };
      await writeFileAtomic(file, `${JSON.stringify(doc)}\n`);
      for (const { login, seen } of logins) login.savedSeen = Math.max(login.savedSeen, seen);
    });
    this.saving = run.catch(() => undefined);
    return run;
  }
}

function hashOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
