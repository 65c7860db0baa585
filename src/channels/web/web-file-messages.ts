import { defineMessages } from '../../core/i18n.js';

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** What the console says about files: uploads refused, attachments unknown, a sent file gone — zh (default) and en. */
export const webFileMessages = defineMessages({
  zh: {
    uploadTooLarge: (p) => `文件过大：上限 ${s(p.size)}，未保存任何内容。`,
    uploadsOff: '文件功能已关闭（config.toml 中 files.enabled = false）。',
    uploadType: '上传的请求体必须是 application/octet-stream。',
    uploadUnknown: (p) => `附件 ${s(p.id)} 不存在、已发送过或已被清理；消息未发送，请重新添加附件。`,
    uploadTooMany: (p) => `一条消息最多带 ${s(p.max)} 个附件。`,
    uploadWithCommand: '命令不带附件：请先发送命令，再把附件和消息一起发送。',
    sentFileGone: '该文件已按 files.cleanup_max_age_hours 清理，不再保留。',
  },
  en: {
    uploadTooLarge: (p) => `The file is too large: the limit is ${s(p.size)}; nothing was kept.`,
    uploadsOff: 'Files are turned off (files.enabled = false in config.toml).',
    uploadType: 'An upload must be sent as application/octet-stream.',
    uploadUnknown: (p) =>
      `Attachment ${s(p.id)} is unknown, already sent or cleaned up; the message was not sent — attach the file again.`,
    uploadTooMany: (p) => `A message takes at most ${s(p.max)} attachments.`,
    uploadWithCommand: 'A command takes no attachments: send the command first, then the files with a message.',
    sentFileGone: 'This file was removed by the age cleanup (files.cleanup_max_age_hours) and is no longer kept.',
  },
});
