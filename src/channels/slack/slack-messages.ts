import { defineMessages } from '../../core/i18n.js';

/** The Slack channel's own user-facing strings (zh default, en). */
export const slackMessages = defineMessages({
  zh: {
    continuedBelow: '…（回复较长，其余内容见后续消息）',
    streamCapped: '…（回复较长，完整内容将在结束后发送）',
    waiting: '⏳ 正在思考…',
    imageFailed: '[第{n}个文件未能下载：{reason}]',
    imageTooLarge: '超过 {size} 上限',
    imageDisabled: '图片处理已关闭（images.enabled = false）',
    imageDownloadError: '下载出错',
    apiFailed: 'Slack 接口调用失败（{op}）：「{detail}」',
  },
  en: {
    continuedBelow: '… (long reply — continued in the next messages)',
    streamCapped: '… (long reply — the rest follows when it is done)',
    waiting: '⏳ Thinking…',
    imageFailed: '[File {n} could not be downloaded: {reason}]',
    imageTooLarge: 'larger than the {size} limit',
    imageDisabled: 'image handling is off (images.enabled = false)',
    imageDownloadError: 'download error',
    apiFailed: 'Slack API call failed ({op}): “{detail}”',
  },
});
