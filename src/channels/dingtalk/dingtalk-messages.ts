import { defineMessages } from '../../core/i18n.js';

/** The DingTalk channel's own user-facing strings (zh default, en). */
export const dingtalkMessages = defineMessages({
  zh: {
    continuedBelow: '…（回复较长，其余内容见后续消息）',
    waiting: '⏳ 正在处理，完成后发送回复…',
    replyWithNumber: '回复数字选择：',
    tapOrReply: '点选一项，或回复数字',
    tapOrType: '点选一项（或回复“编号 #{token}”）',
    noSuchOption: '该提示没有选项 {n}，未做任何操作',
    actionInvalid: '没有等待中的选项，或该选项已失效',
    actionFailed: '操作失败，请重试',
    actionDone: '已处理',
    apiFailed: '钉钉接口调用失败（{op}）：「{detail}」',
    fileTooLarge: '文件“{name}”大小为 {size}，超过钉钉 {limit} 的上限，未发送',
    fileEmpty: '文件“{name}”是空文件，钉钉不接收，未发送',
    started: '▶️ 排队的消息开始处理了，完成后发送回复…',
  },
  en: {
    continuedBelow: '… (long reply — continued in the next messages)',
    waiting: '⏳ Working on it — the reply follows when it is done…',
    replyWithNumber: 'Reply with a number to choose:',
    tapOrReply: 'Tap an option, or reply with its number',
    tapOrType: 'Tap an option (or reply "<number> #{token}")',
    noSuchOption: 'That prompt has no option {n}; nothing was done',
    actionInvalid: 'No choice is waiting, or that one has expired',
    actionFailed: 'The action failed, please retry',
    actionDone: 'Done',
    apiFailed: 'DingTalk API call failed ({op}): “{detail}”',
    fileTooLarge: 'The file “{name}” is {size}, over DingTalk’s {limit} limit; not sent',
    fileEmpty: 'The file “{name}” is empty and DingTalk takes no empty file; not sent',
    started: '▶️ Your waiting message has started — the reply follows when it is done…',
  },
});
