import { redact } from '../../core/redact.js';
import { DingTalkApi } from './dingtalk-api.js';
import { DingTalkApiError } from './dingtalk-api-error.js';

/** What DingTalk said about a client id and secret. */
export type CredentialsCheck = { ok: true } | { ok: false; refused: boolean; detail: string };

/**
 * Asks DingTalk (`POST <apiBase>/v1.0/oauth2/accessToken`) whether the app's client id and secret
 * are accepted, within `timeoutMs` (used by `doctor`, and by `setup`). `refused` = DingTalk
 * answered no (400/401/403); otherwise it could not be asked. `detail` never holds the secret.
 */
export async function checkCredentials(
  o: { apiBase: string; clientId: string; clientSecret: string },
  timeoutMs = 5_000,
): Promise<CredentialsCheck> {
  const api = new DingTalkApi({ ...o, lang: 'en', attempts: 1, timeoutMs });
  try {
    await api.accessToken();
    return { ok: true };
  } catch (err) {
    const e = err instanceof DingTalkApiError ? err : new DingTalkApiError('accessToken', 0, 'failed', 'en', err);
    const detail = e.status > 0 ? `HTTP ${e.status}${e.description ? ` ${e.description}` : ''}` : e.description;
    return { ok: false, refused: [400, 401, 403].includes(e.status), detail: redact(detail.slice(0, 200)) };
  }
}
