import { AppError } from '../../core/app-error.js';
import { formatBytes } from '../../core/format-bytes.js';
import type { Language } from '../../core/i18n.js';
import { dingtalkMessages } from './dingtalk-messages.js';
import { DINGTALK_MAX_UPLOAD_BYTES } from './media-upload.js';

/**
 * A file the channel does not hand to DingTalk: empty, or over DingTalk's documented upload cap
 * (`DINGTALK_MAX_UPLOAD_BYTES`, named in the message). Nothing was uploaded or sent.
 */
export class DingTalkFileRefused extends AppError {
  constructor(
    readonly fileName: string,
    readonly size: number,
    lang: Language,
  ) {
    super('DINGTALK_FILE_REFUSED', DingTalkFileRefused.message(fileName, size, lang));
  }

  override localize(lang: Language): string {
    return DingTalkFileRefused.message(this.fileName, this.size, lang);
  }

  private static message(name: string, size: number, lang: Language): string {
    const t = dingtalkMessages(lang);
    if (size === 0) return t('fileEmpty', { name });
    return t('fileTooLarge', { name, size: formatBytes(size), limit: formatBytes(DINGTALK_MAX_UPLOAD_BYTES) });
  }
}
