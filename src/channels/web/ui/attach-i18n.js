// The composer's attachments: their own texts, zh and en; registered with addMessages().
export default {
  zh: {
    attachButton: '添加附件',
    attachShort: '附件',
    attachDrop: '松开即可添加附件',
    attachRemove: '移除 {name}',
    attachUploading: '上传中…',
    attachFailed: '上传失败：{msg}',
    attachWait: '附件仍在上传，请稍候。',
    attachTooLarge: '文件过大（上限 {max}）',
    attachOff: '文件功能已关闭（files.enabled = false）',
    attachNetwork: '连接中断，请重试',
    attachList: '待发送的附件',
  },
  en: {
    attachButton: 'Attach files',
    attachShort: 'Attach',
    attachDrop: 'Drop to attach',
    attachRemove: 'Remove {name}',
    attachUploading: 'Uploading…',
    attachFailed: 'Upload failed: {msg}',
    attachWait: 'Attachments are still uploading; try again in a moment.',
    attachTooLarge: 'too large (the limit is {max})',
    attachOff: 'files are turned off (files.enabled = false)',
    attachNetwork: 'the connection dropped; try again',
    attachList: 'Attachments to send',
  },
};
