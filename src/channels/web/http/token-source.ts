import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import { registerSecret } from '../../../core/redact.js';

/** A stored token shorter than this is not a token (`loadWebToken` replaces it at the next start). */
const MIN_TOKEN_LENGTH = 16;

/**
 * The console token as a running server sees it. A token from the config (`web.token`) is fixed;
 * a token from the token file is re-read whenever that file changes, so `cc-linker web rotate-token`
 * takes effect in a running console at its next request, without a restart. The check is one
 * `stat` per request (inode, size and times: the rotation replaces the file by a rename). A file
 * that disappears, cannot be read or holds no usable token leaves the current token in force.
 *
 * @example
 *   const source = await TokenSource.fromFile(token, paths.webTokenFile);
 *   if (await source.refresh()) endEveryLogin();
 */
export class TokenSource {
  private digest: Buffer;
  private pending: Promise<boolean> | null = null;

  private constructor(
    private token: string,
    private readonly file: string | null,
    private stamp: string | null,
  ) {
    this.digest = sha256(token);
  }

  /** A token that never changes (`web.token` from the config). */
  static fixed(token: string): TokenSource {
    return new TokenSource(token, null, null);
  }

  /** The token just read from `file`, watched for changes from now on. */
  static async fromFile(token: string, file: string): Promise<TokenSource> {
    return new TokenSource(token, file, await stampOf(file));
  }

  /** The token now in force. */
  get value(): string {
    return this.token;
  }

  /** Whether a candidate is the token now in force (constant time). */
  matches(candidate: string | undefined | null): boolean {
    if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 512) return false;
    return timingSafeEqual(sha256(candidate), this.digest);
  }

  /** Re-reads the token file if it changed; true when a different token is now in force. */
  refresh(): Promise<boolean> {
    if (this.file === null) return Promise.resolve(false);
    // Concurrent requests share one look at the file.
    this.pending ??= this.reread(this.file).finally(() => (this.pending = null));
    return this.pending;
  }

  private async reread(file: string): Promise<boolean> {
    const stamp = await stampOf(file);
    if (stamp === null || stamp === this.stamp) return false;
    let text: string;
    try {
      text = (await fs.readFile(file, 'utf8')).trim();
    } catch {
      return false;
    }
    this.stamp = stamp;
    if (text.length < MIN_TOKEN_LENGTH || text === this.token) return false;
    registerSecret(text);
    this.token = text;
    this.digest = sha256(text);
    return true;
  }
}

async function stampOf(file: string): Promise<string | null> {
  try {
    const st = await fs.stat(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return null;
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
