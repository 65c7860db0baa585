import { writeFileAtomic } from './atomic-write.js';
import { withFileLock, type FileLockOptions } from './file-lock.js';
import { readJsonFile } from './read-json-file.js';
import { StoreError } from './store-error.js';

/** How a `VersionedDoc` knows its shape: the schema it writes, the empty value, and a checker. */
export interface VersionedDocOptions<T> {
  /** The schema number this code writes; a file with a larger one is refused (`STORE_NEWER_SCHEMA`). */
  schema: number;
  /** The value of a document that does not exist yet (version 0). */
  defaultValue: () => T;
  /** Checks (and may normalise) stored data; throwing makes the read fail with `STORE_CORRUPT`. */
  validate?: (data: unknown) => T;
  /** Upgrades data stored under an older schema before `validate` sees it. */
  migrate?: (data: unknown, fromSchema: number) => unknown;
  /** Options of the `<file>.lock` taken by writes. */
  lock?: FileLockOptions;
}

/** One observed state of a document: `version` 0 means the file does not exist yet. */
export interface VersionedSnapshot<T> {
  version: number;
  data: T;
}

/** The outcome of `compareAndSwap`: the new version, or the state that won instead. */
export type CasResult<T> = { ok: true; version: number } | { ok: false; current: VersionedSnapshot<T> };

/** The outcome of `update`: the resulting state and whether a write happened. */
export interface UpdateResult<T> extends VersionedSnapshot<T> {
  changed: boolean;
}

/**
 * A small JSON state file (user-mapping.json, permissions.json …) that several processes may
 * update — the bot, a CLI command, a hook — without losing each other's changes.
 *
 * On disk: `{ "version": <int, +1 on every write>, "schema": <int>, "data": T }`, written with
 * `writeFileAtomic` (0600). Readers never lock (a rename is atomic); writers take `<file>.lock` and
 * write only if the version is still the one they read (compare-and-swap).
 *
 * @example
 *   const doc = new VersionedDoc(paths.userMappingFile, { schema: 1, defaultValue: () => ({ users: {} }) });
 *   await doc.update((d) => { d.users[openId] = target; return d; });
 */
export class VersionedDoc<T> {
  readonly file: string;
  readonly lockFile: string;
  private readonly opts: VersionedDocOptions<T>;

  constructor(file: string, opts: VersionedDocOptions<T>) {
    this.file = file;
    this.lockFile = `${file}.lock`;
    this.opts = opts;
  }

  /**
   * The current state. Missing file → version 0 and `defaultValue()`. Throws `STORE_CORRUPT` for a
   * file that does not parse or is not a versioned document (or fails `validate`), and
   * `STORE_NEWER_SCHEMA` for one written by a newer cc-linker.
   */
  async read(): Promise<VersionedSnapshot<T>> {
    const r = await readJsonFile(this.file);
    if (!r.exists) return { version: 0, data: this.opts.defaultValue() };
    const env = r.value as { version?: unknown; schema?: unknown; data?: unknown } | null;
    if (
      !env ||
      typeof env !== 'object' ||
      Array.isArray(env) ||
      !isCount(env.version) ||
      !isCount(env.schema) ||
      !('data' in env)
    ) {
      throw new StoreError('STORE_CORRUPT', { file: this.file, reason: 'not a versioned document' });
    }
    if (env.schema > this.opts.schema) {
      throw new StoreError('STORE_NEWER_SCHEMA', { file: this.file, found: env.schema, supported: this.opts.schema });
    }
    const raw = env.schema < this.opts.schema && this.opts.migrate ? this.opts.migrate(env.data, env.schema) : env.data;
    return { version: env.version, data: this.check(raw) };
  }

  /**
   * Writes `data` as version `expectedVersion + 1` if the file is still at `expectedVersion`
   * (0 = does not exist); otherwise writes nothing and returns what is there now.
   */
  async compareAndSwap(expectedVersion: number, data: T): Promise<CasResult<T>> {
    return withFileLock(
      this.lockFile,
      async () => {
        const current = await this.read();
        if (current.version !== expectedVersion) return { ok: false, current } as const;
        return { ok: true, version: await this.write(current.version + 1, data) } as const;
      },
      this.opts.lock,
    );
  }

  /**
   * Read → `mutate` a structuredClone → compare-and-swap, retrying on conflict. `mutate` returns
   * the new data, or `undefined` for "no change" (nothing is written); it may run more than once,
   * so it must not have side effects. After `maxRetries` conflicts (default 5) the last attempt
   * runs read → mutate → write inside the lock, so a hot document still cannot starve a writer.
   */
  async update(mutate: (data: T) => T | undefined, opts: { maxRetries?: number } = {}): Promise<UpdateResult<T>> {
    const maxRetries = opts.maxRetries ?? 5;
    let cur: VersionedSnapshot<T> | undefined;
    for (let attempt = 0; attempt < maxRetries; attempt += 1) {
      cur ??= await this.read();
      const next = mutate(structuredClone(cur.data));
      if (next === undefined) return { ...cur, changed: false };
      const r = await this.compareAndSwap(cur.version, next);
      if (r.ok) return { version: r.version, data: next, changed: true };
      cur = r.current;
    }
    return withFileLock(
      this.lockFile,
      async () => {
        const locked = await this.read();
        const next = mutate(structuredClone(locked.data));
        if (next === undefined) return { ...locked, changed: false };
        return { version: await this.write(locked.version + 1, next), data: next, changed: true };
      },
      this.opts.lock,
    );
  }

  private check(raw: unknown): T {
    if (!this.opts.validate) return raw as T;
    try {
      return this.opts.validate(raw);
    } catch (err) {
      const first = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
      throw new StoreError(
        'STORE_CORRUPT',
        { file: this.file, reason: `invalid data: ${first.slice(0, 160)}` },
        { cause: err },
      );
    }
  }

  private async write(version: number, data: T): Promise<number> {
    await writeFileAtomic(this.file, `${JSON.stringify({ version, schema: this.opts.schema, data }, null, 2)}\n`);
    return version;
  }
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}
