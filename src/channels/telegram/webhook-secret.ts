import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDir } from '../../core/private-dir.js';
import { registerSecret } from '../../core/redact.js';

export const WEBHOOK_SECRET_FILE = 'telegram-webhook-secret';
const SHAPE = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * The webhook's `secret_token`: `telegram.webhook_secret` when set; otherwise the one kept in
 * `<runtimeDir>/telegram-webhook-secret` (0600), generated on first use (32 random bytes,
 * base64url — Telegram's alphabet), so a restart registers the same one. Registered as a secret
 * either way, so it never reaches a log. Without a runtime folder (tests) it lives in memory.
 */
export async function webhookSecret(configured: string, runtimeDir: string | undefined): Promise<string> {
  if (configured !== '') return keep(configured);
  if (!runtimeDir) return keep(randomBytes(32).toString('base64url'));
  const file = path.join(runtimeDir, WEBHOOK_SECRET_FILE);
  const kept = await fs.readFile(file, 'utf8').then(
    (text) => text.trim(),
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    },
  );
  if (SHAPE.test(kept)) return keep(kept);
  const fresh = randomBytes(32).toString('base64url');
  await makePrivateDir(runtimeDir);
  await fs.writeFile(file, `${fresh}\n`, { mode: 0o600 });
  await fs.chmod(file, 0o600);
  return keep(fresh);
}

function keep(secret: string): string {
  registerSecret(secret);
  return secret;
}
