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
    attachList: 'Attachments to send',
  },
};
