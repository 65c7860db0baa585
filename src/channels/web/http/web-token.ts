import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Config } from '../../../core/config-schema.js';
import type { Language } from '../../../core/i18n.js';
import type { Paths } from '../../../core/paths.js';
import { registerSecret } from '../../../core/redact.js';
import { writeFileAtomic } from '../../../store/atomic-write.js';
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
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  await writeFileAtomic(file, `${token}\n`, { mode: 0o600 });
  registerSecret(token);
  return { token, source: 'generated' };
}
