import net from 'node:net';
import type { Language } from '../../core/i18n.js';
import { isLoopbackHost } from '../../core/loopback-host.js';
import { telegramMessages } from './telegram-messages.js';

/**
 * The warning for a webhook server listening beyond this machine (docs/design.md#telegram): our
 * server speaks plain HTTP, meant to sit behind the user's HTTPS reverse proxy or tunnel, so a
 * `telegram.webhook_listen` that is not loopback (`0.0.0.0`, a LAN address) takes updates
 * unencrypted from the network — the secret header still guards it. `undefined` on loopback
 * (`127.0.0.0/8`, `::1`, `localhost`). Said by `doctor` and logged at start; never refused.
 */
export function webhookListenExposure(listen: { host: string; port: number }, lang: Language): string | undefined {
  if (isLoopbackHost(listen.host)) return undefined;
  const address = `${net.isIPv6(listen.host) ? `[${listen.host}]` : listen.host}:${listen.port}`;
  return telegramMessages(lang)('webhookListenExposed', { address, port: listen.port });
}
