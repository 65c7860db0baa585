import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Language } from '../core/i18n.js';
import { engineMessages } from './engine-messages.js';
import type { FileSender, SendFileRequest } from './engine-types.js';

/** One agent child's right to send files: its token, until `revoke()` (the child ended). */
export interface SendFileGrant {
  /** 64 hex digits (256 random bits), given to the child's `cc-linker mcp` in its environment only. */
  readonly token: string;
  revoke(): void;
}

/** The shape of a token: exactly what `issue` hands out. */
const TOKEN = /^[0-9a-f]{64}$/;

/**
 * The daemon's map from a `cc-linker mcp` token to the file sender of the turn its agent child is
 * running NOW (docs/design.md#files-out). One grant per agent child (a Claude Code CLI child, an
 * ACP agent process); `current` is asked at each call, so a warm child's later turn sends into its
 * own chat, and a call between turns is refused like in sdk mode. An unknown or revoked token is
 * refused with a sentence, never thrown.
 *
 * Tokens are kept as their SHA-256 digests and compared with `timingSafeEqual`: the lookup's timing
 * says nothing about a token a caller does not already have.
 *
 * @example
 *   const grant = registry.issue(() => turn?.files);   // token → the child's env
 *   await registry.send(grant.token, { path: 'out.png' }); // { ok, text }
 *   grant.revoke();                                     // when the child ends
 */
export class FileSenderRegistry {
  private readonly grants = new Map<string, { digest: Buffer; current: () => FileSender | undefined }>();

  constructor(private readonly lang: Language) {}

  /** A new token whose calls go to `current()`'s sender. */
  issue(current: () => FileSender | undefined): SendFileGrant {
    const token = randomBytes(32).toString('hex');
    const digest = digestOf(token);
    const key = digest.toString('hex');
    this.grants.set(key, { digest, current });
    return { token, revoke: () => void this.grants.delete(key) };
  }

  /** How many grants are live (children that may call now). */
  get size(): number {
    return this.grants.size;
  }

  /**
   * Sends `request` through the sender of the token's current turn; refused (`ok: false`, the
   * sentence the agent reads) for a malformed, unknown or revoked token, or between turns.
   */
  async send(token: unknown, request: SendFileRequest): Promise<{ ok: boolean; text: string }> {
    const t = engineMessages(this.lang);
    const grant = typeof token === 'string' && TOKEN.test(token) ? this.find(token) : undefined;
    if (!grant) return { ok: false, text: t('file_token_unknown') };
    const sender = grant.current();
    if (!sender) return { ok: false, text: t('file_no_sender') };
    return sender.sendFile(request);
  }

  private find(token: string): { current: () => FileSender | undefined } | undefined {
    const digest = digestOf(token);
    const grant = this.grants.get(digest.toString('hex'));
    return grant && timingSafeEqual(grant.digest, digest) ? grant : undefined;
  }
}

function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
