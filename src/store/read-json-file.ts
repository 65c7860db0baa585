import fs from 'node:fs';
import path from 'node:path';
import { StoreError } from './store-error.js';

/** The result of `readJsonFile`: a missing file is a normal case, not an error. */
export type JsonFileResult<T> = { exists: false } | { exists: true; value: T };

/**
 * Reads and parses a JSON state file. A missing file gives `{ exists: false }`; a file that is
 * empty or does not parse (typically half-written by something that did not use
 * `writeFileAtomic`) throws `StoreError` `STORE_CORRUPT`, whose one-line message names the file so
 * the user knows what to restore; other read failures throw `STORE_IO`. The value is not
 * validated: `T` is what the caller expects, to be checked by the caller.
 *
 * @example
 *   const r = await readJsonFile<Registry>(paths.registryFile);
 *   const registry = r.exists ? r.value : emptyRegistry();
 */
export async function readJsonFile<T = unknown>(file: string): Promise<JsonFileResult<T>> {
  const abs = path.resolve(file);
  let text: string;
  try {
    // One synchronous read and one UTF-8 decode: state files live in the page cache, so the read
    // is a memcpy, and the async variant (512 KB chunks through the thread pool, decoded piecewise)
    // costs a cold `cc-linker list` several times more for the same bytes.
    text = fs.readFileSync(abs).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    throw StoreError.io('read', abs, err);
  }
  return { exists: true, value: parseJsonText<T>(abs, text) };
}

/** Parses the text of `file`, throwing `STORE_CORRUPT` (naming the file) when it is not JSON. */
export function parseJsonText<T = unknown>(file: string, text: string): T {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim().length === 0) throw new StoreError('STORE_CORRUPT', { file, reason: 'empty file' });
  try {
    return JSON.parse(body) as T;
  } catch (err) {
    throw new StoreError('STORE_CORRUPT', { file, reason: jsonErrorReason(err, body.length) }, { cause: err });
  }
}

/**
 * A short reason without file content: V8 quotes the offending text in its messages, and a state
 * file may hold a token, so only the kind of failure and the position are kept.
 */
function jsonErrorReason(err: unknown, length: number): string {
  const message = err instanceof Error ? err.message : '';
  const pos = /position (\d+)/.exec(message);
  if (/end of JSON input/i.test(message) || (pos && Number(pos[1]) >= length)) return 'truncated JSON';
  return pos ? `invalid JSON at position ${pos[1]}` : 'invalid JSON';
}
