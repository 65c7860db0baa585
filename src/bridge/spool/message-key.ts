import { createHash } from 'node:crypto';

/**
 * The file name of a message in every spool directory, receipts and deliveries: a hash of the
 * message id, so any id (colons, slashes, unicode) maps to one safe, fixed-length name and the
 * same message is found in any state by name alone.
 */
export function messageFileName(messageId: string): string {
  return `${createHash('sha256').update(messageId).digest('hex').slice(0, 40)}.json`;
}

/**
 * The idempotency key of one outbound chunk: a valid UUID string (36 chars, within Feishu's 50)
 * made from sha256(`<message id>:<chunk index>`), so every retry of the same chunk — even after a
 * restart — reuses the same key and the platform shows the chunk once.
 */
export function deliveryUuid(messageId: string, chunk: number | string): string {
  const h = createHash('sha256').update(`${messageId}:${chunk}`).digest('hex');
  const variant = ((Number.parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
