import { fetchDownload, type OpenedDownload } from '../../bridge/inbound-files/fetch-download.js';
import { TooLarge } from '../../bridge/inbound-files/save-stream.js';
import { AppError } from '../../core/app-error.js';
import { formatBytes } from '../../core/format-bytes.js';
import type { Language } from '../../core/i18n.js';
import { telegramMessages } from './telegram-messages.js';

/** The largest file the Bot API lets a bot download (`getFile`); larger ones cannot be fetched at all. */
export const BOT_API_DOWNLOAD_LIMIT = 20 * 1024 * 1024;

/** A file the Bot API will not hand to a bot (over its 20 MB download limit). */
export class TelegramFileTooBig extends AppError {
  constructor(lang: Language) {
    super(
      'TELEGRAM_FILE_TOO_BIG',
      telegramMessages(lang)('fileTooBigForBots', { size: formatBytes(BOT_API_DOWNLOAD_LIMIT) }),
    );
  }

  override localize(lang: Language): string {
    return telegramMessages(lang)('fileTooBigForBots', { size: formatBytes(BOT_API_DOWNLOAD_LIMIT) });
  }
}

export interface TelegramFiles {
  /** `getFile`: the file's path on the Bot API file server, and its size when Telegram knows it. */
  filePath(fileId: string): Promise<{ path: string; size?: number }>;
  /** `{api_root}/file/bot<token>/<path>` — holds the token: never logged. */
  fileUrl(filePath: string): string;
  lang: Language;
}

/**
 * Opens a file a user sent: `getFile`, then the download. A size Telegram announces over
 * `maxBytes` throws `TooLarge` before a byte is fetched; over the Bot API's own limit it throws
 * `TelegramFileTooBig` (Telegram would refuse the `getFile`). The caller caps the stream too.
 */
export async function openTelegramFile(
  o: TelegramFiles,
  fileId: string,
  maxBytes: number,
  announcedSize?: number,
): Promise<OpenedDownload> {
  if (announcedSize !== undefined && announcedSize > maxBytes) throw new TooLarge();
  if (announcedSize !== undefined && announcedSize > BOT_API_DOWNLOAD_LIMIT) throw new TelegramFileTooBig(o.lang);
  const file = await o.filePath(fileId);
  if (file.size !== undefined && file.size > maxBytes) throw new TooLarge();
  return fetchDownload(o.fileUrl(file.path));
}
