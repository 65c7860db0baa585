import { createHmac } from 'node:crypto';

const TOKEN_RE = /^t-g1([0-9a-fA-F]{16})([0-9a-f]{32})$/;

/**
 * Tenant access tokens of the fake, derived from (app id, app secret) instead of stored: the SDK
 * caches a token process-wide per app id, so a token issued by an earlier fake with the same
 * secret must stay valid on the next one. Shape: `t-g1<app id hex><32 hex mac>`.
 */
export class TenantTokens {
  constructor(private readonly appSecret: string) {}

  /** The token for `appId` (an accepted `cli_` + 16 hex id). */
  issue(appId: string): string {
    const mac = createHmac('sha256', this.appSecret).update(appId).digest('hex').slice(0, 32);
    return `t-g1${appId.slice(4)}${mac}`;
  }

  /** The app id `token` was issued for by this secret, or undefined for a forged or foreign token. */
  appOf(token: string): string | undefined {
    const hex = TOKEN_RE.exec(token)?.[1];
    if (hex === undefined) return undefined;
    const appId = `cli_${hex}`;
    return this.issue(appId) === token ? appId : undefined;
  }
}
