import { defineMessages } from '../../core/i18n.js';

/** What the user reads about a file that could not be kept, on any channel (zh default, en). */
export const inboundFilesMessages = defineMessages({
  zh: {
    fileFailed: '文件“{name}”未能接收：{reason}',
    fileTooLarge: '超过 {size} 上限，未保存',
    fileDisabled: '文件处理已关闭（files.enabled = false）',
    fileDownloadError: '下载出错，请重新发送',
    fileRestRuns: '消息的其余部分照常处理。',
  },
  en: {
    fileFailed: 'The file “{name}” was not received: {reason}',
    fileTooLarge: 'larger than the {size} limit, not kept',
    fileDisabled: 'file handling is off (files.enabled = false)',
    fileDownloadError: 'download error, please send it again',
    fileRestRuns: 'The rest of your message is processed as usual.',
  },
});
