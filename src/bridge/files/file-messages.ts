import { defineMessages } from '../../core/i18n.js';

/** What the agent reads as `send_file`'s answer (the user's language; the agent relays it). */
export const fileMessages = defineMessages({
  zh: {
    sent: '已发送{kind}「{name}」（{size}）到聊天。',
    kindImage: '图片',
    kindFile: '文件',
    invalid: '未发送：路径无效（{path}）。',
    notFound: '未发送：文件不存在（{path}）。',
    outsideSession: '未发送：{path} 不在本会话的目录（{cwd}）或本条消息的附件目录中。',
    outsideAllowed: '未发送：{path} 不在允许的目录（{roots}）中。',
    denied: '未发送：{path} 位于禁止的目录中。',
    notRegular: '未发送：{path} 不是普通文件（目录、管道、设备或套接字）。',
    empty: '未发送：{path} 是空文件。',
    tooLarge: '未发送：{path} 大小 {size}，超过上限 {limit}。',
    unreadable: '未发送：无法读取 {path}（{reason}）。',
    noChannel: '未发送：当前聊天渠道不支持发送文件。',
    noTurn: '未发送：当前没有正在进行的对话轮次。',
    failed: '未发送：{name} 上传或发送失败（{reason}）。',
  },
  en: {
    sent: 'Sent the {kind} "{name}" ({size}) to the chat.',
    kindImage: 'image',
    kindFile: 'file',
    invalid: 'Not sent: invalid path ({path}).',
    notFound: 'Not sent: no such file ({path}).',
    outsideSession:
      "Not sent: {path} is neither in this session's directory ({cwd}) nor in this message's attachments.",
    outsideAllowed: 'Not sent: {path} is outside the allowed directories ({roots}).',
    denied: 'Not sent: {path} is in a denied directory.',
    notRegular: 'Not sent: {path} is not a regular file (a directory, pipe, device or socket).',
    empty: 'Not sent: {path} is empty.',
    tooLarge: 'Not sent: {path} is {size}, over the limit of {limit}.',
    unreadable: 'Not sent: {path} cannot be read ({reason}).',
    noChannel: 'Not sent: this chat channel cannot send files.',
    noTurn: 'Not sent: no turn is running.',
    failed: 'Not sent: uploading or sending {name} failed ({reason}).',
  },
});
