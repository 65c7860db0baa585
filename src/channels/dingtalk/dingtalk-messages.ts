import { defineMessages } from '../../core/i18n.js';

/** The DingTalk channel's own user-facing strings (zh default, en). */
export const dingtalkMessages = defineMessages({
  zh: {
    continuedBelow: '…（回复较长，其余内容见后续消息）',
    waiting: '⏳ 正在处理，完成后发送回复…',
    replyWithNumber: '回复数字选择：',
    actionInvalid: '没有等待中的选项，或该选项已失效',
    actionFailed: '操作失败，请重试',
    actionDone: '已处理',
    imageFailed: '[第{n}张图片未能下载：{reason}]',
    imageTooLarge: '超过 {size} 上限',
    imageDisabled: '图片处理已关闭（images.enabled = false）',
    imageDownloadError: '下载出错',
    apiFailed: '钉钉接口调用失败（{op}）：「{detail}」',
  },
  en: {
    continuedBelow: '… (long reply — continued in the next messages)',
    waiting: '⏳ Working on it — the reply follows when it is done…',
    replyWithNumber: 'Reply with a number to choose:',
    actionInvalid: 'No choice is waiting, or that one has expired',
    actionFailed: 'The action failed, please retry',
    actionDone: 'Done',
    imageFailed: '[Image {n} could not be downloaded: {reason}]',
    imageTooLarge: 'larger than the {size} limit',
    imageDisabled: 'image handling is off (images.enabled = false)',
    imageDownloadError: 'download error',
    apiFailed: 'DingTalk API call failed ({op}): “{detail}”',
  },
});
