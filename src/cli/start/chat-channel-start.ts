import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';

/**
 * How a chat app's channel came out of `start`: `started` (it connects in the background and
 * retries; its state is in `/status`), `disabled` (`<app>.enabled = false`), `no-credentials`
 * (enabled without its tokens) or `error` (it could not even be created; logged, the rest runs on).
 */
export type ChatChannelStart = 'started' | 'disabled' | 'no-credentials' | 'error';

/** What a chat app's daemon factory (`<app>-for-daemon.ts`) is given. */
export interface ChatChannelContext {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
}
