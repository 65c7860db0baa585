import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Config } from '../../../core/config-schema.js';
import type { Language } from '../../../core/i18n.js';
import type { Paths } from '../../../core/paths.js';
import { registerSecret } from '../../../core/redact.js';
import { writeFileAtomic } from '../../../store/atomic-write.js';
import { loginStoreFile } from './login-sessions.js';
import { WebError } from './web-error.js';

/** Bytes of randomness in a generated token (rendered as 43 base64url characters). */
export const TOKEN_BYTES = 32;

/**
 * The console's access token: `web.token` from the config when set, else the token stored in
 * `paths.webTokenFile`, else a new random 32-byte token written there once (0600, atomically) so
 * the printed URL keeps working across restarts. The token is registered with `redact`, so it never
 * reaches a log line. A stored file that is not private is tightened to 0600.
 *
 * @example
 *   const { token, source } = await loadWebToken(config, paths, 'zh'); // source: 'config' | 'file' | 'generated'
 */
export async function loadWebToken(
  config: Config,
  paths: Pick<Paths, 'webTokenFile'>,
  lang: Language,
): Promise<{ token: string; source: 'config' | 'file' | 'generated' }> {
  const configured = config.web.token.trim();
  if (configured) {
    registerSecret(configured);
    return { token: configured, source: 'config' };
  }
  const file = paths.webTokenFile;
  try {
    const stored = (await fs.readFile(file, 'utf8')).trim();
    if (stored.length >= 16) {
      const st = await fs.stat(file);
      if ((st.mode & 0o077) !== 0) await fs.chmod(file, 0o600);
      registerSecret(stored);
      return { token: stored, source: 'file' };
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      throw new WebError('WEB_TOKEN_UNREADABLE', { file, reason: code ?? String(err) }, lang, { cause: err });
  }
  return { token: await writeNewToken(file), source: 'generated' };
}

/**
 * Replaces the token in `paths.webTokenFile` with a new random one and ends every console login
 * (the login store is deleted; a running console also sees the new token at its next request and
 * drops every login it holds). Refused with `WEB_TOKEN_IN_CONFIG` when `web.token` is set in the
 * config: that token is the user's, to be changed where it is written.
 *
 * @example
 *   const token = await rotateWebToken(config, paths, 'en');
 */
export async function rotateWebToken(
  config: Config,
  paths: Pick<Paths, 'webTokenFile' | 'configFile' | 'home'>,
  lang: Language,
): Promise<string> {
  if (config.web.token.trim()) throw new WebError('WEB_TOKEN_IN_CONFIG', { file: paths.configFile }, lang);
  const token = await writeNewToken(paths.webTokenFile);
  await fs.rm(loginStoreFile(paths), { force: true });
  return token;
}

async function writeNewToken(file: string): Promise<string> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  await writeFileAtomic(file, `${token}\n`, { mode: 0o600 });
  registerSecret(token);
  return token;
}
