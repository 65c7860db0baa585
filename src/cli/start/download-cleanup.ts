import { cleanupDownloads } from '../../bridge/inbound-files/cleanup-downloads.js';
import type { Config } from '../../core/config-schema.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';

const EVERY_MS = 3_600_000;

/**
 * The age-based cleanup of what users sent, whichever channel downloaded it: the images folder
 * (`images.cleanup_max_age_hours`) and the attachments folder (`files.cleanup_max_age_hours`), at
 * start and hourly while the daemon runs — not tied to one channel, so Telegram's photos or the
 * console's uploads age out without Feishu. Returns the stop function.
 */
export function startDownloadCleanup(o: {
  paths: Pick<Paths, 'imagesDir' | 'attachmentsDir'>;
  config: Pick<Config, 'images' | 'files'>;
  logger: Logger;
  everyMs?: number;
}): () => void {
  const run = (): void => {
    for (const [dir, hours] of [
      [o.paths.imagesDir, o.config.images.cleanup_max_age_hours],
      [o.paths.attachmentsDir, o.config.files.cleanup_max_age_hours],
    ] as const) {
      cleanupDownloads(dir, hours).then(
        (n) => (n > 0 ? o.logger.info('old downloads removed', { dir, count: n }) : undefined),
        (err: unknown) => o.logger.warn('download cleanup failed', { dir, err }),
      );
    }
  };
  run();
  const timer = setInterval(run, o.everyMs ?? EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
