import { defineMessages } from '../../core/i18n.js';

/** What the user reads about an image or file that could not be kept, on any channel (zh default, en). */
export const inboundFilesMessages = defineMessages({
  zh: {
    imageFailed: '[第{n}张图片未能下载：{reason}]',
    imageTooLarge: '超过 {size} 上限',
    imageDisabled: '图片处理已关闭（images.enabled = false）',
    imageDownloadError: '下载出错',
    fileFailed: '文件“{name}”未能接收：{reason}',
    fileTooLarge: '超过 {size} 上限，未保存',
    fileDisabled: '文件处理已关闭（files.enabled = false）',
    fileDownloadError: '下载出错，请重新发送',
    fileRestRuns: '消息的其余部分照常处理。',
  },
  en: {
    imageFailed: '[Image {n} could not be downloaded: {reason}]',
    imageTooLarge: 'larger than the {size} limit',
    imageDisabled: 'image handling is off (images.enabled = false)',
    imageDownloadError: 'download error',
    fileFailed: 'The file “{name}” was not received: {reason}',
    fileTooLarge: 'larger than the {size} limit, not kept',
    fileDisabled: 'file handling is off (files.enabled = false)',
    fileDownloadError: 'download error, please send it again',
    fileRestRuns: 'The rest of your message is processed as usual.',
  },
});
